"""Hosting on SQLite: people play through the desk, the host runs games and obeys admins.

Real SQLite files; the werewolf games run their scripted seats, one seat is a person
whose answers the test submits through ``Desk`` as a page would.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from parlour.core.actions import Action, Choice, Choices, Text
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.errors import IllegalAction, ParlourError
from parlour.core.rng import Rng
from parlour.core.view import AnyView
from parlour.runtime.host import GameHost, rules_trial
from parlour.runtime.remote import Desk, OpenDecision, RemoteSeat, doorbell
from parlour.runtime.runner import Runner
from parlour.runtime.seating import HumanSpec, PolicySpec
from parlour.runtime.store import Store, db_url
from parlour.seats.base import Seat
from parlour.seats.scripted import ScriptedSeat
from tests.support.hosting import serving, until
from tests.toy.game import MODULE, ToyConfig, ToyGame


def _answer(od: OpenDecision) -> Action:
    """What a person clicks: the first option, or a short line."""
    d = od.decision
    if d.kind is DecisionKind.CHOOSE_ONE:
        return Choice(option=d.options[-1].id)
    if d.kind is DecisionKind.CHOOSE_MANY:
        return Choices(options=tuple(o.id for o in d.options[: max(d.min_choices, 1)]))
    return Text(text="I have nothing to add.")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(db_url(str(tmp_path / "host.sqlite")))


def test_a_person_plays_werewolf_to_the_end_through_the_desk(store: Store) -> None:
    host = GameHost(store, "w1", lease_seconds=5)
    gid = host.create("werewolf", players=6, seed=4, seats={"p1": HumanSpec()}, overrides={})
    assert store.get_game(gid).seats["p1"] == "human"
    desk = Desk(store)
    answered: list[str] = []
    refused: list[str] = []

    async def play() -> None:
        while store.get_game(gid).status == "running":
            for od in desk.open_for(gid, "p1"):
                if od.decision.id in answered:
                    continue  # submitted; the seat has not taken it yet
                assert od.seat == "p1" and od.game_id == gid and od.asked_at > 1e9
                assert desk.open_in(gid) == [od]  # the only person at the table
                if od.decision.kind is DecisionKind.CHOOSE_ONE and not refused:
                    with pytest.raises(IllegalAction) as err:
                        desk.submit(gid, "p1", od.decision.id, Choice(option="nobody-here"))
                    refused.append(str(err.value))
                    with pytest.raises(IllegalAction, match="not open for p2"):
                        desk.submit(gid, "p2", od.decision.id, _answer(od))
                desk.submit(gid, "p1", od.decision.id, _answer(od))
                answered.append(od.decision.id)
                with pytest.raises(IllegalAction, match=r"already answered|not open"):
                    desk.submit(gid, "p1", od.decision.id, _answer(od))
            await asyncio.sleep(0.01)

    asyncio.run(serving(host, lambda: asyncio.wait_for(play(), 60)))
    row = store.get_game(gid)
    assert row.status == "finished" and row.result is not None
    assert answered, "the person was never asked"
    person = [a for a in store.actions(gid) if a.seat == "p1"]
    assert [a.decision_id for a in person] == answered
    assert {a.by for a in person} == {"person"}  # every answer was the person's own
    assert refused and "'nobody-here' is not a legal choice; legal:" in refused[0]
    assert desk.open_in(gid) == []  # nothing left open
    assert host.leases.get(gid) is None  # a finished game is no longer hosted


def _toy_runner(
    store: Store, config: ToyConfig, person_seat: str = "p2", **seat_options: object
) -> tuple[str, ToyGame, Runner, RemoteSeat]:
    """A stored toy game whose ``person_seat`` is a person on the desk."""
    gid = store.create_game("toy", config.model_dump_json(), 5, {})
    game = ToyGame.new(config, 5)
    person = RemoteSeat(store, gid, person_seat, **seat_options)  # type: ignore[arg-type]
    seats: dict[str, Seat] = {s.id: ScriptedSeat(MODULE.policy, 1) for s in game.seats()}
    seats[person_seat] = person
    runner = Runner(game, seats, fallback=MODULE.policy, store=store, game_id=gid)
    return gid, game, runner, person


def test_a_wall_deadline_is_visible_then_the_default_applies_and_the_row_goes(
    store: Store,
) -> None:
    config = ToyConfig(rounds=1, guess_deadline="wall", guess_seconds=0.2, guess_human_seconds=0.6)
    gid, game, runner, _ = _toy_runner(store, config)
    desk = Desk(store)
    seen: list[OpenDecision] = []

    async def person() -> None:
        """Passes the floor through the desk; never answers the guess."""
        passed = False
        while not game.is_terminal():
            for od in desk.open_for(gid, "p2"):
                if od not in seen:
                    seen.append(od)
                if od.decision.purpose == "floor" and not passed:
                    desk.submit(gid, "p2", od.decision.id, Choice(option="pass"))
                    passed = True
            await asyncio.sleep(0.02)

    async def main() -> None:
        await asyncio.gather(runner.run(), asyncio.wait_for(person(), 20))

    asyncio.run(main())
    guess = next(od for od in seen if od.decision.purpose == "guess")
    assert guess.deadline_at is not None
    # the person's allowance (human_seconds), not the AI seats' 0.2 s
    assert guess.deadline_at - guess.asked_at == pytest.approx(0.6, abs=0.01)
    floor = next(od for od in seen if od.decision.purpose == "floor")
    assert floor.deadline_at is None
    assert desk.open_in(gid) == []  # timed out: the row went with it
    by = {a.decision_id: a.by for a in store.actions(gid)}
    assert by["r1:guess:p2"] == "timeout"
    assert by["r1:guess:p1"] == "scripted"


def test_a_withdrawn_decision_leaves_no_open_row(store: Store) -> None:
    """p1 takes the floor (as-arrived): the person's floor question is withdrawn."""
    gid, game, runner, _ = _toy_runner(store, ToyConfig(rounds=1))
    desk = Desk(store)
    opened: list[str] = []
    answered: set[str] = set()

    async def person() -> None:
        while not game.is_terminal():
            for od in desk.open_for(gid, "p2"):
                if od.decision.id not in opened:
                    opened.append(od.decision.id)
                if od.decision.purpose == "guess" and od.decision.id not in answered:
                    desk.submit(gid, "p2", od.decision.id, Choice(option="3"))
                    answered.add(od.decision.id)
            await asyncio.sleep(0.005)

    async def main() -> None:
        await asyncio.gather(runner.run(), asyncio.wait_for(person(), 20))

    asyncio.run(main())
    assert ("r1:floor:p2", "p2", 0) in store.withdrawals(gid)
    assert opened[-1] == "r1:guess:p2"
    assert desk.open_in(gid) == []
    with pytest.raises(IllegalAction, match="not open"):
        desk.submit(gid, "p2", "r1:floor:p2", Choice(option="speak"))


