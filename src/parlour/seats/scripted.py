"""Scripted seats: a game's hand-written policy, given only the seat's view.

Games provide policies as plain functions ``(view, decision, rng) -> Action`` so that
the same code is the fallback for LLM seats.
"""

from __future__ import annotations

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.policy import Policy
from parlour.core.rng import Rng, hash_seed
from parlour.core.view import AnyView


class ScriptedSeat:
    def __init__(self, policy: Policy, seed: int, name: str = "scripted") -> None:
        self._policy = policy
        self._seed = seed
        self._name = name

    @property
    def label(self) -> str:
        return self._name

    async def decide(self, view: AnyView, decision: Decision) -> Action:
        # A fresh stream per decision: resuming a saved game asks the same question with
        # the same randomness, whatever was asked before the process died.
        return self._policy(view, decision, Rng(hash_seed(self._seed, decision.id)))
