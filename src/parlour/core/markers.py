"""Leak markers: unique strings planted in secrets (config ``plant_markers``), each
registered with the seats entitled to it, so the conformance suite and ``audit`` can scan
every view and prompt for a marker its seat may not know."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def marker(key: str) -> str:
    """``[[mk:<key>]]``; the closing brackets keep ``p1`` from being a prefix of ``p10``."""
    return f"[[mk:{key}]]"


class SecretMarkers:
    """The markers planted so far and who may see each. Off: plants nothing."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._entitled: dict[str, frozenset[str]] = {}

    def plant(self, key: str, allowed: Iterable[str]) -> str:
        """Register ``marker(key)`` for ``allowed`` and return ``" " + marker`` to append
        to the secret's text; "" when planting is off."""
        if not self.enabled:
            return ""
        made = marker(key)
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
        clone._entitled = dict(self._entitled)
        return clone

    def __deepcopy__(self, memo: dict[int, Any]) -> SecretMarkers:
        return self.copy()

    def __len__(self) -> int:
        return len(self._entitled)
