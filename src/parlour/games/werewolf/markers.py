"""Leak markers: unique strings planted in every secret when ``plant_markers`` is on."""

from __future__ import annotations

from collections.abc import Iterable

from parlour.games.werewolf.config import WerewolfConfig
from parlour.games.werewolf.state import WerewolfState


def plant(st: WerewolfState, cfg: WerewolfConfig, key: str, allowed: Iterable[str]) -> str:
    """Return ``" [[mk:<key>]]"`` to append to a secret (and register it), or "" when off.

    The closing brackets keep ``p1`` markers from being prefixes of ``p10`` markers.
    """
    if not cfg.plant_markers:
        return ""
    marker = f"[[mk:{key}]]"
    st.markers[marker] = frozenset(allowed)
    return f" {marker}"
