"""The Diplomacy kernel game: conformance, decisions, DumbBot parity with the engine,
civil disorder, takeover, press privacy, solo victory, pictures and prompts."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from parlour.core import conformance
from parlour.core.actions import Action, Choices, Structured
from parlour.core.asks import Hints
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.errors import IllegalAction, ParlourError
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng, hash_seed
from parlour.core.view import View
from parlour.games.diplomacy import MODULE, DiplomacyConfig, DiplomacyGame, make_config
from parlour.games.diplomacy.adjudicator import process_phase
from parlour.games.diplomacy.baselines import hold_orders
from parlour.games.diplomacy.board import Board, PhaseType, initial_board
from parlour.games.diplomacy.dumbbot import dumbbot_orders
from parlour.games.diplomacy.legal import legal_orders
from parlour.games.diplomacy.orders import Move, parse_order
from parlour.games.diplomacy.pictures import PicturesObserver
from parlour.games.diplomacy.policies import dumbbot, hold
from parlour.runtime import session as sessions
from parlour.runtime.runner import Runner
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store
from parlour.seats.scripted import ScriptedSeat
from tests.support.conformance import conforms


def short(seed: int) -> DiplomacyConfig:
    return make_config(None, {"end_year": 1903 + seed % 3})


def with_press(seed: int) -> DiplomacyConfig:
    return make_config(None, {"end_year": 1902 + seed % 2, "press_rounds": 1 + seed % 2})


def marked(seed: int) -> DiplomacyConfig:
    return make_config(None, {"end_year": 1902, "press_rounds": 1, "plant_markers": True})


# -- conformance ---------------------------------------------------------------------------


@pytest.mark.slow  # conformance sweep: 30 games, 10 replays, leak scans
def test_conformance() -> None:
    conforms(MODULE, short, marked=marked, games=30, replays=5, leaks=5)
    # With press: replay and every decision (press decisions included).
    report = conformance.check(
        MODULE,
        configs=with_press,
        seeds=(),
        replay_seeds=range(5, 10),
        leak_seeds=(),
        decision_seeds=range(3),
        samples=2,
    )
    assert report.answers_tried > 0


def test_decisions_pass_full_validation() -> None:
    """Decisions are built without jsonschema's meta-schema check (speed); prove it is safe."""
    kinds: set[str] = set()
    for seed in range(4):
        game = DiplomacyGame.new(with_press(seed), seed)
        rng = Rng(seed)
        while not game.is_terminal():
            for d in game.pending():
                again = Decision.model_validate(d.model_dump())
                assert again == d
                kinds.add(d.purpose)
                game.apply(d.id, random_answer(d, rng))
    assert {"press", "orders", "builds"} <= kinds


# -- decision shapes ---------------------------------------------------------------------------


def test_orders_decision_lists_every_legal_order_hold_first() -> None:
    game = DiplomacyGame.new(make_config(None, {}), 1)
    decisions = {d.seat: d for d in game.pending()}
    assert len(decisions) == 7
    france = decisions["FRANCE"]
    assert france.id == "S1901M:orders:FRANCE"
    assert france.kind is DecisionKind.STRUCTURED
    schema = france.json_schema
    assert schema is not None
    assert schema["required"] == ["F BRE", "A MAR", "A PAR"]
    assert schema["additionalProperties"] is False
    legal = legal_orders(initial_board(), "FRANCE").units
    for unit, prop in schema["properties"].items():
        assert sorted(prop["enum"]) == sorted(lo.text for lo in legal[unit])
        assert prop["enum"][0] == f"{unit} H"
    hints = Hints.of(france)
    assert hints.labels["A PAR"]["A PAR - BUR"] == "Army Paris moves to Burgundy"
    assert hints.names["F BRE"] == "Fleet Brest"
    russia = decisions["RUSSIA"].json_schema
    assert russia is not None and "F STP/SC" in russia["properties"]


