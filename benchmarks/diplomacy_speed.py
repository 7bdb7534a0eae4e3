"""Diplomacy speed: our engine against the `diplomacy` package, and whole-game wall times.

(a) Per phase, on the same positions with the same orders (DumbBot games to 1910):
    ours = legal-order enumeration for all powers + validation + adjudication;
    reference (`diplomacy` on PyPI, AGPL, a dev-only dependency imported only here) =
    ``get_all_possible_orders`` + ``set_orders`` + ``process``. Measured interleaved, so
    machine load hits both alike, with the garbage collector off inside the timed
    sections (as timeit does); the reference is re-seeded from our position before
    every movement and adjustment phase (setup not timed), retreat phases follow the
    reference's own previous phase when it agrees with ours.
(b) Wall time of a 1910-capped game of seven DumbBots: the engine alone (baseline),
    through the kernel Game (decisions, views, policies), and through the full runtime
    with SQLite persistence (a temporary file). Also each power's mean centre share.

    uv run python benchmarks/diplomacy_speed.py
    uv run python benchmarks/diplomacy_speed.py --games 10 --timing-games 3

Prints a table and one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour.core.rng import Rng, hash_seed
from parlour.games.diplomacy import DiplomacyGame, make_config
from parlour.games.diplomacy.adjudicator import process_phase
from parlour.games.diplomacy.board import Board, initial_board
from parlour.games.diplomacy.dumbbot import dumbbot_orders
from parlour.games.diplomacy.legal import all_legal_orders
from parlour.games.diplomacy.orders import Order
from parlour.games.diplomacy.policies import dumbbot
from parlour.runtime import session as sessions
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, db_url
from tests.diplomacy.diff_harness import reference_game  # AGPL reference, dev-only

END_YEAR = 1910
clock = time.perf_counter


# --- (a) engine vs reference -------------------------------------------------------------


def _same(board: Board, ref: Any) -> bool:
    """The reference stands where we do (dislodged units are listed with a ``*``)."""
    if ref.get_current_phase() != board.phase_name:
        return False
    theirs = {p: sorted(u.lstrip("*") for u in us) for p, us in ref.get_units().items()}
    for p in board.game_map.powers:
        ours = [str(u) for u in board.units_of(p)] + [str(d.unit) for d in board.dislodged_of(p)]
        if sorted(ours) != theirs.get(p, []):
            return False
    return True


def compare_engines(seeds: range) -> dict[str, Any]:
    ours = reference = 0.0
    timed = skipped = 0
    by_type: dict[str, int] = {}
    for seed in seeds:
        board = initial_board()
        ref: Any = None
        while not board.finished and board.phase.year <= END_YEAR:
            if not board.dislodged:
                ref = reference_game(board)  # setup, not timed
            elif ref is None or not _same(board, ref):
                ref = None  # the engines disagree on this retreat phase: do not time it
            gc.collect()  # untimed; timed sections run with the collector off, like timeit
            gc.disable()
            t0 = clock()
            all_legal_orders(board)
            t_legal = clock() - t0
            gc.enable()
            orders = {
                p: dumbbot_orders(board, p, Rng(hash_seed(seed, f"{board.phase.name}:{p}")))
                for p in board.game_map.powers
            }
            gc.disable()
            t0 = clock()
            result = process_phase(board, orders)
            t_ours = t_legal + clock() - t0
            gc.enable()
            assert not result.rejected, result.rejected
            if ref is not None:
                texts = {p: [str(o) for o in os] for p, os in orders.items()}
                gc.collect()
                gc.disable()
                t0 = clock()
                ref.get_all_possible_orders()
                for power, os in texts.items():
                    ref.set_orders(power, os)
                ref.process()
                reference += clock() - t0
                gc.enable()
                ours += t_ours
                timed += 1
                kind = board.phase.type.value
                by_type[kind] = by_type.get(kind, 0) + 1
            else:
                skipped += 1
            board = result.board
    return {
        "phases": timed,
        "skipped": skipped,
        "by_type": by_type,
        "ours_ms": 1000 * ours / max(timed, 1),
        "reference_ms": 1000 * reference / max(timed, 1),
        "ratio": reference / ours if ours else 0.0,
    }


# --- (b) whole games ---------------------------------------------------------------------


def engine_game(seed: int) -> Board:
    board = initial_board()
    while not board.finished and board.phase.year <= END_YEAR:
        orders: Mapping[str, list[Order]] = {
            p: dumbbot_orders(board, p, Rng(hash_seed(seed, f"{board.phase.name}:{p}")))
            for p in board.game_map.powers
        }
        board = process_phase(board, orders).board
    return board


def kernel_game(seed: int) -> DiplomacyGame:
    game = DiplomacyGame.new(make_config(None, {"end_year": END_YEAR}), seed)
    while not game.is_terminal():
        for d in game.pending():
            game.apply(d.id, dumbbot(game.view(d.seat), d, Rng(hash_seed(seed, d.id))))
    return game


def runtime_game(seed: int, folder: Path) -> DiplomacyGame:
    store = Store(db_url(str(folder / f"bench-{seed}.sqlite")))
    plan = SeatPlan(default="dumbbot", system_default="scripted", overrides={})
    session = sessions.start(
        store, "diplomacy", players=None, seed=seed, options={"end_year": END_YEAR}, plan=plan
    )
    asyncio.run(session.run())
    store.close()
    assert isinstance(session.game, DiplomacyGame)
    return session.game


def _median_time(run: Callable[[int], object], seeds: range) -> float:
    times = []
    for seed in seeds:
        t0 = clock()
        run(seed)
        times.append(clock() - t0)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="DumbBot games for the comparison")
    parser.add_argument("--timing-games", type=int, default=5, help="games per wall-time row")
    parser.add_argument("--share-games", type=int, default=28, help="7-DumbBot games for shares")
    args = parser.parse_args(argv)

    initial_board()  # load the map once, outside every timing
    # Cold: a fresh process meets every order text for the first time (parsing and
    # labelling it once per map); warm: the steady state of a long run (evals, servers).
    cold = compare_engines(range(1))
    compare_engines(range(1, 1 + args.games))
    engines = compare_engines(range(50, 50 + args.games))
    seeds = range(100, 100 + args.timing_games)
    engine_s = _median_time(engine_game, seeds)
    kernel_s = _median_time(kernel_game, seeds)
    with tempfile.TemporaryDirectory() as tmp:
        runtime_s = _median_time(lambda s: runtime_game(s, Path(tmp)), seeds)
    shares: dict[str, list[float]] = {}
    for seed in range(1000, 1000 + args.share_games):
        counts = engine_game(seed).centre_counts()
        for power, n in counts.items():
            shares.setdefault(power, []).append(n / 34)
    mean_share = {p: statistics.fmean(v) for p, v in shares.items()}

    print(f"(a) per phase, {engines['phases']} phases of {args.games} DumbBot games to 1910")
    print(f"    by type: {engines['by_type']} (untimed retreat phases: {engines['skipped']})")
    print(f"    {'ours (legal + adjudicate)':<34}{engines['ours_ms']:>9.3f} ms")
    print(f"    {'diplomacy package':<34}{engines['reference_ms']:>9.3f} ms")
    print(f"    {'speed-up (warm)':<34}{engines['ratio']:>9.1f} x")
    print(f"    {'speed-up (cold: first game)':<34}{cold['ratio']:>9.1f} x")
    print(f"(b) 7-DumbBot game to {END_YEAR}, median of {args.timing_games}")
    print(f"    {'engine only (baseline)':<34}{engine_s:>9.3f} s")
    print(f"    {'kernel Game (decisions, views)':<34}{kernel_s:>9.3f} s")
    print(f"    {'full runtime + SQLite':<34}{runtime_s:>9.3f} s")
    print(f"    mean centre share over {args.share_games} games:")
    for power, share in mean_share.items():
        print(f"      {power:<10}{share:>7.1%}")
    print(
        json.dumps(
            {
                "bench": "diplomacy_speed",
                "phases": engines["phases"],
                "ours_ms_per_phase": round(engines["ours_ms"], 4),
                "reference_ms_per_phase": round(engines["reference_ms"], 4),
                "speedup": round(engines["ratio"], 2),
                "speedup_cold": round(cold["ratio"], 2),
                "engine_game_s": round(engine_s, 3),
                "kernel_game_s": round(kernel_s, 3),
                "runtime_game_s": round(runtime_s, 3),
                "dumbbot_shares": {p: round(s, 4) for p, s in mean_share.items()},
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
