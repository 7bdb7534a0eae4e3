"""The talk-quality measure (``evals/talk_quality.py``) on stored games of any game.

The game hands over its talk (``GameMetrics.talk``: the lines a person reads); a game
that declares none is read as every event with a speaker. Each line is linked to the
stored answer that wrote it, so the measure knows which lines the fallback policy wrote
(an action whose ``by`` names a fallback, or a model call with outcome ``fallback``) and
the game's own words of the call behind a model-written line (its instruction copies).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.actions import Action, Choice, Structured, Text
from parlour.core.events import Event
from parlour.core.metrics import TalkLine
from parlour.evals.talk_quality import (
    Answer,
    TalkReport,
    TalkScore,
    instruction_text,
    report,
    score_talk,
)
from parlour.games import registry
from parlour.runtime.store import CallRecord, Store


def default_talk(events: Sequence[Event]) -> list[TalkLine]:
    """The talk of a game that declares none: every event with a speaker and text."""
    return [TalkLine(e.seq, e.speaker, e.speaker, e.text) for e in events if e.speaker]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def action_texts(action: Action) -> tuple[str, ...]:
    """The words of an answer that a game may show: a free text, a choice's reason,
    every string of a structured answer."""
    if isinstance(action, Text):
        return (action.text,)
    if isinstance(action, Structured):
        return tuple(_strings(action.value))
    return (action.reason,) if action.reason else ()


def stored_answers(store: Store, game_id: str) -> list[Answer]:
    """The game's stored actions as ``Answer``s, with the game's words of the last call
    of each (seat, decision)."""
    calls: list[CallRecord] = store.calls(game_id)
    last: dict[tuple[str, str], CallRecord] = {}
    for record in calls:  # stored in order: the last attempt wins
        if record.messages:
            last[(record.seat, record.decision_id)] = record
    fell = {(c.seat, c.decision_id) for c in calls if c.outcome == "fallback"}
    answered = {(c.seat, c.decision_id) for c in calls if c.outcome == "valid"}
    out: list[Answer] = []
    for row in store.actions(game_id):
        key = (row.seat, row.decision_id)
        call = last.get(key)
        out.append(
            Answer(
                seat=row.seat,
                decision_id=row.decision_id,
                texts=action_texts(row.action),
                choice=isinstance(row.action, Choice),
                fallback="fallback" in row.by or key in fell,
                instructions=instruction_text(call.messages) if call is not None else None,
                model=key in answered and "fallback" not in row.by,
            )
        )
    return out


def score_game(store: Store, game_id: str) -> tuple[TalkReport, list[TalkScore]]:
    """The talk-quality measure of one stored game, and each line's score."""
    row = store.get_game(game_id)
    module = registry.load(row.game)
    talk = module.metrics.talk if module.metrics and module.metrics.talk else default_talk
    lines = talk(store.events(game_id))
    scores = score_talk(
        [(ln.seq, ln.seat, ln.voice, ln.text, ln.rendered_from) for ln in lines],
        stored_answers(store, game_id),
        [ln.phrase for ln in lines],
    )
    return report(game_id, row.game, scores), scores
