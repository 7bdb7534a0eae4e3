"""Resume continues exactly: in-process, and after a real kill -9 of the CLI."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from parlour.runtime import session as sessions
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, db_url

SCRIPTED = SeatPlan(default="scripted", system_default="scripted", overrides={})


def _events(store: Store, gid: str) -> list[str]:
    return [e.model_dump_json() for e in store.events(gid)]


def test_resume_in_process_matches_an_uninterrupted_game(tmp_path: Path) -> None:
    one = Store(db_url(str(tmp_path / "one.sqlite")))
    whole = sessions.start(one, "werewolf", players=9, seed=11, options={}, plan=SCRIPTED)
    asyncio.run(whole.run())

    two = Store(db_url(str(tmp_path / "two.sqlite")))
    part = sessions.start(two, "werewolf", players=9, seed=11, options={}, plan=SCRIPTED)
    assert asyncio.run(part.run(max_batches=25)) is None
    # A new store object on the same file: nothing but the database carries over.
    again = Store(db_url(str(tmp_path / "two.sqlite")))
    resumed = sessions.resume(again, part.game_id)
    asyncio.run(resumed.run())

    assert _events(two, part.game_id) == _events(one, whole.game_id)
    assert again.get_game(part.game_id).status == "finished"


def _count(db: Path, table: str) -> int:
    try:
        with sqlite3.connect(db) as conn:
            return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def test_kill_9_then_resume_gives_the_same_final_log(tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "200"}
    base = [sys.executable, "-m", "parlour"]
    game = ["werewolf", "--players", "9", "--seed", "7", "--model", "scripted", "--quiet"]

    whole_db = tmp_path / "whole.sqlite"
    subprocess.run(
        [*base, "watch", *game, "--db", str(whole_db)],
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )

    killed_db = tmp_path / "killed.sqlite"
    proc = subprocess.Popen(
        [*base, "watch", *game, "--pace", "0.02", "--db", str(killed_db)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while _count(killed_db, "actions") < 40 and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    applied = _count(killed_db, "actions")
    assert applied >= 40, "the game did not get going before the kill"

    with sqlite3.connect(killed_db) as conn:
        gid, status = conn.execute("SELECT id, status FROM games").fetchone()
    assert status == "running", "the kill came too late: the game had already finished"
    out = subprocess.run(
        [*base, "resume", gid, "--quiet", "--db", str(killed_db)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr

    def final_log(db: Path) -> list[tuple[object, ...]]:
        with sqlite3.connect(db) as conn:
            return conn.execute(
                "SELECT seq, kind, phase, audience, speaker, text, data FROM events ORDER BY seq"
            ).fetchall()

    assert final_log(killed_db) == final_log(whole_db)
    with sqlite3.connect(killed_db) as conn:
        (result,) = conn.execute("SELECT result FROM games").fetchone()
    assert json.loads(result)["winners"]
