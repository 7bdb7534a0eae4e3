"""The runner's paths on the toy game, with real SQLite stores checking what was recorded."""

from __future__ import annotations

import asyncio
import io
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console

from parlour.core.actions import Action, Choice, Text
from parlour.core.decisions import Decision
from parlour.core.events import Event
from parlour.core.game import Game, Result
from parlour.core.policy import Policy
from parlour.core.replay import replay
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.runtime.runner import GameStalled, Runner
from parlour.runtime.store import ActionRow, ActionWrite, Store, db_url
from parlour.seats.base import Seat
from parlour.seats.human import HumanSeat
from tests.toy.game import MODULE, ToyConfig, ToyGame


class Timed:
    """Answers by purpose after a real delay; remembers being cancelled."""

    def __init__(self, answers: dict[str, Action], delays: dict[str, float] | None = None):
        self.answers = answers
        self.delays = delays or {}
        self.cancelled: list[str] = []

    @property
    def label(self) -> str:
        return "timed"

    async def decide(self, view: AnyView, decision: Decision) -> Action:
        try:
            await asyncio.sleep(self.delays.get(decision.purpose, 0.0))
        except asyncio.CancelledError:
            self.cancelled.append(decision.id)
            raise
        return self.answers[decision.purpose]


def seat(floor: str = "pass", guess: str = "2", *, floor_s: float = 0, guess_s: float = 0) -> Timed:
    answers: dict[str, Action] = {
        "floor": Choice(option=floor),
        "say": Text(text="hi"),
        "guess": Choice(option=guess),
    }
    return Timed(answers, {"floor": floor_s, "guess": guess_s})


class Watcher:
    """An observer that checks each action is committed before its events are shown."""

    def __init__(self, store: Store, game_id: str) -> None:
        self.store, self.game_id = store, game_id
        self.events: list[Event] = []
        self.withdrawn: list[str] = []
        self.timeouts: list[str] = []
        self.unsaved_when_shown = 0

    def on_events(self, game: Game, events: Sequence[Event]) -> None:
        stored = {e.seq for e in self.store.events(self.game_id)}
        self.unsaved_when_shown += sum(e.seq not in stored for e in events)
        self.events.extend(events)

    def on_finish(self, game: Game, result: Result) -> None:
        pass

    def on_withdrawn(self, game: Game, decision: Decision) -> None:
        self.withdrawn.append(decision.id)

    def on_timeout(self, game: Game, decision: Decision) -> None:
        self.timeouts.append(decision.id)


class Table:
    """A toy game, its runner and a store on a real SQLite file."""

    def __init__(
        self,
        tmp_path: Path,
        seats: dict[str, Seat],
        *,
        fallback: Policy = MODULE.policy,
        decision_timeout: float | None = None,
        **config: object,
    ) -> None:
        self.config = ToyConfig.model_validate({"rounds": 1, **config})
        self.game = ToyGame.new(self.config, 5)
        self.store = Store(db_url(str(tmp_path / "toy.sqlite")))
        self.game_id = self.store.create_game("toy", self.config.model_dump_json(), 5, {})
        self.store.record_events(self.game_id, self.game.events)
        self.watcher = Watcher(self.store, self.game_id)
        self.runner = Runner(
            self.game,
            seats,
            fallback=fallback,
            store=self.store,
            game_id=self.game_id,
            observers=[self.watcher],
            decision_timeout=decision_timeout,
        )

    def run(self) -> float:
        began = time.monotonic()
        asyncio.run(self.runner.run())
        return time.monotonic() - began

    def actions(self) -> dict[str, ActionRow]:
        return {a.decision_id: a for a in self.store.actions(self.game_id)}

    def assert_replays(self) -> None:
        """The stored actions, not arrival order, rebuild the game exactly."""
        stored = [(a.decision_id, a.action) for a in self.store.actions(self.game_id)]
        again = replay(ToyGame, self.config, 5, stored)
        assert again.snapshot() == self.game.snapshot()
        assert list(self.store.events(self.game_id)) == list(again.events)
        assert self.watcher.unsaved_when_shown == 0


def test_as_arrived_first_answer_takes_the_floor_and_the_others_are_withdrawn(
    tmp_path: Path,
) -> None:
    slow_1, fast_2, slow_3 = seat("speak", floor_s=5.0), seat("speak"), seat("speak", floor_s=5.0)
    table = Table(tmp_path, {"p1": slow_1, "p2": fast_2, "p3": slow_3})
    elapsed = table.run()

    assert elapsed < 2.0, "the withdrawn seats' slow answers were waited for"
    assert slow_1.cancelled == ["r1:floor:p1"] and slow_3.cancelled == ["r1:floor:p3"]
    actions = table.actions()
    assert list(actions)[:2] == ["r1:floor:p2", "r1:say:p2"]
    assert "r1:floor:p1" not in actions and "r1:floor:p3" not in actions
    assert table.store.withdrawals(table.game_id) == [
        ("r1:floor:p1", "p1", 0),
        ("r1:floor:p3", "p3", 0),
    ]
    assert table.watcher.withdrawn == ["r1:floor:p1", "r1:floor:p3"]
    assert {a.by for a in actions.values()} == {"timed"}
    table.assert_replays()


