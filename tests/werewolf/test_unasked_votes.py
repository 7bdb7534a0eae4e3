"""A vote the engine casts from a seat's plan (``engine_plans``) is nobody's answer: the
transcript shows no reason with it, not even the reason the voter gave with its last line."""

from __future__ import annotations

from pathlib import Path

import parlour
from parlour.core.actions import Action, Choice
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.view import AnyView
from parlour.render.annotate import annotate, reason_of

SPEECH_REASON = "because my last line said so"


def chatty(view: AnyView, decision: Decision) -> Action | str:
    """Picks the first option and gives every choice the same recognisable reason."""
    if decision.kind is DecisionKind.CHOOSE_ONE:
        return Choice(option=decision.options[0].id, reason=SPEECH_REASON)
    if decision.options:
        return decision.options[0].id
    return "Hello."


def test_engine_votes_show_no_reason_of_an_earlier_answer(tmp_path: Path) -> None:
    seats = [f"p{i}" for i in range(1, 8)]
    played = parlour.play(
        "werewolf",
        model="python:tests.werewolf.test_unasked_votes:chatty",
        seed=5,
        players=7,
        options={"engine_plans": seats, "act_seats": seats},
        db=tmp_path / "g.sqlite",
    )
    events = played.transcript()
    votes = [e for e in events if e.kind == "vote"]
    assert votes and all(e.unasked for e in votes)
    # the seats did answer with a reason (their speech acts), so the check can fail
    assert any(SPEECH_REASON in str(a.action) for a in played.actions())
    log = annotate(played.store, played.game_id)
    shown = [e for e in log.entries if e.event is not None and e.event.kind == "vote"]
    assert len(shown) == len(votes)
    assert all(e.answer is None and reason_of(e.answer, e.event) == "" for e in shown)
