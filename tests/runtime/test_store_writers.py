"""Many writers on one database: 4 ``parlour watch`` processes at once, on one SQLite file
(WAL) and on a PostgreSQL server this test starts from the ``initdb``/``postgres``
binaries (skipped, with the reason, where they are not installed).

Every game must finish, replay from its stored actions to exactly its stored events, and
equal the same game played alone: no action lost or mixed between games.
"""

from __future__ import annotations

import asyncio
import glob
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlour.runtime import session as sessions
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, db_url

SCRIPTED = SeatPlan(default="scripted", system_default="scripted", overrides={})

#: Four different games (name, players, seed, options), written at once.
GAMES: list[tuple[str, int | None, int, dict[str, Any]]] = [
    ("werewolf", 12, 1, {}),
    ("werewolf", 9, 2, {"maniac": True}),
    ("diplomacy", None, 3, {"end_year": 1902, "press_rounds": 1}),
    ("escape", None, 4, {"scripted_player": "explorer"}),
]


def _argv(name: str, players: int | None, seed: int, options: dict[str, Any]) -> list[str]:
    args = [sys.executable, "-m", "parlour", "watch", name, "--model", "scripted"]
    args += ["--seed", str(seed), "--quiet"]
    if players:
        args += ["--players", str(players)]
    for key, value in options.items():
        args += ["--set", f"{key}={str(value).lower() if isinstance(value, bool) else value}"]
    return args


def _write_at_once(url: str) -> None:
    env = {**os.environ, "COLUMNS": "200"}
    procs = [
        subprocess.Popen(
            [*_argv(*game), "--db", url],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for game in GAMES
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        assert "saved as" in out


def _check_every_game(url: str, tmp_path: Path) -> None:
    store = Store(url)
    rows = {(r.game, r.seed): r for r in store.list_games()}
    assert len(rows) == len(GAMES)
    for name, players, seed, options in GAMES:
        row = rows[(name, seed)]
        assert row.status == "finished"
        _, game, n_actions = sessions.rebuild(store, row.id)  # stored events == replay
        alone = Store(db_url(str(tmp_path / f"alone-{name}-{seed}.sqlite")))
        solo = sessions.start(
            alone, name, players=players, seed=seed, options=options, plan=SCRIPTED
        )
        asyncio.run(solo.run())
        assert n_actions == len(alone.actions(solo.game_id)) > 10
        assert [a.action for a in store.actions(row.id)] == [
            a.action for a in alone.actions(solo.game_id)
        ]
        dump = [e.model_dump_json(exclude={"to"}) for e in store.events(row.id)]
        assert dump == [e.model_dump_json(exclude={"to"}) for e in alone.events(solo.game_id)]
        assert len(game.events) == len(dump)
    store.close()


def test_four_processes_write_one_sqlite_file(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite"
    _write_at_once(str(db))
    _check_every_game(db_url(str(db)), tmp_path)


# -- PostgreSQL ----------------------------------------------------------------------------


def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    initdb = found[-1] if found else shutil.which("initdb")
    if initdb is None:
        return None
    folder = Path(initdb).resolve().parent
    return folder if (folder / "postgres").exists() else None


def _server_user() -> dict[str, Any]:
    """postgres refuses to run as root: then its processes run as ``nobody``."""
    if os.geteuid() != 0:
        return {}
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("running as root and there is no 'nobody' user to run postgres as")

    def drop() -> None:
        os.setgid(nobody.pw_gid)
        os.setuid(nobody.pw_uid)

    return {"preexec_fn": drop}


#: A socket in a private folder only (no TCP port to collide with), no fsync: a test server.
SERVER_OPTIONS = ("-c", "listen_addresses=", "-c", "fsync=off", "-c", "max_connections=50")


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    binaries = _postgres_bin()
    if binaries is None:
        pytest.skip("PostgreSQL server binaries (initdb, postgres) are not installed")
    pytest.importorskip("psycopg", reason="the psycopg driver is not installed")
    # Not under pytest's tmp_path: its root folder is private to the current user.
    home = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
    data = home / "data"
    if os.geteuid() == 0:
        shutil.chown(home, "nobody")
    as_user = _server_user()
    subprocess.run(
        [str(binaries / "initdb"), "-D", str(data), "-U", "parlour", "-A", "trust", "--no-sync"],
        check=True,
        capture_output=True,
        timeout=120,
        **as_user,
    )
    server = subprocess.Popen(
        [str(binaries / "postgres"), "-D", str(data), "-k", str(home), *SERVER_OPTIONS],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        **as_user,
    )
    url = f"postgresql+psycopg://parlour@/postgres?host={home}"
    try:
        deadline = time.monotonic() + 60
        while not (home / ".s.PGSQL.5432").exists():
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            assert time.monotonic() < deadline, "postgres did not start in 60 s"
            time.sleep(0.2)
        time.sleep(0.5)  # the socket appears just before the server accepts connections
        yield url
    finally:
        server.send_signal(signal.SIGINT)  # fast shutdown: disconnects clients, then exits
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)
        shutil.rmtree(home, ignore_errors=True)


def test_four_processes_write_one_postgresql_database(postgres_url: str, tmp_path: Path) -> None:
    _write_at_once(postgres_url)  # four starts at once on an empty database: the migration lock
    _check_every_game(postgres_url, tmp_path)
    store = Store(postgres_url)
    gid = store.list_games()[0].id
    assert store.spectator_events(gid, "public")
    store.close()
