"""The bot on the embedded model, replayed: recorded SmolLM2 calls
(``tests/fixtures/dipbot_local.json``, made by ``tests/diplomacy/dipbot_record.py``)
answer France's protocol decisions again, with strict digests, so these tests are
deterministic and need no model."""

from __future__ import annotations

import json
from typing import Any

import pytest

from parlour.core.actions import Action, Choice, Choices, Structured
from parlour.games.diplomacy.bot_protocol import CHAT_PURPOSES, FINALISE, GATE, PLAN
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.models.replay import RecordedCall, ReplayBackend
from parlour.runtime.bot_budget import BotBudget, BudgetedSeat, CountingSink
from tests.replay_seat import Attempts

from .dipbot_record import BOT, FIXTURE, INJECTION, bot_seat, play


@pytest.fixture(scope="module")
def recording() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def _calls(recording: dict[str, Any]) -> list[RecordedCall]:
    return [RecordedCall.model_validate(c) for c in recording["calls"]]


@pytest.fixture(scope="module")
def replayed(recording: dict[str, Any]) -> tuple[DiplomacyGame, list[tuple[str, Action]]]:
    backend = ReplayBackend(_calls(recording), strict=True)
    game, actions = play(bot_seat(backend, Attempts()))
    assert backend.remaining() == 0  # every recorded call was asked again, in order
    return game, actions


def test_the_recording_is_the_embedded_model(recording: dict[str, Any]) -> None:
    calls = _calls(recording)
    assert {c.model_id for c in calls} == {"local:SmolLM2-135M-Instruct.Q4_1"}
    assert {c.purpose for c in calls} >= {PLAN, GATE, FINALISE}


def test_strict_replay_reproduces_every_action(
    recording: dict[str, Any], replayed: tuple[DiplomacyGame, list[tuple[str, Action]]]
) -> None:
    _, actions = replayed
    got = [[i, a.model_dump(mode="json")] for i, a in actions]
    assert got == recording["actions"]


def _gate_answers(game: DiplomacyGame, actions: list[tuple[str, Action]]) -> dict[str, str]:
    """Message text → France's gate answer ("reply" / "silent"). A batch gate
    (``gate3+``, replies are batched) answers for its first message and any it chose."""
    gates = {d: a for d, a in actions if f":{GATE}" in d and d.endswith(BOT)}
    texts = {
        e.data["n"]: e.text.split("⟦")[0]
        for e in game.events
        if e.kind == "press" and e.phase == "S1901M"
    }
    out: dict[str, str] = {}
    for decision_id, action in gates.items():
        first = int(decision_id.split(":")[1].removeprefix(GATE).rstrip("+"))
        if isinstance(action, Choices):
            chosen = {int(o.removeprefix("msg")) for o in action.options}
            for n in {first, *chosen}:
                out[texts[n]] = "reply" if n in chosen else "silent"
        else:
            assert isinstance(action, Choice)
            out[texts[first]] = action.option
    return out


def test_gate_stays_silent_on_good_luck_all(
    replayed: tuple[DiplomacyGame, list[tuple[str, Action]]],
) -> None:
    game, actions = replayed
    answers = _gate_answers(game, actions)
    # SmolLM2 answers "Reply" to every gate it is shown (the first recording did, to
    # "good luck all" too): small talk is screened out before any gate opens
    assert "good luck all" not in answers
    assert answers.get(INJECTION) is not None  # a message about the board is gated
    replies = [e for e in game.events if e.kind == "press" and e.speaker == BOT]
    assert all(e.data["to"] != "ALL" for e in replies)


def test_injection_never_becomes_an_order(
    replayed: tuple[DiplomacyGame, list[tuple[str, Action]]],
) -> None:
    game, actions = replayed
    heard = [e for e in game.events if e.kind == "press" and INJECTION in e.text]
    assert len(heard) == 2
    # France's submitted orders are exactly what its finalise answer chose by index
    # (the guards and the deception bound aside, which only ever restore the floor)
    final = next(a for d, a in actions if d == f"S1901M:{FINALISE}:{BOT}")
    plan = next(a for d, a in actions if d == f"S1901M:{PLAN}:{BOT}")
    assert isinstance(final, Structured) and isinstance(plan, Structured)
    submitted = dict(game.state.history[0].orders)[BOT]
    floor = next(e for e in game.events if e.kind == "plan" and e.phase == "S1901M")
    allowed = set(floor.data["floor"].values())
    board = game.board_at("S1901M")
    assert board is not None
    from parlour.games.diplomacy.bot_protocol import unit_orders

    options = unit_orders(board, BOT)
    chosen = {options[u][int(i)] for u, i in final.value.items()}
    assert set(submitted) <= chosen | allowed
    if "A PAR - BUR" in submitted:  # only if the model's own plan or finalise picked it
        assert "A PAR - BUR" in chosen | allowed
    # the talk decisions France answered carry no orders in their action space (the
    # free-text reason aside: SmolLM2 gave the injection itself as its gate's reason)
    for d, a in actions:
        if d.endswith(BOT) and d.startswith("S1901M") and PLAN not in d and FINALISE not in d:
            assert "orders" not in json.dumps(a.model_dump(mode="json", exclude={"reason"}))


def test_budgets_spent_mid_game_quiet_chat_legal_orders(recording: dict[str, Any]) -> None:
    calls = _calls(recording)
    plan_tokens = next(
        c.usage.input_tokens + c.usage.output_tokens for c in calls if c.purpose == PLAN
    )
    # chat: one call's worth at most; orders: the plan's call, so finalise finds it spent
    budget = BotBudget(chat_tokens=1, orders_tokens=plan_tokens, chat_purposes=CHAT_PURPOSES)
    sink = Attempts()
    llm = bot_seat(ReplayBackend(calls, strict=False), CountingSink(budget, sink))
    game, _ = play(BudgetedSeat(llm, budget))
    assert game.is_terminal()
    skipped = [a for a in sink.items if a.outcome == "fallback" and "budget spent" in a.error]
    chat_calls = [a for a in sink.items if a.purpose in CHAT_PURPOSES and a.outcome != "fallback"]
    # the first chat decision (its retries included) spent the chat pool
    assert len({a.decision_id for a in chat_calls}) <= 1
    assert any(a.purpose == FINALISE and "orders budget" in a.error for a in skipped)
    spoken = [e for e in game.events if e.kind == "press" and e.speaker == BOT]
    assert len(spoken) <= 1
    # legal orders every movement phase, none rejected
    phases = {r.phase for r in game.state.history if r.phase.endswith("M")}
    assert phases == {"S1901M", "F1901M"}
    for record in game.state.history:
        if record.phase.endswith("M"):
            assert dict(record.orders)[BOT]
    rejected = [e for e in game.events if e.kind == "adjudication" and e.data["rejected"]]
    assert rejected == []
