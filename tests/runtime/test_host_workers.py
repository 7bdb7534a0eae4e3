"""Leases and worker processes: on SQLite files and on a throwaway PostgreSQL server.

The kill test is the promise of hosting: two worker processes over one PostgreSQL
database, the one running a game is killed with SIGKILL mid-game, the other claims the
game once its lease expires and finishes it, and the event log is the one the same
seed gives when played whole in one process.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from parlour.runtime.host import GameHost
from parlour.runtime.store import Store, db_url, schema
from tests.support.postgres import postgres_server, postgres_url  # noqa: F401
from tests.support.processes import stop

ROOT = Path(__file__).resolve().parents[2]


# PostgreSQL's case starts a server (tests/support/postgres.py): ``slow``, like every test
# that does (tests/conftest.py marks those that name the fixture).
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return db_url(str(tmp_path / "leases.sqlite"))
    return str(request.getfixturevalue("postgres_url"))


def _hosted(store: Store) -> str:
    host = GameHost(store, "creator")
    return host.create("werewolf", players=6, seed=2, seats={}, overrides={})


def test_a_lease_is_claimed_once_renewed_by_its_holder_and_taken_after_expiry(url: str) -> None:
    store = Store(url)
    gid = _hosted(store)
    a = store.leases.holder("a", 0.6)
    b = store.leases.holder("b", 0.6)
    assert a.claimable(10) == [gid]
    assert a.claim(gid) is True
    assert b.claim(gid) is False  # held and not expired
    assert b.claimable(10) == []
    assert b.renew([gid]) == {gid}  # b never held it
    time.sleep(0.35)
    assert a.renew([gid]) == set()  # a still holds it: extended
    time.sleep(0.35)
    assert b.claim(gid) is False  # 0.7 s after the claim, but renewed at 0.35 s
    time.sleep(0.4)
    assert b.claim(gid) is True  # a stopped renewing: expired, b takes it
    assert a.renew([gid]) == {gid}  # a learns it lost the game
    lease = a.get(gid)
    assert lease is not None and (lease.worker, lease.claims) == ("b", 2)
    a.release(gid)  # not the holder: changes nothing
    assert b.get(gid) == lease
    b.release(gid)
    assert a.claim(gid) is True  # released: free at once, no waiting for expiry
    now = store.leases.now()
    assert abs(now - time.time()) < 5  # the database clock is unix seconds
    lease = a.get(gid)
    assert lease is not None and lease.expires_at == pytest.approx(now + 0.6, abs=0.5)


_CLAIM = """
import sys, time
from parlour.runtime.store import Store
store = Store(sys.argv[1])
leases = store.leases.holder(sys.argv[2], 30.0)
while time.time() < float(sys.argv[4]):
    time.sleep(0.001)
print("won" if leases.claim(sys.argv[3]) else "lost")
"""


@pytest.mark.slow  # processes racing for one lease
def test_processes_claiming_one_game_at_once_one_wins(url: str) -> None:
    store = Store(url)
    gid = _hosted(store)
    start = time.time() + 3.0  # all processes are up by then; they claim together
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _CLAIM, url, f"w{i}", gid, str(start)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for i in range(4)
    ]
    outs = [p.communicate(timeout=120)[0].strip() for p in procs]
    assert sorted(outs) == ["lost", "lost", "lost", "won"]
    lease = store.leases.get(gid)
    assert lease is not None and lease.claims == 1
    assert lease.worker == f"w{outs.index('won')}"


# -- worker processes over PostgreSQL ---------------------------------------------------


def _worker(db: str, name: str, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "parlour.runtime.worker",
            "--db",
            db,
            "--worker",
            name,
            "--lease",
            "2",
            "--poll",
            "0.1",
            "--pace",
            "0.03",
        ],
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


@pytest.fixture
def workers(postgres_url: str, tmp_path: Path) -> Iterator[dict[str, subprocess.Popen[bytes]]]:  # noqa: F811
    procs = {name: _worker(postgres_url, name, tmp_path / f"{name}.log") for name in ("w1", "w2")}
    try:
        yield procs
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                stop(proc)


def _whole_in_one_process(tmp_path: Path, seed: int) -> list[object]:
    store = Store(db_url(str(tmp_path / "whole.sqlite")))
    host = GameHost(store, "solo")
    gid = host.create("werewolf", players=7, seed=seed, seats={}, overrides={})

    async def run() -> None:
        stop = asyncio.Event()
        serving = asyncio.create_task(host.serve(stop))
        while store.get_game(gid).status == "running":
            await asyncio.sleep(0.05)
        stop.set()
        await serving

    asyncio.run(asyncio.wait_for(run(), 120))
    assert store.get_game(gid).status == "finished"
    return list(store.events(gid))


def test_a_killed_worker_s_game_is_finished_by_the_other_with_the_same_log(
    postgres_url: str,  # noqa: F811
    workers: dict[str, subprocess.Popen[bytes]],
    tmp_path: Path,
) -> None:
    seed = 11
    store = Store(postgres_url)
    gid = GameHost(store, "creator").create(
        "werewolf", players=7, seed=seed, seats={}, overrides={}
    )
    leases = store.leases.holder("test", 2)
    deadline = time.monotonic() + 120
    while len(store.actions(gid)) < 12:  # mid-game: the workers are up and one runs it
        assert store.get_game(gid).status == "running", "finished before the kill"
        assert time.monotonic() < deadline, "no worker ran the game"
        time.sleep(0.05)
    first = leases.get(gid)
    assert first is not None and first.worker in workers
    workers[first.worker].send_signal(signal.SIGKILL)
    workers[first.worker].wait(timeout=30)
    killed_at = len(store.actions(gid))
    assert store.get_game(gid).status == "running"
    while store.get_game(gid).status == "running":
        assert time.monotonic() < deadline, "the other worker did not finish the game"
        time.sleep(0.1)
    row = store.get_game(gid)
    assert row.status == "finished" and row.result is not None
    assert len(store.actions(gid)) > killed_at  # the survivor played the rest
    survivor = next(n for n in workers if n != first.worker)
    log = tmp_path / f"{survivor}.log"
    while f"finished {gid}" not in log.read_text():  # reaped at its next tick
        assert time.monotonic() < deadline, "the survivor never released the game"
        time.sleep(0.05)
    assert f"running {gid} from action {killed_at}" in log.read_text()
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(schema.leases)).all() == []  # released when done
    assert list(store.events(gid)) == _whole_in_one_process(tmp_path, seed)
