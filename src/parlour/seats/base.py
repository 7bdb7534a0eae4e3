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
