"""Shared helpers for the missing tests: configs and scripted games played in-process."""

from __future__ import annotations

from parlour.core.rng import Rng, hash_seed
from parlour.games.missing import MODULE, MissingConfig, MissingGame


def small(seed: int = 0, **extra: object) -> MissingConfig:
    config = MODULE.make_config(3, {"town": "small_hours", **extra})
    assert isinstance(config, MissingConfig)
    return config


def full(players: int = 5, **extra: object) -> MissingConfig:
    config = MODULE.make_config(players, dict(extra))
    assert isinstance(config, MissingConfig)
    return config


def scripted(config: MissingConfig, seed: int, until: str | None = None) -> MissingGame:
    """Play with the scripted policy (answering what pending() lists first) to the end,
    or until the phase ``until`` begins."""
    game = MissingGame(config, seed)
    while not game.is_terminal():
        if until is not None and game.view("p1").phase == until:
            return game
        decision = game.pending()[0]
        rng = Rng(hash_seed(seed, decision.id))
        game.apply(decision.id, MODULE.policy(game.view(decision.seat), decision, rng))
    return game
