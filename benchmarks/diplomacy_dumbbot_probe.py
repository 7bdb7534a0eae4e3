"""DumbBot speed and strength probe.

Measures:

* the median time of one DumbBot order set for a whole power, in Spring 1901 and in
  mid-game positions (1905-1906 boards from DumbBot games), both "cold" (a fresh
  board, so legal-order enumeration is included) and "warm" (the legal orders
  already cached on the board, so the bot alone);
* the wall time of whole 7-DumbBot games to the end of 1910 (adjudication included);
* 1 DumbBot vs 6 random-order bots (DumbBot rotated over the powers) to 1910:
  DumbBot's mean share of the 34 centres at the end (parity is 1/7 = 14.3%), plus
  the same against 6 holding bots and 1 random bot among 6 DumbBots for context.

    uv run python benchmarks/diplomacy_dumbbot_probe.py
    uv run python benchmarks/diplomacy_dumbbot_probe.py --games 28 --timing-games 5

Prints a table and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Mapping

from parlour.games.diplomacy.adjudicator import Rules, process_phase
from parlour.games.diplomacy.baselines import hold_orders, random_orders
from parlour.games.diplomacy.board import Board, PhaseType, initial_board
from parlour.games.diplomacy.dumbbot import dumbbot_orders
from parlour.games.diplomacy.orders import Order

Policy = Callable[[Board, str, random.Random], list[Order]]


def dumbbot(board: Board, power: str, rng: random.Random) -> list[Order]:
    return dumbbot_orders(board, power, rng)


def randombot(board: Board, power: str, rng: random.Random) -> list[Order]:
    return random_orders(board, power, rng)


def holdbot(board: Board, power: str, rng: random.Random) -> list[Order]:
    return hold_orders(board, power)


def play(policies: Mapping[str, Policy], seed: int, end_year: int) -> tuple[Board, list[Board]]:
    """Play to the end of ``end_year``; return the final board and every board seen."""
    board = initial_board()
    rules = Rules(end_year=end_year)
    rngs = {p: random.Random(f"{seed}:{p}") for p in board.game_map.powers}
    seen = [board]
    while not board.finished:
        orders = {p: policies[p](board, p, rngs[p]) for p in board.game_map.powers}
        result = process_phase(board, orders, rules)
        assert not result.rejected, result.rejected
        board = result.board
        seen.append(board)
    return board, seen


def fresh(board: Board) -> Board:
    """The same position without any cached derived data."""
    return Board(board.game_map, board.phase, board.units, board.centres, board.dislodged)


def time_order_sets(boards: list[Board], repeats: int) -> tuple[float, float]:
    """Median ms of one power's DumbBot orders: (cold board, warm board)."""
    cold: list[float] = []
    warm: list[float] = []
    rng = random.Random(0)
    for b in boards:
        for power in b.game_map.powers:
            if not b.units_of(power):
                continue
            for _ in range(repeats):
                nb = fresh(b)
                t0 = time.perf_counter()
                dumbbot_orders(nb, power, rng)
                t1 = time.perf_counter()
                dumbbot_orders(nb, power, rng)
                t2 = time.perf_counter()
                cold.append((t1 - t0) * 1000)
                warm.append((t2 - t1) * 1000)
    return statistics.median(cold), statistics.median(warm)


def share_sample(
    hero: Policy, others: Policy, games: int, end_year: int, seed0: int
) -> tuple[float, int]:
    """``hero`` seated once per game, rotated over the powers: (mean centre share, solos).

    A game ends early at a solo (18 centres), which caps the share there.
    """
    powers = initial_board().game_map.powers
    shares: list[float] = []
    solos = 0
    for g in range(games):
        seat = powers[g % len(powers)]
        policies = {p: (hero if p == seat else others) for p in powers}
        final, _ = play(policies, seed0 + g, end_year)
        shares.append(final.centre_counts()[seat] / len(final.game_map.supply_centres))
        solos += final.winner == seat
    return statistics.mean(shares), solos


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=14, help="games per strength sample")
    ap.add_argument("--timing-games", type=int, default=5, help="7-DumbBot games timed")
    ap.add_argument("--end-year", type=int, default=1910)
    ap.add_argument("--repeats", type=int, default=5, help="timings per power per board")
    args = ap.parse_args()
    powers = initial_board().game_map.powers
    all_dumb: dict[str, Policy] = dict.fromkeys(powers, dumbbot)

    game_times: list[float] = []
    mid: list[Board] = []
    for seed in range(args.timing_games):
        t0 = time.perf_counter()
        _, seen = play(all_dumb, seed, args.end_year)
        game_times.append(time.perf_counter() - t0)
        mid += [
            b for b in seen if b.phase.type is PhaseType.MOVEMENT and b.phase.year in (1905, 1906)
        ]
    cold_1901, warm_1901 = time_order_sets([initial_board()], args.repeats * 4)
    cold_mid, warm_mid = time_order_sets(mid, args.repeats)

    vs_random, solos_random = share_sample(dumbbot, randombot, args.games, args.end_year, 1000)
    vs_hold, solos_hold = share_sample(dumbbot, holdbot, args.games, args.end_year, 2000)
    random_vs_dumb, _ = share_sample(randombot, dumbbot, args.games, args.end_year, 3000)

    rows = [
        ("order set S1901, cold board (ms, median)", f"{cold_1901:.2f}"),
        ("order set S1901, warm board (ms, median)", f"{warm_1901:.2f}"),
        ("order set 1905-06 movement, cold (ms, median)", f"{cold_mid:.2f}"),
        ("order set 1905-06 movement, warm (ms, median)", f"{warm_mid:.2f}"),
        (
            f"7-DumbBot game to {args.end_year} (s, median of {len(game_times)})",
            f"{statistics.median(game_times):.3f}",
        ),
        (
            f"DumbBot share vs 6 random ({args.games} games)",
            f"{vs_random:.1%} ({solos_random} solos)",
        ),
        (f"DumbBot share vs 6 hold ({args.games} games)", f"{vs_hold:.1%} ({solos_hold} solos)"),
        (f"random share vs 6 DumbBot ({args.games} games)", f"{random_vs_dumb:.1%}"),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    print(
        json.dumps(
            {
                "order_set_ms_1901_cold": round(cold_1901, 3),
                "order_set_ms_1901_warm": round(warm_1901, 3),
                "order_set_ms_mid_cold": round(cold_mid, 3),
                "order_set_ms_mid_warm": round(warm_mid, 3),
                "game_seconds_median": round(statistics.median(game_times), 4),
                "share_vs_random": round(vs_random, 4),
                "solos_vs_random": solos_random,
                "share_vs_hold": round(vs_hold, 4),
                "solos_vs_hold": solos_hold,
                "random_share_vs_dumbbot": round(random_vs_dumb, 4),
                "games": args.games,
                "end_year": args.end_year,
            }
        )
    )


if __name__ == "__main__":
    main()
