"""``parlour serve --workers N``: workers live and die with their server.

The supervisor is tested with real processes (a worker that dies at once, one killed with
SIGKILL); the server itself runs as a subprocess over a throwaway PostgreSQL with two
workers: a worker killed with SIGKILL is started again (with a line saying so) and SIGTERM
to the main process alone stops every worker and releases the lease of the game it hosted.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing import get_context
from multiprocessing.process import BaseProcess
from pathlib import Path

import httpx

from parlour.cli.serve_workers import Supervisor
from parlour.runtime.host import GameHost
from parlour.runtime.seating import HumanSpec
from parlour.runtime.store import Store
from tests.support.postgres import postgres_server, postgres_url  # noqa: F401
from tests.web.browser import free_port

ROOT = Path(__file__).resolve().parents[2]


def _exit_at_once() -> None:
    sys.exit(3)


def _sleep() -> None:
    time.sleep(600)


def _starter(target: Callable[[], None]) -> Callable[[str], BaseProcess]:
    def start(name: str) -> BaseProcess:
        process = get_context("spawn").Process(target=target, name=name, daemon=True)
        process.start()
        return process

    return start


def _wait(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_a_worker_that_keeps_dying_is_given_up_loudly() -> None:
    said: list[str] = []
    supervisor = Supervisor(
        _starter(_exit_at_once), ["web-1"], say=said.append, poll=0.1, stop_seconds=5
    )
    assert supervisor.run(threading.Event()) == 1  # no worker left: the server stops
    restarts = [line for line in said if line.endswith("; starting it again")]
    assert len(restarts) == 2 and "exit code 3" in restarts[0]
    short = [line for line in said if "RUNS SHORT" in line]
    assert len(short) == 1 and "0 of 1 workers running" in short[0], said


def test_a_killed_worker_is_started_again_and_stop_ends_them_all() -> None:
    said: list[str] = []
    stop = threading.Event()
    supervisor = Supervisor(_starter(_sleep), ["web-1", "web-2"], say=said.append, poll=0.1)
    runner = threading.Thread(target=supervisor.run, args=(stop,))
    runner.start()
    try:
        _wait(lambda: len(supervisor.slots) == 2, 30, "workers did not start")
        first = supervisor.slots[0].process
        assert first.pid is not None
        os.kill(first.pid, signal.SIGKILL)
        _wait(lambda: any("runs again" in line for line in said), 30, f"no restart: {said}")
        assert any("web-1" in line and "killed by SIGKILL" in line for line in said), said
        assert supervisor.slots[0].process is not first and supervisor.running() == 2
    finally:
        stop.set()
        runner.join(60)
    assert not runner.is_alive()
    assert all(slot.process.exitcode is not None for slot in supervisor.slots)


# -- the real server ---------------------------------------------------------------------


def _worker(base: str) -> str:
    with httpx.Client(base_url=base, timeout=10) as c:
        return c.get("/").headers["x-parlour-worker"]


def _pid(worker: str) -> int:
    return int(worker.rsplit(":", 1)[1])


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return bool(re.search(r"^State:\s+Z", state, re.M))  # a zombie has stopped


def _workers_seen(base: str, proc: subprocess.Popen[bytes], log: Path, n: int) -> set[str]:
    seen: set[str] = set()
    deadline = time.monotonic() + 120
    while len(seen) < n:
        assert proc.poll() is None, log.read_text()
        assert time.monotonic() < deadline, f"workers did not answer: {log.read_text()}"
        try:
            seen.add(_worker(base))
        except httpx.TransportError:
            time.sleep(0.3)
    return seen


def test_serve_restarts_a_killed_worker_and_sigterm_stops_all_and_releases_leases(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    store = Store(postgres_url)
    # A long game nobody plays: a worker holds its lease while it waits for a person.

    game_id = GameHost(store, worker="creator").create(
        "werewolf", players=6, seed=1, seats={"p1": HumanSpec()}, overrides={}
    )
    port = free_port()
    log = tmp_path / "serve.log"
    command = ["serve", "--workers", "2", "--port", str(port), "--page-workers", "0"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour", *command, "--db", postgres_url],
        cwd=ROOT,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    pids: set[int] = set()
    try:
        first = {_pid(w) for w in _workers_seen(base, proc, log, 2)}
        pids |= first
        _wait(lambda: (store.leases.get(game_id) or _NoLease).worker is not None, 60, "no claim")
        victim = sorted(first)[0]
        os.kill(victim, signal.SIGKILL)
        _wait(lambda: "runs again as pid" in log.read_text(), 60, log.read_text())
        assert re.search(r"worker web-\d \(pid \d+\) died \(killed by SIGKILL\)", log.read_text())
        again = {_pid(w) for w in _workers_seen(base, proc, log, 2)}
        pids |= again
        assert victim not in again and len(again) == 2

        # A live worker holds it again: the killed one's lease lapses and is taken over
        # (if the killed worker held it), or the other worker held it all along.
        def live_lease() -> bool:
            worker = (store.leases.get(game_id) or _NoLease).worker
            return worker is not None and not worker.endswith(f":{victim}")

        _wait(live_lease, 120, "no live lease")

        proc.send_signal(signal.SIGTERM)  # the main process only, not its group
        assert proc.wait(timeout=90) == 0, log.read_text()
        _wait(lambda: all(_gone(p) for p in pids), 30, f"workers left running: {pids}")
        lease = store.leases.get(game_id)
        assert lease is not None and lease.worker is None, lease  # released, not lapsed
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        for pid in pids:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)
        store.close()


class _NoLease:
    worker = None