def test_as_arrived_asks_the_rest_when_an_answer_leaves_them_open(tmp_path: Path) -> None:
    # p1 passes first (its question closes, the others stay open), then p3 speaks.
    seats: dict[str, Seat] = {
        "p1": seat("pass"),
        "p2": seat("speak", floor_s=5.0),
        "p3": seat("speak", floor_s=0.05),
    }
    table = Table(tmp_path, seats)
    assert table.run() < 2.0
    assert list(table.actions())[:3] == ["r1:floor:p1", "r1:floor:p3", "r1:say:p3"]
    assert table.store.withdrawals(table.game_id) == [("r1:floor:p2", "p2", 1)]
    table.assert_replays()


def test_ordered_batch_whose_earlier_answer_closes_a_later_one_does_not_stall(
    tmp_path: Path,
) -> None:
    seats: dict[str, Seat] = {p: seat("speak") for p in ("p1", "p2", "p3")}
    table = Table(tmp_path, seats, floor_batch="ordered")
    table.run()
    actions = table.actions()
    # p1 is first in pending() order and takes the floor; p2's and p3's stale answers
    # are withdrawn, not applied and not replaced by a fallback.
    assert list(actions)[:2] == ["r1:floor:p1", "r1:say:p1"]
    assert "fallback" not in {a.by for a in actions.values()}
    assert table.store.withdrawals(table.game_id) == [
        ("r1:floor:p2", "p2", 0),
        ("r1:floor:p3", "p3", 0),
    ]
    assert table.game.is_terminal()
    table.assert_replays()


def test_wall_deadline_applies_the_games_default_by_timeout(tmp_path: Path) -> None:
    late = seat(guess="3", guess_s=3.0)
    seats: dict[str, Seat] = {"p1": seat("speak"), "p2": seat(), "p3": late}
    table = Table(tmp_path, seats, guess_deadline="wall", guess_seconds=0.1)
    assert table.run() < 2.0
    actions = table.actions()
    assert (actions["r1:guess:p3"].action, actions["r1:guess:p3"].by) == (
        Choice(option="1"),
        "timeout",
    )
    assert actions["r1:guess:p2"].by == "timed"
    assert table.watcher.timeouts == ["r1:guess:p3"]
    table.assert_replays()


def test_a_human_seat_gets_its_longer_deadline(tmp_path: Path) -> None:
    def slow_typist(prompt: str) -> str:
        time.sleep(0.3)
        return "2"  # floor: option 2 (pass); guess: option 2

    human = HumanSeat(console=Console(file=io.StringIO()), input_fn=slow_typist)
    seats: dict[str, Seat] = {"p1": human, "p2": seat("speak", guess_s=0.6), "p3": seat()}
    table = Table(
        tmp_path,
        seats,
        floor_batch="ordered",
        guess_deadline="wall",
        guess_seconds=0.1,
        guess_human_seconds=3.0,
    )
    table.run()
    actions = table.actions()
    assert (actions["r1:guess:p1"].action, actions["r1:guess:p1"].by) == (
        Choice(option="2"),
        "human",
    )
    assert actions["r1:guess:p2"].by == "timeout"  # the AI seat had 0.1 s
    table.assert_replays()


def test_game_clock_deadline_passes_while_the_batch_is_applied(tmp_path: Path) -> None:
    seats: dict[str, Seat] = {"p1": seat("speak"), "p2": seat(), "p3": seat()}
    # Guesses open at minute m and must be in by m + 1.5; each applied action is a
    # minute, so after two guesses the third seat's answer is too late on the game clock.
    table = Table(tmp_path, seats, guess_deadline="game", guess_seconds=1.5)
    table.run()
    actions = table.actions()
    assert [actions[f"r1:guess:{p}"].by for p in ("p1", "p2", "p3")] == [
        "timed",
        "timed",
        "timeout",
    ]
    assert actions["r1:guess:p3"].action == Choice(option="1")
    assert table.watcher.timeouts == ["r1:guess:p3"]
    table.assert_replays()


def test_global_decision_timeout_applies_the_fallback(tmp_path: Path) -> None:
    seats: dict[str, Seat] = {"p1": seat("speak"), "p2": seat(guess_s=3.0), "p3": seat()}
    # The override is shorter than the decision's own deadline: the fallback answers.
    table = Table(tmp_path, seats, decision_timeout=0.1, guess_deadline="wall", guess_seconds=2.0)
    assert table.run() < 1.5
    assert table.actions()["r1:guess:p2"].by == "fallback"
    assert table.watcher.timeouts == []


def _house_fallback(view: AnyView, decision: Decision, rng: Rng) -> Action:
    return Choice(option="3")


