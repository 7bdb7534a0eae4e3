"""Chaos over a seat that is not a model (``chaos(rate=0.3):scripted``).

At ``rate`` the seat fails instead of answering: an illegal answer (every model fault that
is a bad answer: malformed, illegal, empty), a timeout or a crash. The runner must then
let the game's fallback answer. Faults are drawn per decision from (seed, decision id), so
a resumed game fails exactly where an uninterrupted one did. Model seats get chaos at the
backend instead (``models/chaos.py``), where the retry-with-feedback path is exercised.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction
from parlour.core.view import AnyView
from parlour.seats.base import Seat


class ChaosError(RuntimeError):
    """An injected crash (the runner treats it as any crashing seat)."""


class ChaosSeat:
    def __init__(self, inner: Seat, *, rate: float, seed: int, kinds: Sequence[str]) -> None:
        self.inner = inner
        self.rate = rate
        self.seed = seed
        self.kinds = tuple(kinds)

    @property
    def label(self) -> str:
        return self.inner.label

    def fault(self, decision_id: str) -> str | None:
        rng = random.Random(f"chaos-seat:{self.seed}:{decision_id}")
        if rng.random() >= self.rate:
            return None
        return rng.choice(self.kinds)

    async def decide(self, view: AnyView, decision: Decision) -> Action:
        kind = self.fault(decision.id)
        if kind is None:
            return await self.inner.decide(view, decision)
        if kind == "timeout":
            raise TimeoutError("chaos: injected timeout")
        if kind == "error":
            raise ChaosError("chaos: injected crash")
        raise IllegalAction(f"chaos: injected {kind} answer", decision_id=decision.id)
