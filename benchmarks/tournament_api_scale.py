"""Tournaments at API scale: games/hour against a hosted-model stand-in, by games in flight.

A local OpenAI-compatible server (``benchmarks/latency_server.py``, its own process on
127.0.0.1) answers every request validly after ``--latency`` seconds; parlour's
``openai`` backend plays every werewolf seat against it, so a game makes about as many
calls as with a hosted model and spends nearly all its time waiting. Each concurrency
level runs in a fresh child process on a fresh SQLite file (``parlour tournament
--concurrency N`` on one process); the child reports wall time, its CPU seconds, its
peak memory (max RSS) and the store's share of the wall time (every ``Store`` method
timed; the writer threads' time counts too). Then the same at the largest level under a
rate limit the server enforces with 429 + Retry-After, against that limit's ceiling.
With ``--ray`` the largest level runs again as ``--ray local`` (one async actor per CPU,
``--concurrency`` games each), Ray's start-up timed apart.

    uv run python benchmarks/tournament_api_scale.py --latency 0.5 --games 200 \\
        --levels 1,8,32,64 --games-at-1 10 --rpm 1200 --ray

Prints a markdown table for ``docs/benchmarks.md``. Results per level are also checked to
be identical (same seeds): the ``same`` column counts games whose outcome equals the
first level's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._common import free_port  # noqa: E402

ENTRANTS = ["a=openai:latency-a", "b=openai:latency-b"]


@contextlib.contextmanager
def latency_server(latency: float, rpm: float | None = None) -> Iterator[str]:
    port = free_port()
    cmd = [sys.executable, "-m", "benchmarks.latency_server", "--latency", str(latency)]
    cmd += ["--port", str(port)] + (["--rpm", str(rpm)] if rpm else [])
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        proc.stdout.readline()  # "listening on ..."
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class StoreClock:
    """Seconds spent inside ``Store`` methods (any thread), by wrapping them all."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.lock = threading.Lock()

    def install(self) -> None:
        from parlour.runtime.store import Store

        for name in dir(Store):
            if name.startswith("_"):
                continue
            attr = getattr(Store, name)
            if callable(attr) and not isinstance(attr, type):
                setattr(Store, name, self._timed(attr))

    def _timed(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        clock = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                with clock.lock:
                    clock.seconds += time.perf_counter() - started

        return timed


def child(args: argparse.Namespace) -> None:
    """One level in this process: prints one JSON line."""
    clock = StoreClock()
    clock.install()
    from parlour.runtime.store import Store, db_url
    from parlour.tournament import run as runs
    from parlour.tournament import storage

    store = Store(db_url(args.db))
    params = runs.prepare(
        store, "werewolf", ENTRANTS, games=args.games, seed=args.seed, base_url=args.base_url,
        grid={},
    )  # fmt: skip
    tid = runs.create(store, params)
    ray_start = 0.0
    if args.ray:
        from parlour.tournament import backends

        started = time.perf_counter()
        backends.ray_init("local")
        ray_start = time.perf_counter() - started
    clock.seconds = 0.0
    cpu0 = time.process_time()
    started = time.perf_counter()
    report = runs.run(store, tid, concurrency=args.concurrency, ray="local" if args.ray else None)
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu0
    games = storage.games(store, tid)
    calls = [c for g in games for c in store.calls(g.game_id or "")]
    outcomes = [g.outcome for g in games]
    steady = steady_rate(store, [g.game_id for g in games if g.game_id])
    print(
        json.dumps(
            {
                "concurrency": args.concurrency,
                "played": report.played,
                "wall_s": wall,
                "cpu_s": cpu,
                "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "store_s": clock.seconds,
                "calls": len(calls),
                "errors": sum(1 for c in calls if c.outcome == "error"),
                "fallbacks": sum(1 for c in calls if c.outcome == "fallback"),
                "failed_games": sum(1 for o in outcomes if o is None),
                "ray_start_s": ray_start,
                "steady_calls_per_s": steady,
                "outcomes": outcomes,
            }
        ),
        flush=True,
    )


def steady_rate(store: Any, game_ids: list[str]) -> float:
    """Model calls per second while every game was still running: from the first call
    stored to the first game's last call (before the games that end first leave too few
    callers to use a rate limit; the tail after that is not the limiter's)."""
    import sqlalchemy as sa

    from parlour.runtime.store import schema

    mc = schema.model_calls
    with store.db.engine.connect() as conn:
        rows = conn.execute(
            sa.select(mc.c.game_id, mc.c.created_at).where(mc.c.game_id.in_(game_ids))
        ).all()
    if not rows:
        return 0.0
    last: dict[str, float] = {}
    for gid, at in rows:
        last[gid] = max(last.get(gid, at), at)
    start, end = min(at for _, at in rows), min(last.values())
    inside = sum(1 for _, at in rows if at <= end)
    return inside / (end - start) if end > start else 0.0


def level(
    base_url: str, concurrency: int, games: int, seed: int, tmp: Path, ray: bool = False
) -> dict[str, Any]:
    db = tmp / f"c{concurrency}{'-ray' if ray else ''}-{time.monotonic_ns()}.sqlite"
    cmd = [sys.executable, __file__, "--child", "--db", str(db), "--base-url", base_url]
    cmd += ["--concurrency", str(concurrency), "--games", str(games), "--seed", str(seed)]
    cmd += ["--ray"] if ray else []
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0"}
    started = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    if out.returncode != 0:
        raise SystemExit(out.stderr[-3000:])
    data: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    data["process_s"] = time.perf_counter() - started
    return data


def progress(name: str, results: dict[str, dict[str, Any]]) -> None:
    shown = {k: v for k, v in results[name].items() if k != "outcomes"}
    print(name, json.dumps(shown), file=sys.stderr, flush=True)


def same(a: list[Any], b: list[Any]) -> int:
    from parlour.tournament.play import same_result

    return sum(1 for x, y in zip(a, b, strict=False) if x and y and same_result(x, y))


def row(name: str, d: dict[str, Any], base: float, same_n: str) -> str:
    per_hour = d["played"] / d["wall_s"] * 3600
    return (
        f"| {name} | {d['played']} | {d['wall_s']:.0f} | {per_hour:,.0f} | "
        f"{per_hour / base:.1f}× | {d['cpu_s'] / max(1, d['played']):.2f} | "
        f"{d['max_rss_mb']:.0f} | {d['store_s'] / d['wall_s']:.0%} | "
        f"{d['calls'] / max(1, d['played']):.0f} | {d['errors']}/{d['fallbacks']} | {same_n} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--games-at-1", type=int, default=10)
    parser.add_argument("--levels", default="1,8,32,64")
    parser.add_argument(
        "--games-per-level", default=None, help="games at each level, e.g. 3,32,64,128"
    )
    parser.add_argument("--rpm-games", type=int, default=None, help="games under --rpm")
    parser.add_argument("--only-rpm", action="store_true", help="only the --rpm run")
    parser.add_argument("--rpm", type=float, default=None, help="also run under this limit")
    parser.add_argument("--ray", action="store_true", help="also run the top level on Ray")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--base-url", help=argparse.SUPPRESS)
    parser.add_argument("--concurrency", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    levels = [int(x) for x in args.levels.split(",")]
    counts = {n: args.games_at_1 if n == 1 else args.games for n in levels}
    if args.games_per_level:
        counts = dict(zip(levels, (int(x) for x in args.games_per_level.split(",")), strict=True))
    top = max(levels)
    header = (
        "| run | games | wall s | games/hour | × N=1 | CPU s/game | peak MB | store share "
        "| calls/game | errors/fallbacks | same as N=1 |\n" + "|---" * 11 + "|"
    )
    lines = [header]
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        with latency_server(args.latency) as url:
            for n in [] if args.only_rpm else levels:
                results[f"N={n}"] = level(url, n, counts[n], args.seed, tmp)
                progress(f"N={n}", results)
            if args.ray and not args.only_rpm:
                try:
                    results[f"ray N={top}"] = level(url, top, counts[top], args.seed, tmp, True)
                    progress(f"ray N={top}", results)
                except SystemExit as failed:
                    print(f"ray failed: {failed}", file=sys.stderr)
        if args.rpm:
            name = f"N={top}, {args.rpm:g} rpm"
            with latency_server(args.latency, rpm=args.rpm) as url:
                games = args.rpm_games or counts[top]
                results[name] = level(url, top, games, args.seed, tmp)
                progress(name, results)
    first = results[f"N={levels[0]}"] if not args.only_rpm else next(iter(results.values()))
    base = first["played"] / first["wall_s"] * 3600
    for name, d in results.items():
        n_same = same(first["outcomes"], d["outcomes"])
        lines.append(row(name, d, base, f"{n_same}/{min(len(first['outcomes']), d['played'])}"))
    print(f"latency {args.latency:g} s per call; seed {args.seed}\n")
    print("\n".join(lines))
    for name, d in results.items():
        if "ray" in name:
            print(f"\n{name}: Ray start-up {d['ray_start_s']:.1f} s (not in the wall time)")
        if "rpm" in name:
            ceiling = args.rpm / 60 / (d["calls"] / max(1, d["played"])) * 3600
            got = d["played"] / d["wall_s"] * 3600
            print(
                f"\n{name}: ceiling {ceiling:,.0f} games/hour ({args.rpm:g} requests/min ÷ "
                f"{d['calls'] / max(1, d['played']):.0f} calls/game); got {got:,.0f} "
                f"({got / ceiling:.0%}); failed games {d['failed_games']}, "
                f"errors seen by seats {d['errors']}; while every game was running "
                f"{d['steady_calls_per_s']:.2f} calls/s of the {args.rpm / 60:.2f} allowed "
                f"({d['steady_calls_per_s'] / (args.rpm / 60):.0%})"
            )


if __name__ == "__main__":
    main()
