"""Pacing of missing over scripted games: at which minute of the clock is each clue found,
and does the last third of the clock still bring clues? Also how the talk reads: how
often a message answers another, and how often the most repeated line comes back.

    uv run python -m benchmarks.missing_pacing --games 50

Each game is Lantern Quay with five scripted seats, seeds 1..N, played in-process. The
baseline, in the same run, is the same games without pacing: searches cost no clock time
and every clue can be found from the first minute (``available_at`` dropped).
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from parlour.core.rng import Rng, hash_seed
from parlour.games.missing import MODULE, MissingConfig, MissingGame
from parlour.games.missing.town import Town


@dataclass
class Played:
    #: clue id → minute of the clock (elapsed) at which it was found
    found: dict[str, float] = field(default_factory=dict)
    turns: int = 0
    texts: int = 0
    replies: int = 0
    most_repeated: int = 0


def _unpaced(town: Town) -> Town:
    places = tuple(
        loc.model_copy(
            update={"clues": tuple(c.model_copy(update={"available_at": None}) for c in loc.clues)}
        )
        for loc in town.locations
    )
    return town.model_copy(update={"locations": places, "search_cost": 0.0})


def play(seed: int, paced: bool, players: int) -> Played:
    config = MODULE.make_config(players, {})
    assert isinstance(config, MissingConfig)
    if not paced:
        config = config.model_copy(update={"town": _unpaced(config.town)})
    game = MissingGame(config, seed)
    while not game.is_terminal():
        decision = game.pending()[0]
        rng = Rng(hash_seed(seed, decision.id))
        game.apply(decision.id, MODULE.policy(game.view(decision.seat), decision, rng))
    out = Played()
    total = config.clock_seconds
    lines: Counter[str] = Counter()
    for event in game.events:
        if event.kind == "found" and event.data.get("clue"):
            minutes, seconds = (int(x) for x in str(event.data["clock"]).split(":"))
            out.found[str(event.data["clue"])] = (total - 60 * minutes - seconds) / 60
        elif event.kind == "message" and event.phase == "chat":
            out.texts += 1
            lines[event.text] += 1
            if event.data.get("part", 1) == 1:
                out.turns += 1
                out.replies += "reply_to" in event.data
    out.most_repeated = max(lines.values(), default=0)
    return out


def _found_between(played: Played, low: float, high: float) -> int:
    """How many clues the game found from minute ``low`` up to (not at) minute ``high``."""
    return sum(low <= m < high for m in played.found.values())


def _mmss(minutes: float) -> str:
    whole = round(minutes * 60)
    return f"{whole // 60:02d}:{whole % 60:02d}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    config = MODULE.make_config(args.players, {})
    assert isinstance(config, MissingConfig)
    minutes = config.clock_seconds / 60
    third = minutes / 3
    clues = [c.id for loc in config.town.locations for c in loc.clues]
    runs = {
        label: [play(seed, paced, args.players) for seed in range(1, args.games + 1)]
        for label, paced in (("paced", True), ("baseline", False))
    }
    paced = runs["paced"]
    print(f"missing pacing: {args.games} scripted games, {args.players} seats, Lantern Quay")
    print(f"minute of the {minutes:g}-minute clock at which each clue was found (paced)")
    print(f"{'clue':<16}{'found in':>10}{'earliest':>10}{'median':>10}{'latest':>10}")
    for clue in clues:
        at = [p.found[clue] for p in paced if clue in p.found]
        if not at:
            print(f"{clue:<16}{'0/' + str(len(paced)):>10}")
            continue
        print(
            f"{clue:<16}{f'{len(at)}/{len(paced)}':>10}{_mmss(min(at)):>10}"
            f"{_mmss(statistics.median(at)):>10}{_mmss(max(at)):>10}"
        )
    print()
    head = f"{'':<34}" + "".join(f"{label:>12}" for label in runs)
    print(head)

    def row(name: str, cell: Callable[[list[Played]], object]) -> None:
        """One line of the table: ``cell`` of each run's games, under the run's label."""
        print(f"{name:<34}" + "".join(f"{cell(ps)!s:>12}" for ps in runs.values()))

    def found_between(low: float, high: float) -> Callable[[list[Played]], str]:
        return lambda ps: f"{statistics.mean(_found_between(p, low, high) for p in ps):.1f}"

    def per_turn(count: Callable[[Played], int]) -> Callable[[list[Played]], float]:
        return lambda ps: sum(count(p) for p in ps) / max(1, sum(p.turns for p in ps))

    for n in range(3):
        low, high = n * third, (n + 1) * third
        row(f"clues found {_mmss(low)}-{_mmss(high)} (mean)", found_between(low, high))
    last = 2 * third
    row(
        "games with a clue in the last third",
        lambda ps: f"{sum(_found_between(p, last, math.inf) > 0 for p in ps)}/{len(ps)}",
    )
    row(
        "clues found (mean of 15)",
        lambda ps: f"{statistics.mean(len(p.found) for p in ps):.1f}",
    )
    row(
        "last clue found at (median)",
        lambda ps: _mmss(statistics.median(max(p.found.values(), default=0) for p in ps)),
    )
    replies, texts = per_turn(lambda p: p.replies), per_turn(lambda p: p.texts)
    row("turns that answer a message", lambda ps: f"{replies(ps):.0%}")
    row("texts per turn (mean)", lambda ps: f"{texts(ps):.2f}")
    row("most repeated line (max per game)", lambda ps: max(p.most_repeated for p in ps))


if __name__ == "__main__":
    main()