def test_a_rule_rejection_is_shown_on_the_reopened_decision(store: Store) -> None:
    """The rules reject "2" (the house number) though the Decision admits it: the
    decision stays open with the rule's reason, and the person's next answer counts."""
    config = ToyConfig(rounds=1, house_number="2")
    gid = store.create_game("toy", config.model_dump_json(), 5, {})
    game = ToyGame.new(config, 5)

    def guess_three(view: AnyView, decision: Decision, rng: Rng) -> Action:
        action = MODULE.policy(view, decision, rng)
        return Choice(option="3") if decision.purpose == "guess" else action

    seats: dict[str, Seat] = {s.id: ScriptedSeat(guess_three, 1) for s in game.seats()}
    seats["p2"] = RemoteSeat(store, gid, "p2", trial=rules_trial(game))
    runner = Runner(game, seats, fallback=guess_three, store=store, game_id=gid)
    desk = Desk(store)
    refusals: list[str] = []

    async def person() -> None:
        tried = passed = False
        while not game.is_terminal():
            for od in desk.open_for(gid, "p2"):
                if od.decision.purpose == "floor":
                    if not passed:
                        desk.submit(gid, "p2", od.decision.id, Choice(option="pass"))
                        passed = True
                elif not tried:
                    desk.submit(gid, "p2", od.decision.id, Choice(option="2"))
                    tried = True
                elif od.refusal:
                    refusals.append(od.refusal)
                    desk.submit(gid, "p2", od.decision.id, Choice(option="1"))
            await asyncio.sleep(0.01)

    async def main() -> None:
        await asyncio.gather(runner.run(), asyncio.wait_for(person(), 20))

    asyncio.run(main())
    assert refusals == ["the house holds 2"]
    guess = next(a for a in store.actions(gid) if a.decision_id == "r1:guess:p2")
    assert (guess.action, guess.by) == (Choice(option="1"), "person")
    assert desk.open_in(gid) == []


