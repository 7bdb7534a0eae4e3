"""The same game in two processes with different hash seeds gives the same event log.

Python salts ``hash`` per process, so iterating a set of strings can differ between a
game and its resume. Every game must be immune to that.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

#: ``slow`` (not in the fast part): one process per hash seed.
pytestmark = pytest.mark.slow

GAMES = {
    "werewolf": ["--players", "9", "--set", "maniac=true", "--set", "debrief=true"],
    "escape": ["--set", "scripted_player=explorer"],
    "diplomacy": ["--set", "end_year=1902", "--set", "press_rounds=1"],
}


def _log(db: Path, game: str, extra: list[str], hash_seed: str) -> list[tuple[object, ...]]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "COLUMNS": "200"}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "parlour",
            "watch",
            game,
            "--model",
            "scripted",
            "--seed",
            "3",
            "--quiet",
            "--db",
            str(db),
            *extra,
        ],
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT seq, kind, phase, audience, speaker, text, data FROM events ORDER BY seq"
        ).fetchall()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_event_logs_do_not_depend_on_the_hash_seed(game: str, tmp_path: Path) -> None:
    one = _log(tmp_path / "one.sqlite", game, GAMES[game], "1")
    two = _log(tmp_path / "two.sqlite", game, GAMES[game], "2")
    assert len(one) > 10
    assert one == two
