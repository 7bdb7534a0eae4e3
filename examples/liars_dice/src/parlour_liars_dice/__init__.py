"""Liar's dice for parlour, packaged outside it.

``MODULE`` is the one object this package hands parlour; its distribution registers it
under the entry-point group ``parlour.games`` as ``liars_dice``, so every surface (CLI,
web lobby, tournaments, audit) finds it without parlour naming it.
"""

from __future__ import annotations

from pydantic import BaseModel

from parlour.core.module import GameModule
from parlour_liars_dice.game import LiarsDiceConfig, LiarsDiceGame
from parlour_liars_dice.metrics import METRICS
from parlour_liars_dice.policies import scripted_policy
from parlour_liars_dice.prompts import LiarsDicePrompter


def make_config(players: int | None, overrides: dict[str, object]) -> BaseModel:
    """A validated config: ``players`` seats (3 when None) and ``--set`` overrides."""
    return LiarsDiceConfig.model_validate({"players": players or 3, **overrides})


MODULE = GameModule(
    game=LiarsDiceGame,
    policy=scripted_policy,
    prompter=LiarsDicePrompter(),
    make_config=make_config,
    metrics=METRICS,
)

__all__ = ["MODULE", "LiarsDiceConfig", "LiarsDiceGame", "make_config"]
