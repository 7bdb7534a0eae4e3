"""Scripted policies: plain functions of a seat's view (games write them; seats wrap them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.rng import Rng
from parlour.core.view import AnyView


class Policy(Protocol):
    """``(view, decision, rng) -> legal action``. Sees only the view, like any seat."""

    def __call__(self, view: AnyView, decision: Decision, rng: Rng) -> Action: ...


def by_purpose(policies: Mapping[str, Policy], otherwise: Policy) -> Policy:
    """One policy for every seat of a game: the one ``policies`` names for the decision's
    purpose, else ``otherwise``."""

    def policy(view: AnyView, decision: Decision, rng: Rng) -> Action:
        return policies.get(decision.purpose, otherwise)(view, decision, rng)

    return policy
