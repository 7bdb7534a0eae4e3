"""``classify``: rank the options, then act on the winner, ask, or answer ``none``."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from parlour.games.escape.keyword_classifier.ask_or_none import (
    act_ask_or_none,
    another_of_its_kind,
    fits_unoffered,
    named_by_anothers_word,
    two_at_once,
)
from parlour.games.escape.keyword_classifier.room_names import room_named
from parlour.games.escape.keyword_classifier.scoring import STRONG, THRESHOLD, rank
from parlour.games.escape.keyword_classifier.verbless import is_verbless
from parlour.games.escape.scenario import ASK_ID, NONE_ID


def classify(
    message: str,
    options: Sequence[tuple[str, str]],
    threshold: Fraction = THRESHOLD,
    strong: Fraction = STRONG,
    *,
    unoffered: Sequence[tuple[str, str]] = (),
    room: Sequence[str] = (),
) -> str:
    """``options`` are (id, description) pairs; returns an option id, ``none``, or ``ask``
    (only when ``ask`` is among the options). ``unoffered``: (id, description) of the
    actions the room does not offer now, never picked (``seat_requests.ClassifierPrivate``);
    ``room``: the room's public text, which says what its things are called
    (``room_names``)."""
    if room:
        options, unoffered = room_named(options, unoffered, room)
    leaders = rank(message, options, threshold, strong)
    if not leaders or is_verbless(message, options):
        return NONE_ID
    if two_at_once(message, options):
        return NONE_ID  # "hit red and green at the same time": a deed the room does not offer
    score, _, oid, named = leaders[0]
    picked = act_ask_or_none(message, options, leaders, score, oid, named)
    if picked == oid and fits_unoffered(message, options, unoffered, oid):
        return NONE_ID  # "open the door" with the lift's doors there, not yet forceable
    others = [(o, d) for o, d in options if o not in (oid, NONE_ID, ASK_ID)]
    if picked == oid and another_of_its_kind(message, options, others, oid, offered=True):
        return NONE_ID  # "open the door" with a side door and the main doors both offered
    if picked == oid and named_by_anothers_word(message, options, [*others, *unoffered], oid):
        return NONE_ID  # "open the door": the doors are other actions' things, not the cupboard
    return picked