def test_the_random_seat_draws_each_units_order_uniformly() -> None:
    game = DiplomacyGame.new(make_config(None, {}), 1)
    decision = next(d for d in game.pending() if d.seat == "FRANCE")
    assert decision.json_schema is not None
    options = decision.json_schema["properties"]["A PAR"]["enum"]
    rng = Rng(99)
    draws = 1100 * len(options)
    counts = dict.fromkeys(options, 0)
    for _ in range(draws):
        answer = random_answer(decision, rng)
        assert isinstance(answer, Structured)
        counts[answer.value["A PAR"]] += 1
    expected = draws / len(options)
    assert all(abs(n - expected) < 0.15 * expected for n in counts.values()), counts


def test_illegal_answers_are_rejected_with_a_reason() -> None:
    game = DiplomacyGame.new(make_config(None, {}), 1)
    decision = next(d for d in game.pending() if d.seat == "FRANCE")
    answers: list[Action] = [
        Structured(value={"F BRE": "F BRE H", "A MAR": "A MAR H"}),  # a unit without orders
        Structured(value={"F BRE": "F BRE - PAR", "A MAR": "A MAR H", "A PAR": "A PAR H"}),
        Structured(value={"F BRE": "F BRE H", "A MAR": "A MAR H", "A PAR": "A PAR H", "X": "y"}),
        Choices(options=("A PAR H",)),
    ]
    for answer in answers:
        with pytest.raises(IllegalAction):
            game.apply(decision.id, answer)
    with pytest.raises(IllegalAction, match="no open decision"):
        game.apply("S1901M:orders:NOBODY", answers[0])


def _play_until(game: DiplomacyGame, purpose: str, seed: int) -> Decision | None:
    rng = Rng(seed)
    while not game.is_terminal():
        for d in game.pending():
            if d.purpose == purpose:
                return d
        for d in game.pending():
            game.apply(d.id, random_answer(d, rng))
    return None


def test_build_and_removal_decisions() -> None:
    builds = removals = None
    for seed in range(40):
        game = DiplomacyGame.new(make_config(None, {"end_year": 1906}), seed)
        found = _play_until(game, "removals", seed)
        if found is not None:
            removals = (game, found)
            break
    for seed in range(5):
        game = DiplomacyGame.new(make_config(None, {}), seed)
        found = _play_until(game, "builds", seed)
        if found is not None:
            builds = (game, found)
            break
    assert builds is not None and removals is not None
    game, d = builds
    assert d.kind is DecisionKind.CHOOSE_MANY and d.min_choices == 0
    assert d.max_choices == legal_orders(game.board, d.seat).adjustment_count
    assert "WAIVE" not in d.option_ids and all(o.endswith(" B") for o in d.option_ids)
    assert hold(game.view(d.seat), d, Rng(0)) == Choices(options=())
    game, d = removals
    need = -legal_orders(game.board, d.seat).adjustment_count
    assert d.min_choices == d.max_choices == need
    # Civil disorder removes exactly the units the adjudicator's rule picks.
    chosen = hold(game.view(d.seat), d, Rng(0))
    assert isinstance(chosen, Choices)
    assert list(chosen.options) == [str(o) for o in hold_orders(game.board, d.seat)]


def _twin_builds(d: Decision) -> list[str] | None:
    """Two build options in one province (an army and a fleet), if ``d`` allows two builds."""
    if d.purpose != "builds" or d.max_choices < 2:
        return None
    by_province: dict[str, list[str]] = {}
    for o in d.option_ids:
        by_province.setdefault(o.split()[1][:3], []).append(o)
    return next((os[:2] for os in by_province.values() if len(os) >= 2), None)


