"""Broken, foreign and unreachable databases (issue 10, F4): through the ``parlour`` command.

Each case prints one line naming the cause and the fix, exits non-zero and leaves every
file as it was (same bytes, no new files beside it or in the working directory).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from parlour.runtime import session as sessions
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, db_url
from tests.support.cli import run_parlour_here

SCRIPTED = SeatPlan(default="scripted", system_default="scripted", overrides={})


def _parlour(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``parlour ARGS`` in this process (the same ``main()`` as the command), from ``cwd``."""
    return run_parlour_here(*args, db=cwd / "default.sqlite", cwd=cwd, timeout=120)


def _one_line_error(out: subprocess.CompletedProcess[str], *says: str) -> str:
    assert out.returncode != 0, out.stdout
    lines = [line for line in (out.stderr + out.stdout).splitlines() if line.strip()]
    assert len(lines) == 1, out.stderr + out.stdout
    for words in says:
        assert words in lines[0], lines[0]
    return lines[0]


def _snapshot(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _parlour_db(path: Path) -> str:
    """A real parlour database with one unfinished werewolf game, checkpointed into one
    file (so damage to the file is damage to the data)."""
    store = Store(db_url(str(path)))
    session = sessions.start(store, "werewolf", players=7, seed=2, options={}, plan=SCRIPTED)
    asyncio.run(session.run(max_batches=20))
    store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode=DELETE")
    return session.game_id


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "dbs"
    path.mkdir()
    return path


def test_random_bytes_file(folder: Path) -> None:
    db = folder / "noise.sqlite"
    db.write_bytes(os.urandom(20_000))
    before = _snapshot(folder)
    for args in (["list"], ["show", "we-0"], ["watch", "werewolf", "--model", "scripted"]):
        out = _parlour(folder, *args, "--db", str(db))
        _one_line_error(out, "is not a SQLite database", "--db")
    assert _snapshot(folder) == before


def test_truncated_database(folder: Path) -> None:
    db = folder / "cut.sqlite"
    gid = _parlour_db(db)
    db.write_bytes(db.read_bytes()[: db.stat().st_size // 2])
    before = _snapshot(folder)
    for args in (["list"], ["show", gid], ["resume", gid]):
        _one_line_error(_parlour(folder, *args, "--db", str(db)), "damaged", ".recover")
    assert _snapshot(folder) == before


def test_trashed_pages_list_still_works_and_the_rest_says_damaged(folder: Path) -> None:
    db = folder / "trashed.sqlite"
    gid = _parlour_db(db)
    with sqlite3.connect(db) as conn:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name='events'").fetchone()
    with db.open("r+b") as f:  # the events table's root page becomes noise
        f.seek((root[0] - 1) * page)
        f.write(os.urandom(page))
    before = _snapshot(folder)
    listed = _parlour(folder, "list", "--db", str(db))
    assert listed.returncode == 0 and gid in listed.stdout, listed.stderr
    for args in (
        ["show", gid],
        ["show", gid, "--as", "p1"],
        ["resume", gid],
        ["watch", "werewolf", "--model", "scripted", "--quiet"],
    ):
        _one_line_error(_parlour(folder, *args, "--db", str(db)), "damaged", "backup")
    assert _snapshot(folder) == before


def test_read_only_uri_reads_but_refuses_to_write(folder: Path) -> None:
    db = folder / "ro.sqlite"
    gid = _parlour_db(db)
    uri = f"sqlite:///file:{db}?mode=ro&uri=true"
    before = _snapshot(folder)
    listed = _parlour(folder, "list", "--db", uri)
    assert listed.returncode == 0 and gid in listed.stdout, listed.stderr
    shown = _parlour(folder, "show", gid, "--db", uri)
    assert shown.returncode == 0, shown.stderr
    out = _parlour(folder, "watch", "werewolf", "--model", "scripted", "--quiet", "--db", uri)
    _one_line_error(out, "read-only", "writable")
    _one_line_error(_parlour(folder, "resume", gid, "--db", uri), "read-only")
    # Nothing written, and no stray "file:" folder made from the URI in the working dir.
    assert _snapshot(folder) == before
    assert sorted(p.name for p in folder.iterdir()) == ["ro.sqlite"]


def test_unknown_scheme_and_unreachable_postgresql(folder: Path) -> None:
    _one_line_error(_parlour(folder, "list", "--db", "nosuch://x"), "unknown database URL scheme")
    out = _parlour(folder, "list", "--db", "postgresql://parlour:secret@127.0.0.1:1/parlour")
    line = _one_line_error(out, "cannot connect", "127.0.0.1", "start the server")
    assert "secret" not in line
    assert list(folder.iterdir()) == []


def test_show_to_a_missing_folder(folder: Path) -> None:
    db = folder / "ok.sqlite"
    gid = _parlour_db(db)
    before = _snapshot(folder)
    target = folder / "missing" / "dir" / "x.html"
    _one_line_error(
        _parlour(folder, "show", gid, "-o", str(target), "--db", str(db)), "no folder", "create"
    )
    assert _snapshot(folder) == before and not (folder / "missing").exists()


def test_another_programs_sqlite_file_is_refused_untouched(folder: Path) -> None:
    db = folder / "notes.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        conn.execute("INSERT INTO notes VALUES (1, 'keep me')")
    before = _snapshot(folder)
    for args in (["list"], ["watch", "werewolf", "--model", "scripted", "--quiet"]):
        _one_line_error(_parlour(folder, *args, "--db", str(db)), "not a parlour database", "notes")
    assert _snapshot(folder) == before
    with sqlite3.connect(db) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    assert tables == ["notes"]


def test_a_new_empty_file_becomes_a_parlour_database(folder: Path) -> None:
    db = folder / "empty.sqlite"
    db.touch()
    out = _parlour(folder, "watch", "werewolf", "--model", "scripted", "--quiet", "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert "Game over" in out.stdout
