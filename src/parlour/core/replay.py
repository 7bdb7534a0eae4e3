"""Rebuilding a game from its config, seed and ordered actions."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel

from parlour.core.actions import Action
from parlour.core.game import Game


def replay(
    game_cls: type[Game], config: BaseModel, seed: int, actions: Iterable[tuple[str, Action]]
) -> Game:
    """Apply stored ``(decision_id, action)`` pairs in order to a fresh game."""
    game = game_cls.new(config, seed)
    for decision_id, action in actions:
        game.apply(decision_id, action)
    return game
