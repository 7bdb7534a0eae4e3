"""Scripted bot games: wall time of a seven-bot press game with the phase decisions
remembered per board (``decisions.phase_decisions``) against the same games building
them on every call (the baseline, in the same run, interleaved).

A bot phase asks for every power's legal orders hundreds of times (each message lists
both sides'); before the memo building them was most of a scripted game's time. The
games are identical either way (checked: the same events).

    uv run python benchmarks/diplomacy_bot_game.py --games 3 --end-year 1904

Prints a line per arm and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour.core.decisions import Decision
from parlour.games.diplomacy import MODULE, bot_protocol, decisions
from parlour.games.diplomacy.board import Board
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.game import DiplomacyGame
from tests.support.play import play_first_pending

SEVEN = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def play(seed: int, end_year: int) -> tuple[float, int]:
    """One game of seven scripted bots with press; (seconds, a hash of its events)."""
    cfg = DiplomacyConfig(bots=SEVEN, end_year=end_year, press_rounds=1, bots_talk_to_bots=True)
    start = time.perf_counter()
    game = DiplomacyGame.new(cfg, seed)
    play_first_pending(game, MODULE.policy, rng_base=seed * 100_000)
    took = time.perf_counter() - start
    return took, hash(tuple((e.kind, e.text) for e in game.events))


def _use(build: Callable[[Board], list[Decision]]) -> None:
    """Point every caller of ``phase_decisions`` at ``build``."""
    name = "phase_decisions"
    for module in (decisions, bot_protocol):
        setattr(module, name, build)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--end-year", type=int, default=1904)
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    kept = decisions.phase_decisions
    memo: list[float] = []
    base: list[float] = []
    for seed in range(args.games):
        # the baseline: the same function without the board's memo, built on every call
        _use(decisions._phase_decisions)
        t_base, e_base = play(seed, args.end_year)
        _use(kept)
        t_memo, e_memo = play(seed, args.end_year)
        if e_base != e_memo:
            raise SystemExit(f"game {seed}: the events differ with and without the memo")
        base.append(t_base)
        memo.append(t_memo)
    b, m = statistics.median(base), statistics.median(memo)
    print(f"built on every call: {b:.2f} s a game (median of {args.games})")
    print(f"remembered per board: {m:.2f} s a game; {b / m:.1f}x faster")
    print(json.dumps({"games": args.games, "base_s": b, "memo_s": m, "ratio": b / m}))


if __name__ == "__main__":
    main()