@pytest.mark.parametrize(
    ("fallback", "expected"),
    [(_house_fallback, {Choice(option="3")}), (MODULE.policy, {Choice(option="1")})],
    ids=["fallback-policy", "then-random-legal"],
)
def test_rule_rejection_falls_back_then_random_legal(
    tmp_path: Path, fallback: Policy, expected: set[Action]
) -> None:
    # Every seat guesses 2, which the decision offers but the rules reject (the house
    # holds it). The fallback answers; when it also guesses 2, a random legal guess does.
    seats: dict[str, Seat] = {"p1": seat("speak"), "p2": seat(), "p3": seat()}
    table = Table(tmp_path, seats, fallback=fallback, house_number="2")
    table.run()
    guesses = [a for a in table.actions().values() if ":guess:" in a.decision_id]
    assert {a.by for a in guesses} == {"fallback"}
    assert {a.action for a in guesses} <= expected | {Choice(option="3")}
    assert Choice(option="2") not in {a.action for a in guesses}
    table.assert_replays()


@pytest.mark.parametrize(
    ("stall", "message"),
    [("no_decision", "offers no decision"), ("no_legal_answer", "no legal answer")],
)
def test_a_broken_game_stalls_and_what_was_applied_is_kept(
    tmp_path: Path, stall: str, message: str
) -> None:
    seats: dict[str, Seat] = {"p1": seat("speak"), "p2": seat(), "p3": seat()}
    table = Table(tmp_path, seats, stall=stall, rounds=2)
    with pytest.raises(GameStalled, match=message):
        table.run()
    stored = list(table.actions())
    assert stored[:2] == ["r1:floor:p1", "r1:say:p1"]
    if stall == "no_decision":  # round 1 was played to the end, then nothing is offered
        assert len(stored) == 5
    table.assert_replays()


def test_writes_leave_the_event_loop_while_seats_are_thinking(tmp_path: Path) -> None:
    # Each round p1 takes the floor at once while p2 and p3 are still thinking: that
    # commit runs in the writer thread. Later batches have the loop to themselves.
    seats: dict[str, Seat] = {
        "p1": seat("speak"),
        "p2": seat(floor_s=0.3),
        "p3": seat(floor_s=0.3),
    }
    table = Table(tmp_path, seats, rounds=3)
    where: list[tuple[str, list[int]]] = []
    original = table.store.record_actions

    def spy(game_id: str, writes: Sequence[ActionWrite]) -> None:
        where.append((threading.current_thread().name, [w.idx for w in writes]))
        original(game_id, writes)

    table.store.record_actions = spy  # type: ignore[method-assign]
    table.run()
    indices = [i for _, idx in where for i in idx]
    assert indices == list(range(15)), "writes out of action order"
    off_loop = {name for name, idx in where if idx}
    off_loop.discard(threading.current_thread().name)
    assert len(off_loop) == 1 and off_loop.pop().startswith("parlour-store")
    floor_writes = [name for name, idx in where if idx and idx[0] % 5 == 0]
    assert all(name.startswith("parlour-store") for name in floor_writes)
    # An ordered batch of guesses is one commit.
    assert [len(idx) for _, idx in where if idx and idx[0] % 5 == 2] == [3, 3, 3]
    table.assert_replays()


def test_an_ordered_batch_is_one_transaction(tmp_path: Path) -> None:
    store = Store(db_url(str(tmp_path / "batch.sqlite")))
    gid = store.create_game("toy", "{}", 1, {})
    ok = ActionWrite(0, "a", "p1", Choice(option="1"), ())
    clash = ActionWrite(0, "b", "p2", Choice(option="2"), ())
    with pytest.raises(Exception, match="already has action #0"):
        store.record_actions(gid, [ok, clash])
    assert store.actions(gid) == []  # all or nothing
    store.record_actions(gid, [ok, ActionWrite(1, "b", "p2", Choice(option="2"), ())])
    assert [a.decision_id for a in store.actions(gid)] == ["a", "b"]


def test_a_human_line_typed_after_a_timeout_answers_the_next_question() -> None:
    lines = iter(["2", "3"])
    reading, typed = threading.Event(), threading.Event()

    def typist(prompt: str) -> str:
        reading.set()
        typed.wait(5)
        return next(lines, "1")

    human = HumanSeat(console=Console(file=io.StringIO()), input_fn=typist)
    game = ToyGame.new(ToyConfig(rounds=1), 5)
    floor, guess = game.pending()[0], game._guess("p1")

    async def play() -> tuple[Action, Action]:
        asked = asyncio.create_task(human.decide(game.view("p1"), floor))
        await asyncio.to_thread(reading.wait, 5)
        asked.cancel()  # the question times out while the person is still typing
        with pytest.raises(asyncio.CancelledError):
            await asked
        typed.set()  # the line typed now goes to the next question
        first = await asyncio.wait_for(human.decide(game.view("p1"), guess), 5)
        second = await asyncio.wait_for(human.decide(game.view("p1"), guess), 5)
        return first, second

    # One reader at a time: no stray thread swallows a line meant for a later question.
    assert asyncio.run(play()) == (Choice(option="2"), Choice(option="3"))