def test_the_doorbell_wakes_a_seat_in_the_same_process_at_once(store: Store) -> None:
    """Submitted in-process, the answer is taken without waiting for the poll."""
    config = ToyConfig(rounds=1)
    person = RemoteSeat(store, "toy-4", "p2", poll=5.0)  # a poll would take 5 s
    desk = Desk(store)
    game = ToyGame.new(config, 5)
    decision = next(d for d in game.pending() if d.seat == "p2")

    async def main() -> float:
        asking = asyncio.create_task(person.decide(game.view("p2"), decision))
        await until(lambda: bool(desk.open_for("toy-4", "p2")))
        t0 = time.perf_counter()
        desk.submit("toy-4", "p2", decision.id, Choice(option="pass"))
        assert await asking == Choice(option="pass")
        return time.perf_counter() - t0

    assert asyncio.run(main()) < 1.0
    assert doorbell(store) is doorbell(store)


def test_admin_pause_resume_replace_and_end(store: Store) -> None:
    host = GameHost(store, "w1", lease_seconds=5)
    gid = host.create("werewolf", players=6, seed=8, seats={"p3": HumanSpec()}, overrides={})
    desk = Desk(store)

    async def body() -> None:
        await until(lambda: bool(desk.open_for(gid, "p3")))
        assert host.running() == {gid}
        host.pause(gid)
        await until(lambda: store.get_game(gid).status == "paused")
        assert host.running() == frozenset()
        assert desk.open_in(gid) == []  # the paused game asks nobody
        lease = host.leases.get(gid)
        assert lease is not None and lease.worker is None
        await asyncio.sleep(0.5)
        assert host.running() == frozenset()  # a paused game is not claimed again
        # takeover: the person's seat goes to the script while paused; resume runs it
        host.replace_seat(gid, "p3", PolicySpec("scripted"))
        host.resume(gid)
        await until(lambda: store.get_game(gid).status == "finished")
        assert store.get_game(gid).seats["p3"] == "scripted"

    asyncio.run(serving(host, body))
    assert {a.by for a in store.actions(gid) if a.seat == "p3"} >= {"scripted"}

    gid2 = host.create("werewolf", players=6, seed=9, seats={"p2": HumanSpec()}, overrides={})

    async def end_it() -> None:
        await until(lambda: bool(desk.open_for(gid2, "p2")))
        n = len(store.actions(gid2))
        host.end(gid2)
        await until(lambda: store.get_game(gid2).status == "ended")
        assert desk.open_in(gid2) == []
        assert host.leases.get(gid2) is None
        await asyncio.sleep(0.3)
        assert len(store.actions(gid2)) == n  # nothing more was played

    asyncio.run(serving(host, end_it))


def test_replacing_a_running_scripted_seat_with_a_person(store: Store) -> None:
    host = GameHost(store, "w1", lease_seconds=5)
    gid = host.create("werewolf", players=6, seed=3, seats={"p4": HumanSpec()}, overrides={})
    desk = Desk(store)
    replaced_at: list[int] = []
    answered: set[str] = set()

    async def body() -> None:
        await until(lambda: bool(desk.open_for(gid, "p4")))
        replaced_at.append(len(store.actions(gid)))
        host.replace_seat(gid, "p5", HumanSpec())
        # the game waits for p4 meanwhile, so the takeover lands mid-game
        await until(lambda: store.get_game(gid).seats["p5"] == "human")
        while store.get_game(gid).status == "running":
            for seat in ("p4", "p5"):
                for od in desk.open_for(gid, seat):
                    if od.decision.id not in answered:
                        desk.submit(gid, seat, od.decision.id, _answer(od))
                        answered.add(od.decision.id)
            await asyncio.sleep(0.01)

    asyncio.run(serving(host, lambda: asyncio.wait_for(body(), 60)))
    assert store.get_game(gid).status == "finished"
    assert store.get_game(gid).seats["p5"] == "human"
    p5 = [a for a in store.actions(gid) if a.seat == "p5"]
    assert all(a.by == "scripted" for a in p5 if a.idx < replaced_at[0])
    assert {a.by for a in p5 if a.idx >= replaced_at[0]} == {"person"}


