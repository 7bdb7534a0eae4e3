"""How long ``parlour audit`` takes on a large game, against a bare replay of the same game.

Plays one full 90-minute game of missing (five players, every seat the indiscreet model,
markers planted: the most marker-laden game the engine makes) into a temporary database,
then times, in the same run:

* the baseline: rebuilding the game and re-applying every stored answer, nothing scanned;
* the audit: the same replay with every view of every seat at every step and every stored
  prompt scanned and attributed (``runtime/audit.py``).

Run: ``uv run python benchmarks/audit_speed.py [--seed N] [--minutes M]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import parlour
from parlour.runtime.audit import audit_game
from parlour.runtime.session import opening
from parlour.runtime.store import Store


def replay_seconds(store: Store, game_id: str) -> float:
    started = time.perf_counter()
    _, game = opening(store.get_game(game_id))
    for act in store.actions(game_id):
        game.apply(act.decision_id, act.action)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--minutes", type=int, default=90, help="the game's length")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        played = parlour.play(
            "missing",
            model="indiscreet",
            seed=args.seed,
            players=5,
            options={"plant_markers": True, "minutes": args.minutes},
            db=Path(folder) / "big.sqlite",
        )
        store = played.store
        actions = len(store.actions(played.game_id))
        calls = len(store.calls(played.game_id))
        baseline = replay_seconds(store, played.game_id)
        report = audit_game(store, played.game_id)
        print(f"game: missing, {args.minutes} minutes, {actions} answers, {calls} stored prompts")
        print(
            f"audit: {report.status}, {len(report.leaks)} leaks, "
            f"{len(report.disclosures)} disclosures, "
            f"{sum(s.views for s in report.seats.values())} views scanned"
        )
        print(f"bare replay: {baseline:.2f} s")
        print(f"audit:       {report.seconds:.2f} s ({report.seconds / baseline:.1f}x the replay)")


if __name__ == "__main__":
    main()
