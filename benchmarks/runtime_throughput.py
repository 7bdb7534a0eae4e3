"""Runtime throughput: scripted 12-player werewolf games per second and decisions per second.

Measured in one run, three ways, so the ratio isolates the cost of persistence:
  * rules only — apply + view, no seats, no store (the baseline);
  * runtime in memory — the full runner with scripted seats, no store;
  * runtime + SQLite — the full runner persisting every action and event (WAL file).
Peak RSS of this process is reported at the end (target < 150 MB).

    uv run python benchmarks/runtime_throughput.py [--games 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import tempfile
import time
from pathlib import Path

from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf import MODULE
from parlour.runtime.runner import Runner
from parlour.runtime.seating import SeatPlan
from parlour.runtime.session import start
from parlour.runtime.store import Store, db_url
from parlour.seats.scripted import ScriptedSeat

PLAYERS = 12


def rules_only(seed: int) -> int:
    game = MODULE.game.new(MODULE.make_config(PLAYERS, {}), seed)
    n = 0
    while not game.is_terminal():
        for decision in game.pending():
            view = game.view(decision.seat)
            action = MODULE.policy(view, decision, Rng(hash_seed(seed, decision.id)))
            game.apply(decision.id, action)
            n += 1
    return n


def runtime_in_memory(seed: int) -> int:
    game = MODULE.game.new(MODULE.make_config(PLAYERS, {}), seed)
    seats = {s.id: ScriptedSeat(MODULE.policy, hash_seed(seed, s.id)) for s in game.seats()}
    runner = Runner(game, seats, fallback=MODULE.policy)
    asyncio.run(runner.run())
    return runner.decisions_applied


def runtime_sqlite(seed: int, store: Store) -> int:
    plan = SeatPlan(default="scripted", system_default="scripted", overrides={})
    session = start(store, "werewolf", players=PLAYERS, seed=seed, options={}, plan=plan)
    asyncio.run(session.run())
    return session.runner.decisions_applied


def measure(name: str, fn, games: int) -> dict[str, float]:  # type: ignore[no-untyped-def]
    decisions = 0
    began = time.perf_counter()
    for seed in range(games):
        decisions += fn(seed)
    elapsed = time.perf_counter() - began
    return {
        "name": name,
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions": decisions,
        "seconds": elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(db_url(str(Path(tmp) / "bench.sqlite")))
        rows = [
            measure("rules only (baseline)", rules_only, args.games),
            measure("runtime, in memory", runtime_in_memory, args.games),
            measure("runtime + SQLite", lambda s: runtime_sqlite(s, store), args.games),
        ]
    base = rows[0]["decisions_per_s"]
    print(f"{'mode':<24}{'games/s':>10}{'decisions/s':>14}{'vs baseline':>13}")
    for row in rows:
        ratio = row["decisions_per_s"] / base
        print(
            f"{row['name']:<24}{row['games_per_s']:>10.1f}{row['decisions_per_s']:>14.0f}{ratio:>12.2f}x"
        )
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {rss_mb:.0f} MB")
    print(
        json.dumps({"players": PLAYERS, "games": args.games, "rows": rows, "peak_rss_mb": rss_mb})
    )


if __name__ == "__main__":
    main()
