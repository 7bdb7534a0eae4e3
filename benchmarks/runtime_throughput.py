"""Runtime overhead per decision and scripted game throughput (werewolf, 12 players).

Per-decision overhead is measured by replaying the same recorded action sequences three
ways in one run, so the ratios isolate each cost:

* apply only — the rules engine alone (baseline);
* apply + view — plus building the deciding seat's view, as the runner does;
* apply + view + persist — plus committing the actions and their events to SQLite (WAL),
  one transaction per batch of pending decisions, as the runner commits an ordered batch.

Each mode is timed in wall and in CPU seconds; on a shared machine the CPU ratio is the
one to read (the wall one moves with the other processes' load). Then whole scripted
games through the full runtime (seats, runner, SQLite) per second.
Peak RSS of this process is printed last (target < 150 MB).

    uv run python benchmarks/runtime_throughput.py [--games 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from parlour.core.actions import Action
from parlour.core.rng import Rng, hash_seed
from parlour.games.werewolf import MODULE
from parlour.runtime.seating import SeatPlan
from parlour.runtime.session import start
from parlour.runtime.store import ActionWrite, Store, db_url

PLAYERS = 12
Step = tuple[str, str, Action]  # decision id, seat, action
Batch = list[Step]  # the decisions pending together, answered as one batch


def record(seed: int) -> list[Batch]:
    """One scripted game's actions, by batch (the policy's time is not part of the overhead)."""
    game = MODULE.game.new(MODULE.make_config(PLAYERS, {}), seed)
    batches: list[Batch] = []
    while not game.is_terminal():
        batch: Batch = []
        for d in game.pending():
            action = MODULE.policy(game.view(d.seat), d, Rng(hash_seed(seed, d.id)))
            game.apply(d.id, action)
            batch.append((d.id, d.seat, action))
        batches.append(batch)
    return batches


def replay(seed: int, batches: list[Batch], *, view: bool, store: Store | None) -> None:
    game = MODULE.game.new(MODULE.make_config(PLAYERS, {}), seed)
    gid = store.create_game("werewolf", "{}", seed, {}) if store else ""
    idx = 0
    for batch in batches:
        writes: list[ActionWrite] = []
        for decision_id, seat, action in batch:
            if view:
                game.view(seat)
            events = game.apply(decision_id, action)
            writes.append(ActionWrite(idx, decision_id, seat, action, events, "bench"))
            idx += 1
        if store is not None:
            store.record_actions(gid, writes)


def timed(fn: Callable[[], None]) -> tuple[float, float]:
    """Wall and CPU seconds of ``fn`` (CPU: this process's, which other load changes less)."""
    began, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - began, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    games = {seed: record(seed) for seed in range(args.games)}
    decisions = sum(len(b) for batches in games.values() for b in batches)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(db_url(str(Path(tmp) / "bench.sqlite")))
        modes = {
            "apply only (baseline)": dict(view=False, store=None),
            "apply + view": dict(view=True, store=None),
            "apply + view + persist": dict(view=True, store=store),
        }
        rows = []
        for name, kw in modes.items():
            seconds, cpu = timed(
                lambda kw=kw: [replay(seed, steps, **kw) for seed, steps in games.items()]  # type: ignore[arg-type]
            )
            rows.append(
                {
                    "mode": name,
                    "decisions_per_s": decisions / seconds,
                    "seconds": seconds,
                    "cpu_seconds": cpu,
                }
            )
        plan = SeatPlan(default="scripted", system_default="scripted", overrides={})

        def full_games() -> None:
            for seed in range(args.games):
                session = start(
                    store, "werewolf", players=PLAYERS, seed=seed, options={}, plan=plan
                )
                asyncio.run(session.run())

        full, _ = timed(full_games)
    base, base_cpu = rows[0]["decisions_per_s"], rows[0]["cpu_seconds"]
    print(f"{decisions} decisions over {args.games} scripted {PLAYERS}-player games")
    print(f"{'mode':<26}{'decisions/s':>13}{'vs baseline':>13}{'CPU s':>8}{'vs baseline':>13}")
    for row in rows:
        row["ratio"] = row["decisions_per_s"] / base
        row["cpu_ratio"] = base_cpu / row["cpu_seconds"]
        print(
            f"{row['mode']:<26}{row['decisions_per_s']:>13.0f}{row['ratio']:>12.2f}x"
            f"{row['cpu_seconds']:>8.2f}{row['cpu_ratio']:>12.2f}x"
        )
    games_per_s = args.games / full
    print(
        f"full scripted games through runner + SQLite: {games_per_s:.1f} games/s "
        f"({decisions / full:.0f} decisions/s incl. policies)"
    )
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {rss_mb:.0f} MB")
    print(
        json.dumps(
            {
                "players": PLAYERS,
                "games": args.games,
                "decisions": decisions,
                "rows": rows,
                "full_games_per_s": games_per_s,
                "peak_rss_mb": rss_mb,
            }
        )
    )


if __name__ == "__main__":
    main()
