"""Playing a game to its end with one scripted policy, for tests and benchmarks."""

from __future__ import annotations

from parlour.core.game import Game
from parlour.core.policy import Policy
from parlour.core.rng import Rng


def play_first_pending(game: Game, policy: Policy, rng_base: int = 0) -> int:
    """Answer the first pending decision with ``policy`` until the game ends, the n-th
    answer drawing from ``Rng(rng_base + n)``; how many answers that took."""
    n = 0
    while not game.is_terminal():
        d = game.pending()[0]
        game.apply(d.id, policy(game.view(d.seat), d, Rng(rng_base + n)))
        n += 1
    return n
