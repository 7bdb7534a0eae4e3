"""A seat that answers uniformly at random among legal answers (a floor baseline)."""

from __future__ import annotations

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng, hash_seed
from parlour.core.view import AnyView


class RandomSeat:
    def __init__(self, seed: int) -> None:
        self._seed = seed

    @property
    def label(self) -> str:
        return "random"

    async def decide(self, view: AnyView, decision: Decision) -> Action:
        return random_answer(decision, Rng(hash_seed(self._seed, decision.id)))
