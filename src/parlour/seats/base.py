"""The one protocol every seat implements. The runtime never knows which kind it holds."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.view import AnyView


@runtime_checkable
class Seat(Protocol):
    """Answers one decision from one view. ``label`` says who plays (shown in transcripts)."""

    @property
    def label(self) -> str: ...

    async def decide(self, view: AnyView, decision: Decision) -> Action: ...


def answered_by(seat: Seat, decision_id: str) -> str:
    """Who really answered ``decision_id`` (stored as ``actions.by``): a seat that knows
    better than its label says so (an LLM seat whose fallback answered, a chaos fault that
    was accepted); any other seat answers as its label."""
    tell = getattr(seat, "answered_by", None)
    who = tell(decision_id) if callable(tell) else None
    return who if isinstance(who, str) and who else seat.label
