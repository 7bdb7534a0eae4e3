"""Scripted policies: plain functions of a seat's view (games write them; seats wrap them)."""

from __future__ import annotations

from typing import Protocol

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.rng import Rng
from parlour.core.view import AnyView


class Policy(Protocol):
    """``(view, decision, rng) -> legal action``. Sees only the view, like any seat."""

    def __call__(self, view: AnyView, decision: Decision, rng: Rng) -> Action: ...