def test_duplicate_builds_in_one_province_count_once() -> None:
    for seed in range(20):
        game = DiplomacyGame.new(make_config(None, {}), seed)
        rng = Rng(seed)
        while not game.is_terminal():
            pending = game.pending()
            target = next((d for d in pending if _twin_builds(d)), None)
            if target is None:
                for d in pending:
                    game.apply(d.id, random_answer(d, rng))
                continue
            twins = _twin_builds(target)
            assert twins is not None
            for d in pending:
                answer = Choices(options=tuple(twins)) if d is target else random_answer(d, rng)
                game.apply(d.id, answer)
            adjudicated = next(e for e in reversed(game.events) if e.kind == "adjudication")
            mine = [r for r in adjudicated.data["results"] if r["order"] in twins]
            assert [r["status"] for r in mine] == ["succeeded", "void"]
            return
    raise AssertionError("no power with two builds and a two-option province in 20 games")


# -- DumbBot through the game = DumbBot on the engine ----------------------------------------


def _decision_id(board: Board, power: str) -> str:
    ptype = board.phase.type
    if ptype is PhaseType.MOVEMENT:
        purpose = "orders"
    elif ptype is PhaseType.RETREATS:
        purpose = "retreats"
    else:
        purpose = "builds" if legal_orders(board, power).adjustment_count > 0 else "removals"
    return f"{board.phase.name}:{purpose}:{power}"


def test_dumbbot_through_the_game_matches_the_engine() -> None:
    seed = 3
    game = DiplomacyGame.new(make_config(None, {"end_year": 1906}), seed)
    board = initial_board()
    while not game.is_terminal():
        assert game.board.to_dict() == board.to_dict()
        for d in game.pending():
            game.apply(d.id, dumbbot(game.view(d.seat), d, Rng(hash_seed(seed, d.id))))
        orders = {
            p: dumbbot_orders(board, p, Rng(hash_seed(seed, _decision_id(board, p))))
            for p in board.game_map.powers
        }
        result = process_phase(board, orders)
        assert not result.rejected
        board = result.board
        if board.phase.year > 1906:
            break
    result_ = game.result()
    assert result_ is not None and game.board.to_dict() == board.to_dict()
    assert result_.returns == {p: float(n) for p, n in board.centre_counts().items()}
    assert "Draw at the end of 1906" in result_.summary
    # The history holds every phase's orders as submitted and their outcomes.
    assert [r.phase for r in game.state.history][:3] == ["S1901M", "F1901M", "W1901A"]


def test_solo_victory_ends_the_game() -> None:
    for seed in range(10):
        game = DiplomacyGame.new(make_config(None, {"victory_centres": 6}), seed)
        while not game.is_terminal():
            for d in game.pending():
                game.apply(d.id, dumbbot(game.view(d.seat), d, Rng(hash_seed(seed, d.id))))
        result = game.result()
        assert result is not None
        if result.winners:
            (winner,) = result.winners
            assert result.returns[winner] >= 6
            assert "wins alone" in result.summary
            assert game.events[-1].data["reason"] == "solo"
            return
    raise AssertionError("no solo victory at 6 centres in 10 DumbBot games")


# -- civil disorder and takeover ---------------------------------------------------------------


class Crashing:
    label = "crashing"

    async def decide(self, view: View, decision: Decision) -> Action:
        raise RuntimeError("seat process died")


def test_a_crashing_seat_falls_into_civil_disorder() -> None:
    game = DiplomacyGame.new(make_config(None, {"end_year": 1901}), 2)
    seats = {
        s.id: Crashing() if s.id == "FRANCE" else ScriptedSeat(dumbbot, hash_seed(2, s.id))
        for s in game.seats()
    }
    runner = Runner(game, seats, fallback=MODULE.fallback_policy)
    assert MODULE.fallback_policy is hold
    asyncio.run(runner.run())
    assert game.is_terminal()
    french = [e for e in game.events if e.kind == "orders" and e.speaker == "FRANCE"]
    assert french[0].data["orders"] == ["F BRE H", "A MAR H", "A PAR H"]
    assert all(o.endswith(" H") for e in french for o in e.data["orders"])


