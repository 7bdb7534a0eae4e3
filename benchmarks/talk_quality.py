"""One talk-quality measure for every game (issue 30): what a person reads in stored games.

Each game hands over its talk (``GameMetrics.talk``); ``parlour.evals.talk_quality``
scores every line (the rules are in its docstrings) and ``parlour.evals.talk_games``
reads stored games into it:

- **repeated 4-gram**: the line holds a 4-gram of tokens already said in the game (an
  earlier line of any seat, or earlier in the same line);
- **shared opener**: another voice opens a line with the same first 3 tokens;
- **fallback**: the stored answer that wrote the line was the fallback policy's;
- **debris**: an empty line, a tag, markup, a speaker label opening the line, and in a
  line a model wrote: 8 tokens of the game's own words from its call, or no sentence end
  (cut off; not for a clause the game frames, such as a check's reason).

Targets (issue 30): repeated 4-grams < 10% of lines, fallbacks < 10%, debris 0.

    uv run python benchmarks/talk_quality.py --db tests/fixtures/missing_local.sqlite
    uv run python benchmarks/talk_quality.py --db X.sqlite --game ID --by-seat --examples 3
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour.evals.talk_games import score_game
from parlour.evals.talk_quality import TalkReport, TalkScore, report
from parlour.runtime.store import Store, db_url

HEADER = (
    "| game | lines | repeated 4-gram | shared opener | fallback | unlinked | "
    "debris (lines) | debris kinds |"
)


def _pct(n: int, of: int) -> str:
    return f"{n} ({100 * n / of:.1f}%)" if of else "0"


def row(label: str, r: TalkReport) -> str:
    kinds = ", ".join(f"{k} {n}" for k, n in r.debris_by_kind.items()) or "–"
    return (
        f"| {label} | {r.lines} | {_pct(r.repeated, r.lines)} | "
        f"{_pct(r.shared_openers, r.lines)} | {_pct(r.fallback, r.lines)} | {r.unlinked} | "
        f"{_pct(r.debris, r.lines)} | {kinds} |"
    )


def by_seat(r: TalkReport, scores: Sequence[TalkScore]) -> list[tuple[str, TalkReport]]:
    """The report restricted to each writing seat's lines (openers and repeats stay
    judged against the whole game)."""
    seats: dict[str, list[TalkScore]] = defaultdict(list)
    for s in scores:
        seats[s.seat].append(s)
    return [(seat, report(r.game_id, r.game, mine)) for seat, mine in sorted(seats.items())]


def examples(scores: Sequence[TalkScore], n: int) -> list[str]:
    out: list[str] = []
    for s in scores:
        flags = [
            *(["repeat: " + " ".join(s.repeated)] if s.repeated else []),
            *(["shared opener"] if s.shared_opener else []),
            *(["fallback"] if s.fallback else []),
            *s.debris,
        ]
        if flags and len(out) < n:
            out.append(f"  [{s.seq}] {s.voice}: {s.text[:110]!r} — {'; '.join(flags)}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--db", action="append", required=True, help="a store (repeatable)")
    parser.add_argument("--game", action="append", default=[], help="only these game ids")
    parser.add_argument("--kind", default=None, help="only games of this game (e.g. missing)")
    parser.add_argument("--by-seat", action="store_true", help="a row per writing seat too")
    parser.add_argument("--examples", type=int, default=0, help="flagged lines to print")
    args = parser.parse_args(argv)
    missing = [db for db in args.db if "://" not in db and not Path(db).is_file()]
    if missing:
        # a SQLite path that does not exist would be created empty and scored as nothing
        print(
            f"error: no store at {', '.join(missing)}: give a SQLite file that holds games",
            file=sys.stderr,
        )
        return 2
    print(HEADER)
    print("|" + "---|" * HEADER.count(" | ") + "---|")
    notes: list[str] = []
    for db in args.db:
        store = Store(db_url(db))
        try:
            rows = store.list_games(limit=100_000, game=args.kind)[::-1]
            ids = args.game or [g.id for g in rows]
            for game_id in ids:
                r, scores = score_game(store, game_id)
                print(row(f"{r.game} `{game_id}`", r))
                if args.by_seat:
                    for seat, sub in by_seat(r, scores):
                        print(row(f"↳ {seat}", sub))
                if args.examples:
                    notes.append(f"{game_id}:")
                    notes.extend(examples(scores, args.examples))
        finally:
            store.close()
    if notes:
        print()
        print("\n".join(notes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
