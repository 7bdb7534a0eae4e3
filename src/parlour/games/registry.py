"""Name → game, found through the entry-point group ``parlour.games``.

Every game, the five built-in ones included, registers ``NAME = "package:MODULE"`` under
that group in its distribution's metadata, so a game from another package plays in every
surface (CLI, web, tournaments, audit) without a line changed here. Entry points are
loaded lazily, one at a time, so that one broken game cannot break the CLI.
"""

from __future__ import annotations

from collections.abc import Iterable

from parlour.core import plugins
from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.core.module import GameModule

ENTRY_POINT_GROUP = "parlour.games"


def game_names() -> list[str]:
    """Every installed game's name, sorted."""
    return plugins.names(ENTRY_POINT_GROUP)


def load(name: str) -> GameModule:
    """The ``GameModule`` a game registers; one-line ``ParlourError`` when it cannot."""
    found = plugins.load(ENTRY_POINT_GROUP, name, "game")
    if found is None:
        choices = ", ".join(game_names()) or "none installed"
        raise ParlourError(
            f"unknown game '{name}'; choose one of: {choices} (see `{command('games')}`)"
        )
    if not isinstance(found, GameModule):
        value = plugins.found(ENTRY_POINT_GROUP)[name].value
        raise ParlourError(f"game '{name}': {value} is not a GameModule; it is not installed right")
    return found


def installed(names: Iterable[str] | None = None) -> list[tuple[str, GameModule]]:
    """Every game that loads (of ``names``; default: all installed), by name; a broken one
    is left out (``parlour games`` says why) so that it cannot break the commands and pages
    that list the games."""
    found: list[tuple[str, GameModule]] = []
    for name in game_names() if names is None else names:
        try:
            found.append((name, load(name)))
        except ParlourError:
            continue
    return found
