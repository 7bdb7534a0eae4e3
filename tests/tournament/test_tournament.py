"""Tournaments on real SQLite files with scripted and random seats (no model needed)."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path

import pytest
import sqlalchemy as sa

from parlour.core.errors import ParlourError
from parlour.runtime.store import Store, schema
from parlour.tournament import run as runs
from parlour.tournament import storage
from parlour.tournament.export import tournament_lines
from parlour.tournament.play import _start, play_job, same_result
from parlour.tournament.plots import write_plots
from parlour.tournament.report import write_html
from parlour.tournament.schedule import Entrant, make_schedule
from parlour.tournament.summary import summarise

AB = ["a=scripted", "b=random"]


def _full(store: Store, games: int = 6, seed: int = 3, entrants: list[str] = AB) -> str:
    params = runs.prepare(store, "werewolf", entrants, games=games, seed=seed)
    tid = runs.create(store, params)
    report = runs.run(store, tid)
    assert report.status == "finished" and report.played == games
    return tid


def test_schedule_balances_seats_and_is_seeded() -> None:
    seats = [f"p{i}" for i in range(1, 8)]
    es = [Entrant("a", "scripted"), Entrant("b", "random"), Entrant("c", "random")]
    sched = make_schedule(seats, es, 6, seed=5)
    for seat in seats:  # 6 games, 3 entrants: each entrant sits twice at every seat
        assert Counter(m.seating[seat] for m in sched) == {"a": 2, "b": 2, "c": 2}
    assert sched == make_schedule(seats, es, 6, seed=5)
    assert [m.seed for m in sched] != [m.seed for m in make_schedule(seats, es, 6, seed=6)]
    grid = make_schedule(seats, es, 2, 5, grid={"tie_rule": ("random", "no_elimination")})
    assert len(grid) == 4 and {m.rule_set for m in grid} == {
        "tie_rule=no_elimination",
        "tie_rule=random",
    }
    # the rule sets are paired: the same deals under each rule
    assert [m.seed for m in grid[:2]] == [m.seed for m in grid[2:]]


def test_tournament_is_stored_rated_and_reported(store: Store, tmp_path: Path) -> None:
    tid = _full(store, games=8)
    s = summarise(store, tid)
    assert s.played == 8 and s.self_play == 0
    assert {r.key for r in s.ratings} == {"a", "b"}
    assert all(r.low < r.mu < r.high and r.games == 8 for r in s.ratings)
    assert {"a as werewolf", "b as villager"} <= {r.key for r in s.role_ratings}
    for e in ("a", "b"):
        iv = s.win_rates[e]
        assert iv is not None and 0 <= iv.low <= iv.value <= iv.high <= 1
        for name in ("IRP", "VSS", "KSR"):
            m = s.ratios[name, e]
            assert m is None or 0 <= m.low <= m.value <= m.high <= 1
    h = s.h2h
    assert h[0][1] is not None and h[1][0] is not None
    assert h[0][1] + h[1][0] == pytest.approx(1.0)  # one side's win is the other's loss
    plots = write_plots(s, tmp_path / "rep")
    page = write_html(s, tmp_path / "rep", plots)
    assert all(p.stat().st_size > 10_000 for p in plots.values())
    text = page.read_text()
    assert "ratings.png" in text and "IRP" in text and tid in text


def test_werewolf_counters_match_the_votes(store: Store) -> None:
    tid = _full(store, games=2)
    for g in storage.games(store, tid):
        out = g.outcome
        assert out is not None and g.game_id is not None
        votes = [e for e in store.events(g.game_id) if e.kind == "vote"]
        counters = out["counters"]
        assert sum(c["votes"] for c in counters.values()) == len(votes)
        assert sum(c["key_role"] for c in counters.values()) == 2  # seer + doctor at 7
        roles = out["roles"]
        for seat, c in counters.items():
            assert c["votes_evil"] <= c["village_votes"] <= c["votes"]
            if roles[seat] == "werewolf":
                assert c["village_votes"] == 0
        assert out["game"]["village_won"] == float(
            any(roles[w] != "werewolf" for w in out["winners"])
        )


def test_self_play_is_not_rated_and_balance_crosses_rules(store: Store) -> None:
    params = runs.prepare(store, "werewolf", ["s=scripted"], games=3, seed=1)
    assert set(params.grid) == {"doctor_self_protect", "tie_rule", "reveal_roles"}
    tid = runs.create(store, params)
    runs.run(store, tid)
    s = summarise(store, tid)
    assert s.played == 24 and s.self_play == 24 and s.ratings == []
    assert len(s.headline) == 8 and all(iv is not None and iv.n == 3 for iv in s.headline.values())


def test_resume_plays_only_missing_games_and_a_lost_game_continues(store: Store) -> None:
    reference = storage.games(store, _full(store, games=4, seed=11))
    params = runs.prepare(store, "werewolf", AB, games=4, seed=11)
    tid = runs.create(store, params)
    jobs = runs.pending_jobs(store, tid)
    storage.record_outcome(store, tid, 0, play_job(jobs[0]))  # game 0 done
    # game 1: a worker started it and died after a few batches
    session = _start(jobs[1], store)
    asyncio.run(session.run(max_batches=3))
    assert session.game.result() is None
    started = storage.game_id_of(store, tid, 1)
    report = runs.run(store, tid)
    assert report.played == 3  # 1, 2, 3: game 0 is not played again
    done = storage.games(store, tid)
    assert done[1].game_id == started  # continued from its stored actions, not restarted
    for a, b in zip(reference, done, strict=True):
        assert a.outcome is not None and b.outcome is not None
        assert same_result(a.outcome, b.outcome)


def test_budget_stops_cleanly_and_resume_continues(store: Store) -> None:
    params = runs.prepare(store, "werewolf", AB, games=3, seed=2, budget=0.01)
    tid = runs.create(store, params)
    first = play_job(runs.pending_jobs(store, tid)[0])
    # the cost a paid model would have reported for game 0
    storage.record_outcome(store, tid, 0, {**first, "cost_usd": 0.02})
    report = runs.run(store, tid)
    assert report.stopped_by_budget and report.played == 0 and report.status == "stopped"
    assert storage.get(store, tid).status == "stopped"
    assert len(runs.pending_jobs(store, tid)) == 2  # nothing lost, nothing half-recorded


def test_escape_and_diplomacy_metrics(store: Store) -> None:
    p = runs.prepare(store, "escape", ["a=scripted", "r=random"], games=2, seed=1)
    tid = runs.create(store, p)
    runs.run(store, tid)
    s = summarise(store, tid)
    assert s.ratings == []  # one seat a game: nothing to rank against
    assert s.ratios["solve rate", "a"] is not None
    p = runs.prepare(
        store, "diplomacy", ["d=dumbbot", "h=hold"], games=2, seed=1, options={"end_year": 1901}
    )
    tid = runs.create(store, p)
    runs.run(store, tid)
    s = summarise(store, tid)
    assert {r.key for r in s.ratings} == {"d", "h"}
    share = s.ratios["centre share", "d"]
    assert share is not None and 0 < share.value < 1


def test_export_writes_games_events_and_calls(store: Store) -> None:
    tid = _full(store, games=2)
    lines = list(tournament_lines(store, tid))
    json.dumps(lines)  # a dataset: plain JSON
    games = [ln for ln in lines if ln["type"] == "game"]
    assert [g["idx"] for g in games] == [0, 1]
    events = [ln for ln in lines if ln["type"] == "event"]
    assert len(events) == sum(store.event_count(g["game_id"]) for g in games)


def test_bad_input_is_one_line_and_stores_nothing(store: Store) -> None:
    with pytest.raises(ParlourError, match="unknown game 'chess'"):
        runs.prepare(store, "chess", AB, games=2, seed=1)
    with pytest.raises(ParlourError, match="bad seat spec 'nonsense'"):
        runs.prepare(store, "werewolf", ["a=nonsense"], games=2, seed=1)
    with pytest.raises(ParlourError, match="entrant names must differ"):
        runs.create(
            store, runs.prepare(store, "werewolf", ["a=scripted", "a=random"], games=2, seed=1)
        )
    with pytest.raises(ParlourError, match="human"):
        runs.prepare(store, "werewolf", ["me=human"], games=2, seed=1)
    with pytest.raises(ParlourError, match="tie_rule"):
        runs.prepare(
            store, "werewolf", ["a=scripted"], games=2, seed=1, grid={"tie_rule": ("coin",)}
        )
    with store.engine.connect() as conn:
        assert (
            conn.execute(sa.select(sa.func.count()).select_from(schema.tournaments)).scalar() == 0
        )


def test_export_gives_every_recorded_call_its_view_hash(tmp_path: Path) -> None:
    import shutil

    from parlour.runtime.store import db_url
    from parlour.tournament.export import game_lines

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "werewolf_local.sqlite"
    copy = tmp_path / "copy.sqlite"  # never touch the recorded fixture itself
    shutil.copy(fixture, copy)
    store = Store(db_url(str(copy)))
    game_id = store.list_games()[0].id
    calls = [ln for ln in game_lines(store, game_id) if ln["type"] == "call"]
    assert len(calls) == len(store.calls(game_id)) > 0
    hashes = {c["decision_id"]: c["view_hash"] for c in calls}
    assert all(isinstance(h, str) and len(h) == 64 for h in hashes.values())
    # two seats deciding at once see different views
    by_phase: dict[str, set[str]] = {}
    for c in calls:
        by_phase.setdefault(c["phase"], set()).add(c["view_hash"])
    assert any(len(v) > 1 for v in by_phase.values())
