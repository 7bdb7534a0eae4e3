"""Who really answered each decision, for seats that do not always answer as their label.

An LLM seat or a Python seat may have its fallback policy answer when its retry budget is
spent (or, for an LLM seat, a chaos fault may be accepted); the runner asks
``answered_by`` once per decision to store who it was (``base.answered_by``). The fallback
answer is drawn from a stream fixed by the seat's seed and the decision id, so a replayed
game falls back the same way.
"""

from __future__ import annotations

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.policy import Policy
from parlour.core.rng import Rng, hash_seed
from parlour.core.view import AnyView

#: ``answered_by`` for a decision the fallback policy answered
FALLBACK = "fallback"
#: the error stored with the attempt the fallback policy answered, once retries ran out
BUDGET_SPENT = "retry budget spent; scripted policy answered"


class AnswerLedger:
    """What every seat with a fallback policy holds: the policy, the seat id and seed its
    answers are drawn from, and decision id → who answered it, until the runner asks
    (``answered_by``)."""

    def __init__(self, fallback: Policy, *, seat_id: str, seed: int) -> None:
        self.fallback = fallback
        self.seat_id = seat_id
        self.seed = seed
        # decision id → who really answered it, until the runner asks (``answered_by``).
        self._answered: dict[str, str] = {}

    def answered_by(self, decision_id: str) -> str | None:
        return self._answered.pop(decision_id, None)

    def fallback_answer(self, view: AnyView, decision: Decision) -> Action:
        """The fallback policy's answer, noted as such."""
        action = self.fallback(view, decision, Rng(hash_seed(self.seed, decision.id)))
        self._answered[decision.id] = FALLBACK
        return action
