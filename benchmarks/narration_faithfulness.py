"""Count how escape narrations fared, from a games database the embedded model played into.

    uv run parlour watch escape --scenario stalled_lift --seed 1 --quiet --db /tmp/n.sqlite
    uv run python benchmarks/narration_faithfulness.py /tmp/n.sqlite

Per narrate decision answered by a model: accepted on the first try, accepted after a
retry, or replaced (retry budget spent: the fallback states the brief). Also counts the
narrations the game itself replaced when applying (``data.replaced`` on the event) and
which rules rejected the attempts.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections import defaultdict

RULES = {
    "but the action happened": "denies",
    "nothing changed": "invents progress",
    "leaves out": "drops a code",
    "carries too little": "too little of the brief",
    "copies your instructions": "prompt copy",
    "repeats itself": "repetition",
    "last line": "echo",
    "same line": "echo",
}


def main(path: str) -> None:
    db = sqlite3.connect(path)
    last: dict[tuple[str, str], tuple[int, str]] = {}
    reasons: dict[str, int] = defaultdict(int)
    for game, decision, attempt, outcome, error in db.execute(
        "select game_id, decision_id, attempt, outcome, error from model_calls "
        "where purpose = 'narrate' order by id"
    ):
        last[(game, decision)] = (attempt, outcome)
        if outcome == "invalid":
            for key, rule in RULES.items():
                if key in error:
                    reasons[rule] += 1
    first = sum(1 for a, o in last.values() if o == "valid" and a == 1)
    retried = sum(1 for a, o in last.values() if o == "valid" and a > 1)
    replaced = sum(1 for _, o in last.values() if o == "fallback")
    by_game = sum(
        1
        for (data,) in db.execute("select data from events where kind = 'narration'")
        if "replaced" in json.loads(data)
    )
    games = len({g for g, _ in last})
    total = len(last)
    print(f"games {games}, narrate decisions {total}")
    for name, n in (("first try", first), ("retried", retried), ("replaced", replaced)):
        print(f"  {name:10} {n:3}  {n / total:.0%}" if total else f"  {name} 0")
    print(f"  replaced by the game when applied: {by_game}")
    print("  rejection reasons (attempts):", dict(sorted(reasons.items(), key=lambda r: -r[1])))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/n.sqlite")
