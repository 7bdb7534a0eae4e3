"""Name → game package, imported lazily so that one broken game cannot break the CLI."""

from __future__ import annotations

import importlib

from parlour.core.errors import ParlourError
from parlour.core.module import GameModule

_PACKAGES: dict[str, str] = {
    "werewolf": "parlour.games.werewolf",
    "escape": "parlour.games.escape",
    "diplomacy": "parlour.games.diplomacy",
    "campaign": "parlour.games.campaign",
    "missing": "parlour.games.missing",
}


def game_names() -> list[str]:
    return sorted(_PACKAGES)


def load(name: str) -> GameModule:
    path = _PACKAGES.get(name)
    if path is None:
        raise ParlourError(
            f"unknown game '{name}'; choose one of: {', '.join(game_names())} (see `parlour games`)"
        )
    module = importlib.import_module(path)
    found = getattr(module, "MODULE", None)
    if not isinstance(found, GameModule):
        raise ParlourError(f"game package {path} does not export MODULE; it is not installed right")
    return found
