"""Tournament throughput: scripted werewolf games per second with --jobs 1, --jobs 2 and
--ray local, and a projection for N workers from the measured costs.

Each backend plays the same seeded 7-player tournament (scripted vs random) into its own
SQLite file; the baseline is --jobs 1 (in-process) measured in the same run. The model:

    T(G games, N workers) = S + G * (c / N + o)

* ``c``: seconds of one game inside a worker (the outcomes' own ``seconds``, mean);
* ``o``: driver overhead per game (record the outcome, schedule the next), serial:
  from the --jobs 1 run, ``o = T1 / G - c``;
* ``S``: start-up of the backend (spawning processes, starting Ray), from each run:
  ``S = T - G * (c / N + o)`` with N its worker count.

So throughput tends to ``N / c`` while ``c / N`` dominates and is capped at ``1 / o``; the
projection prints G / T for N workers and a long run (G = 10,000), for both backends'
start-up. On a machine whose cores are shared, N above the free cores buys nothing.

    uv run python benchmarks/tournament_scale.py [--games 40] [--no-ray]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from parlour.runtime.store import Store, db_url
from parlour.tournament import run as runs
from parlour.tournament import storage
from parlour.tournament.play import same_result


def measure(folder: Path, name: str, games: int, jobs: int, ray: str | None) -> dict[str, float]:
    store = Store(db_url(str(folder / f"{name}.sqlite")))
    params = runs.prepare(store, "werewolf", ["a=scripted", "b=random"], games=games, seed=42)
    tid = runs.create(store, params)
    started = time.perf_counter()
    runs.run(store, tid, jobs=jobs, ray=ray)
    wall = time.perf_counter() - started
    outs = [g.outcome for g in storage.games(store, tid) if g.outcome]
    return {
        "wall": wall,
        "games_per_s": games / wall,
        "game_s": sum(float(o["seconds"]) for o in outs) / len(outs),
        "workers": float(jobs),
        "outcomes": outs,  # type: ignore[dict-item]
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray measurement")
    args = ap.parse_args()
    g = args.games
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        runs_ = {"jobs 1": measure(folder, "j1", g, 1, None)}
        runs_["jobs 2"] = measure(folder, "j2", g, 2, None)
        if not args.no_ray:
            from parlour.tournament.backends import ray_init, ray_width

            ray_init("local", num_cpus=2)
            r = measure(folder, "ray", g, 1, "local")
            r["workers"] = float(ray_width())
            runs_["ray local"] = r
    base = runs_["jobs 1"]
    c = base["game_s"]
    o = max(0.0, base["wall"] / g - c)
    same = all(
        all(same_result(a, b) for a, b in zip(base["outcomes"], r["outcomes"], strict=True))  # type: ignore[arg-type]
        for r in runs_.values()
    )
    print(f"{g} scripted 7-player werewolf games per backend; same results everywhere: {same}")
    print(f"per game in a worker c = {c * 1000:.1f} ms; driver overhead o = {o * 1000:.1f} ms")
    print(f"{'backend':<10} {'wall s':>8} {'games/s':>8} {'vs jobs 1':>10} {'start-up S':>11}")
    startup: dict[str, float] = {}
    for name, r in runs_.items():
        n = r["workers"]
        s = max(0.0, r["wall"] - g * (c / n + o))
        startup[name] = s
        ratio = r["games_per_s"] / base["games_per_s"]
        print(f"{name:<10} {r['wall']:8.2f} {r['games_per_s']:8.1f} {ratio:9.2f}x {s:10.2f}s")
    print("projection, games/s for G = 10,000 games: T = S + G (c/N + o)")
    long_g = 10_000
    print(f"{'N':>4} " + " ".join(f"{k:>12}" for k in startup))
    for n in (1, 2, 4, 8, 16, 32, 64):
        cells = [long_g / (s + long_g * (c / n + o)) for s in startup.values()]
        print(f"{n:>4} " + " ".join(f"{v:12.1f}" for v in cells))
    print(
        json.dumps(
            {
                "games": g,
                "game_ms": round(c * 1000, 2),
                "overhead_ms": round(o * 1000, 2),
                "games_per_s": {k: round(r["games_per_s"], 2) for k, r in runs_.items()},
                "startup_s": {k: round(v, 2) for k, v in startup.items()},
                "same_results": same,
            }
        )
    )


if __name__ == "__main__":
    main()
