"""Leak markers: unique strings planted in secrets (config ``plant_markers``), each
registered with the seats entitled to it, so the conformance suite and ``audit`` can scan
every view and prompt for a marker its seat may not know.

A marker is ``[[mk:NONCE:KEY]]``. ``KEY`` names the secret (``role:p3``); ``NONCE`` is
derived from the game's seed, so a person at the table who types ``[[mk:role:p5]]`` into
the chat writes a string that is no planted marker: the audit reports it as a forgery
instead of blaming the engine. The nonce is as secret as the seed.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

#: Anything shaped like a marker, planted or typed: what the audit looks for in authored text.
MARKER_SHAPE = re.compile(r"\[\[mk:[^\[\]\s]{1,160}\]\]")


#: The per-game part of a marker, as it opens one.
_NONCE_PART = re.compile(r"\[\[mk:[0-9a-f]{8}:")


def without_nonce(text: str) -> str:
    """``text`` with every marker in its old form ``[[mk:KEY]]``: how a recording made
    before markers had a per-game part still matches today's prompts (``replay``)."""
    return _NONCE_PART.sub("[[mk:", text)


def marker(key: str, nonce: str = "") -> str:
    """``[[mk:NONCE:KEY]]``; the closing brackets keep ``p1`` from being a prefix of ``p10``."""
    return f"[[mk:{nonce}:{key}]]" if nonce else f"[[mk:{key}]]"


def marker_nonce(seed: int) -> str:
    """The per-game part of every marker: eight hex digits of a keyed hash of the seed."""
    digest = hashlib.blake2b(str(seed).encode(), digest_size=4, person=b"parlour-markers")
    return digest.hexdigest()


class SecretMarkers:
    """The markers planted so far and who may see each. Off: plants nothing."""

    def __init__(self, enabled: bool, seed: int | None = None) -> None:
        self.enabled = enabled
        #: "" without a seed (tests that build markers by hand), else ``marker_nonce(seed)``
        self.nonce = "" if seed is None else marker_nonce(seed)
        self._entitled: dict[str, frozenset[str]] = {}

    def name(self, key: str) -> str:
        """The marker this game plants for ``key`` (planted or not)."""
        return marker(key, self.nonce)

    def plant(self, key: str, allowed: Iterable[str]) -> str:
        """Register the marker of ``key`` for ``allowed`` and return ``" " + marker`` to
        append to the secret's text; "" when planting is off."""
        if not self.enabled:
            return ""
        made = self.name(key)
        self.register(made, allowed)
        return f" {made}"

    def register(self, made: str, allowed: Iterable[str]) -> None:
        self._entitled[made] = frozenset(allowed)

    def entitled(self) -> dict[str, frozenset[str]]:
        """Marker → seats entitled to it (a copy)."""
        return dict(self._entitled)

    def snapshot(self) -> dict[str, list[str]]:
        """Canonical JSON form, for ``Game.snapshot``."""
        return {m: sorted(a) for m, a in sorted(self._entitled.items())}

    def copy(self) -> SecretMarkers:
        clone = SecretMarkers(self.enabled)
        clone.nonce = self.nonce
        clone._entitled = dict(self._entitled)
        return clone

    def __deepcopy__(self, memo: dict[int, Any]) -> SecretMarkers:
        return self.copy()

    def __len__(self) -> int:
        return len(self._entitled)
