"""Decisions and views built for tests: what a test does not care about gets a plain default,
so a test names only the fields it is about."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.events import Event
from parlour.core.view import AnyView, NoFacts, View

#: The one option a choose decision gets when the test names none.
ONE_OPTION = (Option(id="a", label="A"),)


def make_decision(
    kind: DecisionKind = DecisionKind.CHOOSE_ONE,
    *,
    id: str = "d1",
    seat: str = "p1",
    purpose: str = "vote",
    prompt: str = "?",
    **fields: Any,
) -> Decision:
    """A ``kind`` decision (default: choose one) for ``seat``; a choose decision without
    ``options`` offers :data:`ONE_OPTION`. Other fields go to :class:`Decision` as given."""
    if kind in (DecisionKind.CHOOSE_ONE, DecisionKind.CHOOSE_MANY):
        fields.setdefault("options", ONE_OPTION)
    return Decision(id=id, seat=seat, kind=kind, purpose=purpose, prompt=prompt, **fields)


def make_view(events: Sequence[Event] = (), **fields: Any) -> AnyView:
    """Seat p1's view (named A, game g, day 2, no facts) holding ``events``."""
    base: dict[str, Any] = {
        "game": "g",
        "seat": "p1",
        "seat_name": "A",
        "phase": "day 2",
        "public": NoFacts(),
        "private": NoFacts(),
    }
    return View(**{**base, **fields}, events=tuple(events))
