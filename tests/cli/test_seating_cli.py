"""Who plays, from the command line: replays take their recording, chaos wraps any seat."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import CliRunner

FIXTURES = Path(__file__).parents[1] / "fixtures"
RECORDED = json.loads((FIXTURES / "werewolf_local.json").read_text())
GID = RECORDED["game_id"]


@pytest.fixture
def recorded_db(db_path: Path) -> Path:
    shutil.copy(FIXTURES / "werewolf_local.sqlite", db_path)
    return db_path


def _games(db: Path) -> int:
    return int(sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0])


def test_replay_takes_the_recorded_seed_and_settings(
    cli_here: CliRunner, recorded_db: Path
) -> None:
    out = cli_here("watch", "werewolf", "--model", f"replay:{GID}", timeout=180)
    assert out.returncode == 0, out.stderr
    assert f"seed {RECORDED['seed']} (recorded in {GID})" in out.stdout
    assert "warning" not in out.stderr
    conn = sqlite3.connect(recorded_db)
    new = conn.execute("SELECT id FROM games WHERE id != ?", (GID,)).fetchone()[0]

    def log(gid: str) -> list[tuple[object, ...]]:
        return conn.execute(
            "SELECT seq, kind, text, data FROM events WHERE game_id = ? ORDER BY seq", (gid,)
        ).fetchall()

    assert log(new) == log(GID)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--seed", "3"], f"--seed 3 contradicts replay:{GID}, recorded with seed 11"),
        (["--players", "9"], "--players contradicts"),
        (["--set", "vote_mode=simultaneous"], "--set vote_mode contradicts"),
    ],
)
def test_replay_refuses_contradicting_options_in_one_line(
    cli_here: CliRunner, recorded_db: Path, args: list[str], says: str
) -> None:
    out = cli_here("watch", "werewolf", "--model", f"replay:{GID}", *args, timeout=120)
    assert out.returncode == 2
    lines = [line for line in (out.stderr + out.stdout).splitlines() if line.strip()]
    assert len(lines) == 1 and says in lines[0], lines
    assert _games(recorded_db) == 1  # nothing stored


def test_replay_warns_once_when_the_recording_stops_matching(
    cli_here: CliRunner, recorded_db: Path
) -> None:
    # A person takes Kenji's seat over (scripted here): the story leaves the recording.
    out = cli_here(
        "watch", "werewolf", "--model", f"replay:{GID}", "--seat", "p1=scripted", timeout=180
    )
    assert out.returncode == 0, out.stderr
    warnings = [line for line in out.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "the recording stops matching" in warnings[0], out.stderr


def test_chaos_wraps_a_scripted_seat_from_the_command_line(
    cli_here: CliRunner, db_path: Path
) -> None:
    for seed in ("1", "2"):
        out = cli_here(
            "watch", "werewolf", "--model", "chaos(rate=0.3):scripted", "--seed", seed, "--quiet"
        )
        assert out.returncode == 0, out.stderr
    conn = sqlite3.connect(db_path)
    games = [g for (g,) in conn.execute("SELECT id FROM games ORDER BY created_at")]
    by = [
        [b for (b,) in conn.execute("SELECT by FROM actions WHERE game_id = ? ORDER BY idx", (g,))]
        for g in games
    ]
    assert all({"fallback", "scripted"} <= set(b) for b in by)
    seats = json.loads(conn.execute("SELECT seats FROM games").fetchone()[0])
    assert seats["p1"] == "chaos(rate=0.3):scripted"


def test_bad_seat_spec_names_the_valid_forms(cli_here: CliRunner) -> None:
    out = cli_here("watch", "werewolf", "--seat", "2=chaos(rate=0.3)", "--model", "scripted")
    assert out.returncode == 2
    assert "chaos wraps another spec" in out.stderr and "valid forms:" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