def test_takeover_through_resume_continues_the_game(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'take.sqlite'}")
    plan = SeatPlan(default="dumbbot", system_default="scripted", overrides={})
    first = sessions.start(
        store, "diplomacy", players=None, seed=5, options={"end_year": 1903}, plan=plan
    )
    assert asyncio.run(first.run(max_batches=3)) is None
    done = len(store.actions(first.game_id))
    again = Store(f"sqlite:///{tmp_path / 'take.sqlite'}")
    second = sessions.resume(again, first.game_id, seat_overrides={"FRANCE": "random"})
    result = asyncio.run(second.run())
    assert result is not None
    row = again.get_game(first.game_id)
    assert row.status == "finished" and row.seats["FRANCE"] == "random"
    later = [a for a in again.actions(first.game_id)[done:] if a.seat == "FRANCE"]
    assert later and all(a.by == "random" for a in later)
    rebuilt = sessions.rebuild(again, first.game_id)[1]
    assert rebuilt.result() == result


def test_make_config_errors_name_the_fix() -> None:
    with pytest.raises(ParlourError, match="exactly 7 powers"):
        make_config(6, {})
    with pytest.raises(ParlourError, match="unknown setting"):
        make_config(None, {"press": 2})
    with pytest.raises(ParlourError, match="end_year"):
        make_config(None, {"end_year": 1800})
    assert make_config(7, {"press_rounds": 2}).press_rounds == 2


# -- press ---------------------------------------------------------------------------------------


def test_private_press_reaches_only_the_two_powers() -> None:
    game = DiplomacyGame.new(make_config(None, {"press_rounds": 2, "plant_markers": True}), 1)
    pending = {d.seat: d for d in game.pending()}
    assert all(d.purpose == "press" for d in pending.values())
    assert pending["FRANCE"].id == "S1901M:press1:FRANCE"
    message = {
        "messages": [
            {"to": "GERMANY", "text": "Let us split the Low Countries."},
            {"to": "ALL", "text": "France wants peace."},
        ]
    }
    for power, d in pending.items():
        value = message if power == "FRANCE" else {"messages": []}
        game.apply(d.id, Structured(value=value))
    secret = "split the Low Countries"
    for power in ("FRANCE", "GERMANY"):
        assert secret in game.view(power).model_dump_json()
    for power in ("ENGLAND", "ITALY", "RUSSIA", "AUSTRIA", "TURKEY"):
        view = game.view(power)
        assert secret not in view.model_dump_json()
        assert "France wants peace." in view.model_dump_json()
        parts = MODULE.prompter.parts(view, game.pending()[0])
        assert secret not in parts.model_dump_json()
    assert secret not in game.spectator_view(False).model_dump_json()
    assert secret in game.spectator_view(True).model_dump_json()
    # Round two is open; the German prompt quotes the private message as speech.
    german = next(d for d in game.pending() if d.seat == "GERMANY")
    assert german.id == "S1901M:press2:GERMANY"
    parts = MODULE.prompter.parts(game.view("GERMANY"), german)
    quoted = [u for u in parts.transcript if u.kind == "private"]
    assert quoted and quoted[0].speaker == "France"
    with pytest.raises(IllegalAction):  # nobody writes to themselves
        game.apply(
            german.id, Structured(value={"messages": [{"to": "GERMANY", "text": "hello me"}]})
        )


def test_press_is_saying_nothing_for_scripted_bots() -> None:
    game = DiplomacyGame.new(make_config(None, {"press_rounds": 1}), 1)
    d = game.pending()[0]
    assert dumbbot(game.view(d.seat), d, Rng(1)) == Structured(value={"messages": []})
    assert hold(game.view(d.seat), d, Rng(1)) == Structured(value={"messages": []})


# -- prompts and pictures ------------------------------------------------------------------------


def test_prompt_lists_the_legal_orders_verbatim() -> None:
    game = DiplomacyGame.new(make_config(None, {}), 1)
    d = next(d for d in game.pending() if d.seat == "FRANCE")
    parts = MODULE.prompter.parts(game.view("FRANCE"), d)
    assert "as FRANCE (France)" in parts.system
    assert "France (you): 3 centres" in parts.memory
    assert d.json_schema is not None
    for prop in d.json_schema["properties"].values():
        for order in prop["enum"]:
            assert f"  {order}  (" in parts.command


