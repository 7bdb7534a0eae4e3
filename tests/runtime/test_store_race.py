"""Processes starting at once on a new database (issue 10, F6), and the start-up window (F9).

F6: the schema check-then-create had no lock; concurrent starts died with "table
schema_version already exists" and their games were lost. Each process here is forked
from the test (so it pays no interpreter start-up), waits at a barrier, then opens the
store and creates one game, as ``parlour watch`` does first.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import traceback
from pathlib import Path
from typing import Any

import pytest

from parlour.runtime import session as sessions
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, db_url, schema

PROCESSES, ROUNDS = 8, 20


def _open_and_create(url: str, barrier: Any, errors: Any) -> None:
    try:
        barrier.wait(timeout=60)
        store = Store(url)
        store.create_game("werewolf", "{}", 1, {"p1": "scripted"})
        store.close()
    except BaseException:
        errors.put(traceback.format_exc(limit=3))
        raise SystemExit(1) from None


@pytest.mark.slow  # 8 processes x 20 rounds on one new file
def test_concurrent_starts_on_a_new_file_never_fail(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    Store(db_url(str(tmp_path / "warm.sqlite"))).close()  # imports done once, before forking
    failures: list[str] = []
    for round_ in range(ROUNDS):
        path = tmp_path / f"new-{round_}.sqlite"
        barrier, errors = ctx.Barrier(PROCESSES), ctx.Queue()
        procs = [
            ctx.Process(target=_open_and_create, args=(db_url(str(path)), barrier, errors))
            for _ in range(PROCESSES)
        ]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join(timeout=120)
        while not errors.empty():
            failures.append(errors.get())
        assert all(p.exitcode is not None for p in procs), "a process hung"
        with sqlite3.connect(path) as conn:
            games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
            versions = [r[0] for r in conn.execute("SELECT version FROM schema_version")]
        assert not failures, f"round {round_}: {len(failures)} failed:\n{failures[0]}"
        assert games == PROCESSES
        assert sorted(versions) == list(range(1, schema.LATEST + 1))


SCRIPTED = SeatPlan(default="scripted", system_default="scripted", overrides={})


def test_a_failure_while_storing_the_opening_leaves_no_half_game(store: Store) -> None:
    """F9: the game row and its opening events are one transaction. The database itself
    refuses the opening here (a trigger), as a full disk or a kill would stop it."""
    with store.engine.begin() as conn:
        conn.exec_driver_sql(
            "CREATE TRIGGER no_opening BEFORE INSERT ON events "
            "BEGIN SELECT RAISE(ABORT, 'disk gone'); END"
        )
    with pytest.raises(Exception, match="disk gone"):
        sessions.start(store, "werewolf", players=7, seed=1, options={}, plan=SCRIPTED)
    assert store.list_games() == []
    with store.engine.begin() as conn:
        conn.exec_driver_sql("DROP TRIGGER no_opening")
    session = sessions.start(store, "werewolf", players=7, seed=1, options={}, plan=SCRIPTED)
    assert [g.id for g in store.list_games()] == [session.game_id]
    assert store.event_count(session.game_id) == len(session.game.events) > 0
    sessions.rebuild(store, session.game_id)  # a whole start replays
