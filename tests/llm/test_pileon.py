"""The pile-on: 8 of 9 players accuse one bot and it votes 8th.

The recorded calls (tests/fixtures/pileon_*.json) are the embedded model's, except that
the first answer (retry case) or every answer (fallback case) was edited to a vote for
the voter itself, the mistake under test.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from parlour.core.actions import Choice
from parlour.games.werewolf import MODULE
from parlour.games.werewolf.ask import VoteAsk
from parlour.models.replay import RecordedCall, ReplayBackend
from tests.replay_seat import Attempts, kept_seat

from .pileon import SEED, pileon

FIXTURES = Path(__file__).parents[1] / "fixtures"


def _run(variant: str) -> tuple[Any, Attempts, str, Any]:
    data = json.loads((FIXTURES / f"pileon_{variant}.json").read_text())
    calls = [RecordedCall.model_validate(c) for c in data["calls"]]
    game, decision, target = pileon()
    view = game.view(target)
    seat, sink = kept_seat(
        ReplayBackend(calls), MODULE.prompter, MODULE.policy, seat_id=target, seed=SEED
    )
    action = asyncio.run(seat.decide(view, decision))
    return action, sink, view.seat_name, (game, decision)


def test_the_position_is_a_pile_on() -> None:
    game, decision, target = pileon()
    assert VoteAsk.of(decision).position_text == "8 of 9"
    accused = game.view(target).seat_name
    speeches = [e for e in game.events if e.kind == "speech"]
    accusers = {e.speaker for e in speeches if f"I accuse {accused}" in e.text}
    assert len(accusers) == 8 and target not in accusers
    assert VoteAsk.of(decision).earlier_votes == [
        f"{k}. {game.view(s).seat_name} → {accused}"
        for k, s in enumerate([p.id for p in game.state.players if p.id != target][:7], 1)
    ]


def test_self_vote_is_rejected_with_a_clear_message_then_retried() -> None:
    action, sink, name, (game, decision) = _run("retry")
    first, second = sink.items[0], sink.items[1]
    assert first.outcome == "invalid"
    assert first.error.startswith(f"Invalid vote target: {name} — you cannot vote for yourself;")
    assert "eligible: " in first.error and f"eligible: {name}" not in first.error
    # The retry sees its mistake and the exact error, on a throwaway branch.
    assert second.messages[-2].role == "assistant" and name in second.messages[-2].content
    assert first.error in second.messages[-1].content
    assert second.messages[: len(first.messages)] == first.messages
    assert second.outcome == "valid"
    assert isinstance(action, Choice) and action.option != decision.seat
    decision.check(action)
    game.apply(decision.id, action)  # the engine accepts it


def test_self_votes_to_the_end_fall_back_to_the_scripted_policy() -> None:
    action, sink, _name, (game, decision) = _run("fallback")
    assert [a.outcome for a in sink.items] == ["invalid", "invalid", "invalid", "fallback"]
    assert isinstance(action, Choice) and action.option != decision.seat
    game.apply(decision.id, action)