def test_pictures_observer_writes_a_picture_per_phase(tmp_path: Path) -> None:
    game = DiplomacyGame.new(make_config(None, {"end_year": 1901}), 4)
    seats = {s.id: ScriptedSeat(dumbbot, hash_seed(4, s.id)) for s in game.seats()}
    pictures = PicturesObserver(tmp_path)
    asyncio.run(Runner(game, seats, fallback=hold, observers=[pictures]).run())
    names = sorted(p.name for p in tmp_path.iterdir())
    phases = [r.phase for r in game.state.history]
    assert names[:2] == ["001-S1901M.png", "001-S1901M.svg"]
    assert len(names) == 2 * (len(phases) + 1)
    assert any(n.endswith("-final.png") for n in names)
    assert (tmp_path / "001-S1901M.png").read_bytes().startswith(b"\x89PNG")
    # The final board is titled by the phase that ended the game, not the next one.
    final = next(p for p in tmp_path.iterdir() if p.name.endswith("-final.svg")).read_text()
    assert "After Winter 1901 Adjustments" in final or "After Fall 1901" in final
    assert "Spring 1902" not in final
    # Adjudicated phases mark their failed orders (if any failed) from the game's results.
    for record in game.state.history:
        svg = (tmp_path / f"{phases.index(record.phase) + 1:03d}-{record.phase}.svg").read_text()
        moves = [r for r in record.results if isinstance(parse_order(r.order), Move)]
        failed = [r for r in moves if r.status == "failed"]
        assert svg.count('class="order move failed') + svg.count(
            'class="order move via-convoy failed'
        ) == len(failed)


class _Stub:
    """A model that answers every request legally: the last order of each unit, the first
    ids of a choose-many, no press. Records what it was shown."""

    name = "stub"
    model_id = "stub-1"

    def __init__(self) -> None:
        from parlour.models.base import Capabilities

        self.capabilities = Capabilities(json_schema=True)
        self.shown: list[str] = []

    async def complete(self, request: Any) -> Any:
        from parlour.models.messages import ModelResponse, OutputKind

        spec = request.output
        self.shown.append(request.messages[-1].content)
        if spec.kind is OutputKind.CHOICES:
            parsed: dict[str, Any] = {"choices": list(spec.option_ids[: spec.min_choices])}
        else:
            props = spec.object_schema["properties"]
            parsed = {u: p["enum"][-1] for u, p in props.items() if "enum" in p}
            if "messages" in props:
                parsed = {"messages": []}
        return ModelResponse(text=json.dumps(parsed), parsed=parsed, model_id=self.model_id)


def test_llm_seats_get_legal_orders_in_their_prompt_and_answer_legally() -> None:
    from parlour.seats.llm import LlmSeat

    game = DiplomacyGame.new(make_config(None, {"end_year": 1901, "press_rounds": 1}), 6)
    stub = _Stub()
    outcomes: list[str] = []

    class Sink:
        def record(self, attempt: Any) -> None:
            outcomes.append(attempt.outcome)

    seats = {
        s.id: LlmSeat(
            stub, MODULE.prompter, hold, seat_id=s.id, seed=6, cache_key=s.id, sink=Sink()
        )
        for s in game.seats()
    }
    asyncio.run(Runner(game, seats, fallback=hold).run())
    assert game.is_terminal() and outcomes and set(outcomes) == {"valid"}
    orders = next(t for t in stub.shown if "A PAR — legal orders" in t or "A PAR (" in t)
    assert "  A PAR - BUR  (Army Paris moves to Burgundy)" in orders
    assert "JSON" in orders
    first = next(e for e in game.events if e.kind == "orders" and e.speaker == "FRANCE")
    assert first.data["orders"] == [
        "F BRE S F LON - ENG",
        "A MAR S F BRE - GAS",
        "A PAR S F BRE - PIC",
    ]