def test_bad_admin_and_create_input_is_a_one_line_error(store: Store) -> None:
    host = GameHost(store, "w1")
    with pytest.raises(ParlourError, match="p9"):
        host.create("werewolf", players=6, seed=1, seats={"p9": HumanSpec()}, overrides={})
    with pytest.raises(ParlourError, match="unknown game"):
        host.create("chess", players=2, seed=1, seats={}, overrides={})
    with pytest.raises(ParlourError, match="no game with id"):
        host.pause("ww-missing")
    gid = host.create("werewolf", players=6, seed=1, seats={}, overrides={})
    with pytest.raises(ParlourError, match="no seat 'zz'"):
        host.replace_seat(gid, "zz", HumanSpec())


def test_one_host_runs_many_games_at_once_with_identical_logs(store: Store, tmp_path: Path) -> None:
    """Sixteen games share one host (their writer threads share the store's connection);
    each log is the one its seed gives alone."""
    host = GameHost(store, "w1", lease_seconds=5)
    ids = [
        host.create("werewolf", players=6, seed=seed, seats={}, overrides={})
        for seed in range(20, 36)
    ]

    async def body() -> None:
        await until(lambda: len(host.running()) == len(ids), 20)  # all at once
        done = ("finished", "failed")
        await until(lambda: all(store.get_game(g).status in done for g in ids), 120)
        assert [store.get_game(g).status for g in ids] == ["finished"] * len(ids)

    asyncio.run(serving(host, body))
    alone = Store(db_url(str(tmp_path / "alone.sqlite")))
    solo = GameHost(alone, "solo")
    gid = solo.create("werewolf", players=6, seed=23, seats={}, overrides={})
    asyncio.run(serving(solo, lambda: until(lambda: alone.get_game(gid).status == "finished", 60)))
    assert store.events(ids[3]) == alone.events(gid)


def test_one_admin_command_query_per_tick_for_all_games(store: Store) -> None:
    """The host asks for the admin commands of every game it runs in one query per tick
    (it used to ask once per game), and still applies each game's own commands."""
    import sqlalchemy as sa

    host = GameHost(store, "w1", lease_seconds=5)
    ids = [
        host.create("werewolf", players=6, seed=seed, seats={"p1": HumanSpec()}, overrides={})
        for seed in (40, 41, 42, 44)
    ]
    desk = Desk(store)
    asked: list[str] = []

    def count(_c: object, _cur: object, statement: str, *_: object) -> None:
        # The host's own reads of admin_commands (the lease claim query also looks at
        # it, for paused games, once per tick whatever the number of games).
        if statement.startswith("SELECT admin_commands.") and "leases" not in statement:
            asked.append(statement)

    async def body() -> None:
        end = time.monotonic() + 60
        while len(host.running()) < len(ids) or not all(desk.open_for(g, "p1") for g in ids):
            assert time.monotonic() < end, "the games did not all start"
            await host.tick()
            await asyncio.sleep(0.05)
        sa.event.listen(store.engine, "before_cursor_execute", count)
        try:
            await host.tick()
            assert len(asked) == 1, asked  # four running games, one query
            host.pause(ids[0])
            host.end(ids[1])
            asked.clear()
            await host.tick()
            assert len(asked) == 1, asked
        finally:
            sa.event.remove(store.engine, "before_cursor_execute", count)
        assert store.get_game(ids[0]).status == "paused"
        assert store.get_game(ids[1]).status == "ended"
        assert host.running() == {ids[2], ids[3]}
        assert [store.get_game(g).status for g in ids[2:]] == ["running", "running"]
        for g in ids[2:]:
            await host._stop(g)

    asyncio.run(body())
