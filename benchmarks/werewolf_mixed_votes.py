"""Village votes that named a werewolf, per entrant, over a stored werewolf tournament.

Issue 33 asks that scripted village votes name a wolf at least 1.5× as often as random
ones. At a mixed table (``--entrant a=scripted --entrant b=random``) each ballot of a
village-team voter is counted for the voter's entrant, and a hit when its target was a
werewolf (roles from the game's private ``role`` events, ballots from its ``vote``
events). With two entrants the ratio of their hit rates is printed too.

    uv run parlour tournament werewolf --entrant a=scripted --entrant b=random \\
        --games 500 --seed 11 --jobs 2 --db DB
    uv run python benchmarks/werewolf_mixed_votes.py --db DB --tournament ID
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour.runtime.store import Store, db_url

WOLF = "werewolf"


def count(store: Store, tournament: str) -> tuple[Counter[str], Counter[str]]:
    """(hits, ballots) per entrant over the tournament's stored games."""
    hits: Counter[str] = Counter()
    ballots: Counter[str] = Counter()
    for row in store.tournaments.games(tournament):
        if row.game_id is None:
            continue
        events = store.events(row.game_id)
        roles = {e.to[0]: str(e.data["role"]) for e in events if e.kind == "role" and e.to}
        for e in events:
            voter, target = e.data.get("voter"), e.data.get("target")
            if e.kind != "vote" or not isinstance(voter, str) or not isinstance(target, str):
                continue
            if roles.get(voter) == WOLF:
                continue
            entrant = row.seating[voter]
            ballots[entrant] += 1
            hits[entrant] += roles.get(target) == WOLF
    return hits, ballots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="the tournament's store")
    parser.add_argument("--tournament", required=True, help="its id (tn-…)")
    args = parser.parse_args()
    if "://" not in args.db and not Path(args.db).is_file():
        sys.exit(f"error: no database at {args.db}; pass the --db the tournament wrote to")
    store = Store(db_url(args.db))
    known = [row.id for row, _, _ in store.tournaments.list_all()]
    if args.tournament not in known:
        sys.exit(
            f"error: no tournament {args.tournament} in {args.db}; "
            f"its tournaments: {', '.join(known) or 'none'}"
        )
    hits, ballots = count(store, args.tournament)
    for entrant in sorted(ballots):
        rate = hits[entrant] / ballots[entrant]
        named = f"{hits[entrant]} of {ballots[entrant]}"
        print(f"{entrant}: {named} village ballots named a wolf ({rate:.1%})")
    if len(ballots) == 2:
        a, b = sorted(ballots)
        ratio = (hits[a] / ballots[a]) / (hits[b] / ballots[b])
        print(f"ratio {a} / {b}: {ratio:.3f}")


if __name__ == "__main__":
    main()
