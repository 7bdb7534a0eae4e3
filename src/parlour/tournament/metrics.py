"""The metrics a tournament reports for a game: what the game declares on its
``GameModule.metrics``, else the generic facts (ratings and win rates from its returns)."""

from __future__ import annotations

from parlour.core.metrics import GENERIC, GameMetrics
from parlour.games import registry


def metrics_for(game_name: str) -> GameMetrics:
    return registry.load(game_name).metrics or GENERIC
