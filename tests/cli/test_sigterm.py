"""SIGTERM to a running `parlour watch` pauses the game (not left "running") and `parlour
resume` finishes it: the generic CLI path, shown with a scripted missing game."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path


def _status(db: Path) -> list[tuple[str, str]]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, status FROM games").fetchall()
    finally:
        con.close()


def _events(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM events").fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        con.close()


def test_sigterm_pauses_the_game_and_resume_finishes_it(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    env = {**os.environ, "PARLOUR_DB": str(db)}
    watch = [sys.executable, "-m", "parlour", "watch", "missing", "--model", "scripted"]
    args = ["--set", "town=small_hours", "--seed", "2", "--pace", "0.05", "--quiet"]
    child = subprocess.Popen(watch + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while _events(db) < 20:  # well into the game, far from its end
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.2)
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 143, err
    assert b"terminated; everything so far is saved" in err
    [(game_id, status)] = _status(db)
    assert status == "paused"
    done = subprocess.run(
        [sys.executable, "-m", "parlour", "resume", game_id, "--quiet"],
        env=env,
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert _status(db) == [(game_id, "finished")]
