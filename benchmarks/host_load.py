"""Hosting load: many concurrent scripted games in worker processes, on SQLite and PostgreSQL.

For each setup the script stores ``--games`` scripted werewolf games (``GameHost.create``,
seeds 1..N), starts the worker processes (this script with ``--as-worker``: a
``GameHost`` whose store times every action commit), waits until every game is
finished and reports:

* games/s and actions/s, from the moment every worker is up to the last game's end;
* commit latency p50/p99: the time of each ``Store.record_actions`` call (one batch's
  actions and events written and committed), measured inside the workers;
* the ratio of games/s to the baseline measured in the same run: one worker on SQLite
  running one game at a time (``--capacity 1``).

Setups: SQLite baseline (1 worker, capacity 1), SQLite with 1 worker, PostgreSQL (a
throwaway server, see tests/support/postgres.py) with 1 and with 2 workers.

    uv run python benchmarks/host_load.py                 # 50 games, all setups
    uv run python benchmarks/host_load.py --games 5 --no-postgres
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._common import percentile  # noqa: E402
from parlour.runtime.host import GameHost  # noqa: E402
from parlour.runtime.store import ActionWrite, Store, db_url  # noqa: E402


def _as_worker(db: str, name: str, capacity: int, out: Path) -> int:
    """One worker process whose store times every commit; writes them to ``out`` at exit."""
    store = Store(db)
    commits: list[float] = []
    actions = 0
    record = store.record_actions

    def timed(game_id: str, writes: Sequence[ActionWrite]) -> None:
        nonlocal actions
        started = time.perf_counter()
        record(game_id, writes)
        commits.append(time.perf_counter() - started)
        actions += len(writes)

    store.record_actions = timed  # type: ignore[method-assign]
    host = GameHost(store, name, lease_seconds=10, capacity=capacity, poll=0.1)

    async def serve() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        print("serving", flush=True)
        await host.serve(stop)

    asyncio.run(serve())
    out.write_text(json.dumps({"commits": commits, "actions": actions}))
    return 0


@dataclass(frozen=True)
class Figures:
    setup: str
    games: int
    seconds: float
    actions: int
    commit_p50_ms: float
    commit_p99_ms: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds


def _run(setup: str, db: str, games: int, workers: int, capacity: int, folder: Path) -> Figures:
    store = Store(db)
    creator = GameHost(store, "creator")
    ids = [
        creator.create("werewolf", players=7, seed=seed, seats={}, overrides={})
        for seed in range(1, games + 1)
    ]
    procs: list[tuple[subprocess.Popen[str], Path]] = []
    for i in range(workers):
        out = folder / f"{setup}-w{i}.json"
        cmd = [sys.executable, __file__, "--as-worker", "--db", db, "--worker", f"w{i}"]
        cmd += ["--capacity", str(capacity), "--out", str(out)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        procs.append((proc, out))
    for proc, _ in procs:  # every worker up (imports done) before the clock starts
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if line.strip() != "serving":
            raise SystemExit(f"a worker did not start: {line!r}")
    started = time.perf_counter()
    while True:
        statuses = {row.id: row.status for row in store.list_games(limit=games + 10)}
        if all(statuses.get(gid) in ("finished", "failed") for gid in ids):
            break
        time.sleep(0.02)
    seconds = time.perf_counter() - started
    failed = [gid for gid in ids if statuses.get(gid) != "finished"]
    commits: list[float] = []
    actions = 0
    for proc, out in procs:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        data = json.loads(out.read_text())
        commits += data["commits"]
        actions += data["actions"]
    store.close()
    if failed:
        raise SystemExit(f"{setup}: {len(failed)} games failed, e.g. {failed[0]}")
    return Figures(
        setup,
        games,
        seconds,
        actions,
        1000 * percentile(commits, 0.50),
        1000 * percentile(commits, 0.99),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--no-postgres", action="store_true", help="SQLite setups only")
    parser.add_argument("--as-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--capacity", type=int, default=200, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.as_worker:
        return _as_worker(args.db, args.worker, args.capacity, args.out)

    folder = Path(tempfile.mkdtemp(prefix="parlour-host-load-"))
    results: list[Figures] = []
    try:
        sqlite = lambda name: db_url(str(folder / f"{name}.sqlite"))  # noqa: E731
        n = args.games
        results.append(_run("sqlite-sequential", sqlite("seq"), n, 1, 1, folder))
        results.append(_run("sqlite-1-worker", sqlite("one"), n, 1, 200, folder))
        if not args.no_postgres:
            from tests.support.postgres import start_server, stop_server

            home = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
            try:
                server, proc = start_server(home)
                try:
                    one = server.create_database("one")
                    results.append(_run("postgres-1-worker", one, n, 1, 200, folder))
                    two = server.create_database("two")
                    results.append(_run("postgres-2-workers", two, n, 2, 200, folder))
                finally:
                    stop_server(proc)
            finally:
                shutil.rmtree(home, ignore_errors=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    base = results[0].games_per_s
    load = os.getloadavg()[0]
    print(f"{n} scripted 7-player werewolf games per setup; load average {load:.1f}")
    print(
        f"{'setup':<20} {'games/s':>8} {'ratio':>6} {'actions/s':>10} "
        f"{'commit p50':>11} {'commit p99':>11}"
    )
    for r in results:
        print(
            f"{r.setup:<20} {r.games_per_s:8.2f} {r.games_per_s / base:5.2f}x "
            f"{r.actions / r.seconds:10.0f} {r.commit_p50_ms:9.2f}ms {r.commit_p99_ms:9.2f}ms"
        )
    summary = {
        r.setup: {
            "games_per_s": round(r.games_per_s, 3),
            "ratio": round(r.games_per_s / base, 3),
            "actions_per_s": round(r.actions / r.seconds, 1),
            "commit_p50_ms": round(r.commit_p50_ms, 3),
            "commit_p99_ms": round(r.commit_p99_ms, 3),
        }
        for r in results
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
