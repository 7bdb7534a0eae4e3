"""Board pictures of a game, through its ``GameModule.pictures`` hook: one inline SVG per
phase (as it stood, its orders drawn) and the final position, for an HTML transcript and
the web's spectator page. A game without the hook has no pictures."""

from __future__ import annotations

from parlour.core.game import Game
from parlour.core.module import GameModule


def phase_pictures(module: GameModule, game: Game) -> dict[int, str]:
    """Event seq of each phase's end → its board as inline SVG; key -1 is the final
    board. Empty for games without boards."""
    if module.pictures is None:
        return {}
    return {seq: inline(svg) for seq, svg in module.pictures(game).items()}


def picture_now(module: GameModule, game: Game) -> str:
    """The board as it stands now, as inline SVG ("" for a game without one)."""
    if module.picture_now is None:
        return ""
    return inline(module.picture_now(game))


def inline(svg: str) -> str:
    """A standalone SVG document made fit to sit inside HTML (no XML declaration)."""
    return svg.split("?>", 1)[1].strip() if svg.startswith("<?xml") else svg
