"""The command line's smaller holes from issue 34, each through the real ``parlour`` command
(in this process, through the same ``main()``; the killed game is a real process).

A seed out of range, a ``--db`` in a folder that does not exist, read-only commands given an
empty or foreign file, and a game whose process was killed: each is one line (exit 2) and
leaves the file system as it found it, or, for the killed game, says ``running (stale)``
and still resumes.
"""

from __future__ import annotations

import hashlib
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parlour.core.rng import SEED_MAX, SEED_MIN, seed_problem
from parlour.runtime.store import Store, db_url
from tests.conftest import CliRunner
from tests.support.cli import run_parlour

ROOT = Path(__file__).resolve().parents[2]


def _one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.mark.parametrize("seed", ["99999999999999999999999999", "-1", str(SEED_MAX + 1)])
def test_a_seed_out_of_range_names_the_range(cli_here: CliRunner, db_path: Path, seed: str) -> None:
    done = cli_here("watch", "werewolf", "--model", "scripted", "--seed", seed, "--quiet")
    line = _one_error_line(done)
    assert f"from {SEED_MIN} to {SEED_MAX:,}" in line and seed in line
    assert not db_path.exists()  # refused before anything is opened


def test_the_seed_bounds_are_the_store_s_and_shared() -> None:
    assert seed_problem(SEED_MAX) is None and seed_problem(SEED_MIN) is None
    assert seed_problem(SEED_MAX + 1, "seed") == (
        f"seed must be a whole number from 0 to {SEED_MAX:,}, got {SEED_MAX + 1}"
    )


def test_the_largest_seed_is_stored(cli_here: CliRunner, store: Store) -> None:
    done = cli_here("watch", "escape", "--model", "scripted", "--seed", str(SEED_MAX), "--quiet")
    assert done.returncode == 0, done.stderr
    assert [row.seed for row in store.list_games()] == [SEED_MAX]


def test_db_in_a_missing_folder_is_one_line_and_creates_nothing(
    cli_here: CliRunner, tmp_path: Path
) -> None:
    target = tmp_path / "no" / "such" / "x.db"
    for command in (["watch", "werewolf", "--model", "scripted"], ["list"], ["show", "x"]):
        line = _one_error_line(cli_here(*command, "--db", str(target)))
        assert str(target.parent) in line
    assert not (tmp_path / "no").exists()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


FOREIGN = {
    "empty": b"",
    "text": b"title: not a database\n",
    "sqlite_without_parlour": None,  # made below with the sqlite3 module
    "sqlite_without_tables": None,
}


@pytest.mark.parametrize("kind", list(FOREIGN))
@pytest.mark.parametrize(
    "command",
    [["show", "we-1"], ["audit", "we-1"], ["export", "we-1"], ["cost", "we-1"], ["list"]],
    ids=lambda c: c[0],
)
def test_read_only_commands_leave_foreign_files_byte_identical(
    cli_here: CliRunner, tmp_path: Path, kind: str, command: list[str]
) -> None:
    path = tmp_path / "file.db"
    data = FOREIGN[kind]
    if data is None:
        import sqlite3

        conn = sqlite3.connect(path)
        if kind == "sqlite_without_tables":
            conn.execute("PRAGMA user_version = 3")  # a valid file: one page, no table
        else:
            conn.execute("CREATE TABLE notes (body TEXT)")
        conn.commit()
        conn.close()
    else:
        path.write_bytes(data)
    before = _digest(path), sorted(p.name for p in tmp_path.iterdir())
    line = _one_error_line(cli_here(*command, "--db", str(path)))
    assert str(path) in line and ("not a parlour" in line or "notes" in line)
    assert (_digest(path), sorted(p.name for p in tmp_path.iterdir())) == before


def _status(db_path: Path) -> str:
    done = run_parlour("list", "--db", str(db_path), timeout=120, check=True)
    rows = [line for line in done.stdout.splitlines() if "we-" in line]
    assert len(rows) == 1, done.stdout
    return rows[0].split("│")[4].strip()


@pytest.mark.slow  # kill -9 of a real process, then waits for its lease to lapse
def test_a_killed_game_shows_stale_and_resumes(cli: CliRunner, db_path: Path) -> None:
    command = ["watch", "werewolf", "--model", "scripted", "--seed", "3", "--pace", "1"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour", *command, "--quiet", "--db", str(db_path)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not (db_path.exists() and "we-" in cli("list").stdout):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.5)
        assert _status(db_path) == "running"  # its process holds the lease
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 90  # the lease lapses 30 s after its last renewal
        while _status(db_path) != "running (stale)":
            assert time.monotonic() < deadline, "the killed game never showed as stale"
            time.sleep(2)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    game_id = Store(db_url(str(db_path))).list_games()[0].id
    done = cli("resume", game_id, timeout=300)
    assert done.returncode == 0, done.stderr
    assert _status(db_path) == "finished"
