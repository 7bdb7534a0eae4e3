"""Does talk pay? Reads two `parlour eval diplomacy --mode 1v6` runs of the same bot, talk on
and talk off (`bot(talk=off):SPEC`) on the same seeds, and prints the ratio of A's mean
centre share (on / off) with a paired bootstrap 95% interval (pairs: same seed and power;
10,000 resamples, seeded), and the deals per game of the stored games of each run.

    uv run python benchmarks/diplomacy_talk.py ON.json OFF.json --db EVAL.sqlite

ON.json / OFF.json are the eval summaries (several, comma-separated, are pooled); the
database is the one the evals wrote (games are told apart by a `talk=off` seat spec).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from pathlib import Path

from parlour.runtime.store import Store, db_url


def _shares(paths: str) -> dict[tuple[int, str], float]:
    out: dict[tuple[int, str], float] = {}
    for path in paths.split(","):
        for g in json.loads(Path(path).read_text())["games"]:
            out[g["seed"], g["power"]] = float(g["a_share"])
    return out


def talk_ratio(on: dict[tuple[int, str], float], off: dict[tuple[int, str], float]) -> str:
    keys = sorted(set(on) & set(off))
    n = len(keys)
    mean_on = statistics.fmean(on[k] for k in keys)
    mean_off = statistics.fmean(off[k] for k in keys)
    rng = random.Random(29)
    ratios: list[float] = []
    diffs: list[float] = []
    for _ in range(10_000):
        pick = [keys[rng.randrange(n)] for _ in range(n)]
        x = statistics.fmean(on[k] for k in pick)
        y = statistics.fmean(off[k] for k in pick)
        ratios.append(x / y if y else float("inf"))
        diffs.append(x - y)
    ratios.sort()
    diffs.sort()
    lo, hi = 250, 9750
    better = sum(on[k] > off[k] for k in keys)
    worse = sum(on[k] < off[k] for k in keys)
    return (
        f"paired games {n}: talk on {mean_on:.1%}, talk off {mean_off:.1%}; ratio "
        f"{mean_on / mean_off:.3f} [{ratios[lo]:.3f}, {ratios[hi]:.3f}]; difference "
        f"{mean_on - mean_off:+.1%} [{diffs[lo]:+.1%}, {diffs[hi]:+.1%}]; on better in "
        f"{better}, worse in {worse}, equal {n - better - worse}"
    )


def deals_per_game(db: str) -> list[str]:
    """Per arm: proposal acts (offers and requests), acceptances, deals (one per side a
    proposal binds), kept and broken (the final betrayal table), means per game."""
    store = Store(db_url(db))
    arms: dict[str, list[tuple[int, int, int, int, int]]] = {}
    for g in store.list_games(limit=100_000, game="diplomacy", status="finished"):
        arm = "talk off" if any("talk=off" in s for s in g.seats.values()) else "talk on"
        events = store.spectator_events(g.id, "everything")
        proposals = accepted = 0
        for e in events:
            if e.kind == "press":
                acts = [str(a.get("act")) for a in e.data.get("proposals", [])]
                proposals += sum(a in ("offer", "request") for a in acts)
                accepted += acts.count("accept")
        table = [e for e in events if e.kind == "betrayals"]
        deals = table[0].data["deals"] if table else []
        kept = sum(d["status"] == "kept" for d in deals)
        broken = sum(d["status"] == "broken" for d in deals)
        arms.setdefault(arm, []).append((proposals, accepted, len(deals), kept, broken))
    lines = []
    for arm, rows in sorted(arms.items()):
        m = [statistics.fmean(r[i] for r in rows) for i in range(5)]
        lines.append(
            f"{arm}: {len(rows)} games; per game: proposals {m[0]:.1f}, accepted {m[1]:.1f}, "
            f"deals {m[2]:.1f}, kept {m[3]:.1f}, broken {m[4]:.1f}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("on", help="eval summary JSON(s) with talk on, comma-separated")
    parser.add_argument("off", help="eval summary JSON(s) with talk off, comma-separated")
    parser.add_argument("--db", help="the evals' database, for the deals per game")
    args = parser.parse_args()
    for path in f"{args.on},{args.off}".split(","):
        if not Path(path).is_file():
            raise SystemExit(
                f"no eval summary at {path}: give the JSON `parlour eval diplomacy --out` wrote"
            )
    print(talk_ratio(_shares(args.on), _shares(args.off)))
    if args.db:
        for line in deals_per_game(args.db):
            print(line)


if __name__ == "__main__":
    main()
