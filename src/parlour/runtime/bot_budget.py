"""Token budgets for a bot seat: a capped chat pool and a reserved orders pool.

Chat (the game's ``chat_purposes``) can never spend the orders pool: once chat has
spent its cap the seat goes quiet (it answers talk with the decision's default, which
is silence) without calling the model. Orders always reach the model until the orders
pool is spent; then the decision's default (the floor) or the game's fallback answers.
Every skipped call is recorded in the call log as a fallback with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.rng import Rng, hash_seed
from parlour.core.view import AnyView
from parlour.models.messages import OutputSpec, Usage
from parlour.seats.llm import Attempt, AttemptSink, LlmSeat


@dataclass
class BotBudget:
    chat_tokens: int = 0  # 0: unlimited
    orders_tokens: int = 0
    chat_purposes: frozenset[str] = frozenset()
    spent: dict[str, int] = field(default_factory=lambda: {"chat": 0, "orders": 0})

    def pool(self, purpose: str) -> str:
        return "chat" if purpose in self.chat_purposes else "orders"

    def exhausted(self, purpose: str) -> bool:
        pool = self.pool(purpose)
        cap = self.chat_tokens if pool == "chat" else self.orders_tokens
        return cap > 0 and self.spent[pool] >= cap


@dataclass
class CountingSink:
    budget: BotBudget
    inner: AttemptSink | None

    def record(self, attempt: Attempt) -> None:
        pool = self.budget.pool(attempt.purpose)
        self.budget.spent[pool] += attempt.usage.input_tokens + attempt.usage.output_tokens
        if self.inner is not None:
            self.inner.record(attempt)


class BudgetedSeat:
    """An ``LlmSeat`` under a ``BotBudget`` (its sink must be a ``CountingSink``)."""

    def __init__(self, seat: LlmSeat, budget: BotBudget) -> None:
        self.seat = seat
        self.budget = budget
        self._answered: dict[str, str] = {}

    @property
    def label(self) -> str:
        return self.seat.label

    def answered_by(self, decision_id: str) -> str | None:
        return self._answered.pop(decision_id, None) or self.seat.answered_by(decision_id)

    async def decide(self, view: AnyView, decision: Decision) -> Action:
        if not self.budget.exhausted(decision.purpose):
            return await self.seat.decide(view, decision)
        pool = self.budget.pool(decision.purpose)
        if decision.default is not None:
            action, how = decision.default, "the decision's default"
        else:
            rng = Rng(hash_seed(self.seat.seed, decision.id))
            action, how = self.seat.fallback(view, decision, rng), "the fallback policy"
        reason = f"{pool} budget spent; {how} answered without a model call"
        if self.seat.sink is not None:
            self.seat.sink.record(
                Attempt(
                    seat=self.seat.seat_id,
                    decision_id=decision.id,
                    purpose=decision.purpose,
                    phase=view.phase,
                    attempt=1,
                    model_id=self.seat.backend.model_id,
                    cache_key=self.seat.cache_key,
                    messages=(),
                    output=OutputSpec.text(1),
                    response_text="",
                    parsed=action.model_dump(mode="json"),
                    outcome="fallback",
                    error=reason,
                    usage=Usage(),
                    latency_s=0.0,
                )
            )
        self._answered[decision.id] = "fallback"
        return action
