"""Name → game, found through the entry-point group ``parlour.games``.

Every game, the five built-in ones included, registers ``NAME = "package:MODULE"`` under
that group in its distribution's metadata, so a game from another package plays in every
surface (CLI, web, tournaments, audit) without a line changed here. Entry points are
loaded lazily, one at a time, so that one broken game cannot break the CLI.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points

from parlour.core.errors import ParlourError
from parlour.core.module import GameModule

ENTRY_POINT_GROUP = "parlour.games"


@cache
def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep)  # the first distribution to claim a name keeps it
    return found


def game_names() -> list[str]:
    """Every installed game's name, sorted."""
    return sorted(_entry_points())


def load(name: str) -> GameModule:
    """The ``GameModule`` a game registers; one-line ``ParlourError`` when it cannot."""
    ep = _entry_points().get(name)
    if ep is None:
        choices = ", ".join(game_names()) or "none installed"
        raise ParlourError(f"unknown game '{name}'; choose one of: {choices} (see `parlour games`)")
    try:
        found = ep.load()
    except Exception as exc:  # a plug-in's own import error must not become a traceback
        raise ParlourError(
            f"game '{name}' ({ep.value}) failed to import: {type(exc).__name__}: {exc}; "
            "reinstall or fix that package"
        ) from exc
    if not isinstance(found, GameModule):
        raise ParlourError(
            f"game '{name}': {ep.value} is not a GameModule; it is not installed right"
        )
    return found
