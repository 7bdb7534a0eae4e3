"""Long differential run of parlour's Diplomacy adjudicator against the `diplomacy` package.

Plays random legal games (orders from our legal-order enumeration) in both
engines and compares units, dislodgements, retreat options, centres and phase
after every phase. Prints the phase count, every disagreement (seed, phase,
orders and position, for investigation) grouped by kind, and the time per phase
of each engine (ours: legal-order listing + validation + adjudication; the
reference: ``get_all_possible_orders`` + ``set_orders`` + ``process``), measured
interleaved so machine load affects both alike.

Known, documented differences (docs/diplomacy-rules.md) are confirmed by
replaying the phase without the orders that trigger them; anything else is
"unexplained" and makes the script exit with status 1.

    uv run python benchmarks/diplomacy_differential.py            # >= 20,000 phases
    uv run python benchmarks/diplomacy_differential.py --phases 2000 --start-seed 7
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.diplomacy.diff_harness import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=20_000, help="minimum phases to play")
    parser.add_argument("--start-seed", type=int, default=1_000)
    parser.add_argument("--max-phases-per-game", type=int, default=200)
    parser.add_argument(
        "--no-timing", action="store_true", help="skip the reference's legal-order timing"
    )
    args = parser.parse_args(argv)

    started = time.perf_counter()
    stats = run(
        [args.start_seed],
        max_phases=args.max_phases_per_game,
        timed=not args.no_timing,
        min_phases=args.phases,
    )
    elapsed = time.perf_counter() - started

    print(f"phases: {stats.phases} in {stats.games} games (seeds {args.start_seed}..)")
    print("  by phase type: " + ", ".join(f"{k}={v}" for k, v in sorted(stats.by_type.items())))
    kinds = Counter(d.kind for d in stats.disagreements)
    print(f"disagreements: {len(stats.disagreements)}")
    for kind, n in kinds.most_common():
        print(f"  {n:5d}  {kind}")
    for d in stats.disagreements:
        print()
        print(d.report())
    t = stats.timing
    n = max(stats.phases, 1)

    def ms(seconds: float) -> str:
        return f"{1000 * seconds / n:.3f}"

    print()
    print(f"wall time: {elapsed:.1f}s")
    print(
        f"ours:      {ms(t.ours)} ms/phase "
        f"(legal orders {ms(t.ours_legal)}, validate+adjudicate {ms(t.ours_process)})"
    )
    if not args.no_timing:
        print(
            f"reference: {ms(t.reference)} ms/phase (possible orders {ms(t.ref_legal)}, "
            f"set_orders {ms(t.ref_set_orders)}, process {ms(t.ref_process)})"
        )
        if t.ours:
            print(f"speed-up:  {t.reference / t.ours:.1f}x (all stages)")
            no_set = t.ref_legal + t.ref_process
            print(f"           {no_set / t.ours:.1f}x (reference without set_orders)")
    unexplained = len(stats.unexplained)
    print(f"unexplained disagreements: {unexplained}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    raise SystemExit(main())
