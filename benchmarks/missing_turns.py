"""Turn-taking in missing over scripted games: is the talk shared fairly, and what does the
cheap per-round question cost in model calls compared with asking every seat for a full
message each round?

    uv run python -m benchmarks.missing_turns --games 50

Per game: messages per seat relative to the game's mean (the spread must stay within
±30%). Calls: every round decision and every message the engine asked for, divided by the
chat messages sent; the baseline asks each AI seat for a full message every round (one
expensive call per seat per message sent).
"""

from __future__ import annotations

import argparse
import statistics

from parlour.core.rng import Rng, hash_seed
from parlour.games.missing import MODULE, MissingConfig, MissingGame


def play(seed: int, players: int) -> tuple[dict[str, int], int, int]:
    config = MODULE.make_config(players, {})
    assert isinstance(config, MissingConfig)
    game = MissingGame(config, seed)
    turns = says = 0
    while not game.is_terminal():
        decision = game.pending()[0]
        if decision.purpose == "turn":
            turns += 1
        elif decision.purpose == "message":
            says += 1
        rng = Rng(hash_seed(seed, decision.id))
        game.apply(decision.id, MODULE.policy(game.view(decision.seat), decision, rng))
    counts = {s.id: 0 for s in game.seats()}
    for event in game.events:
        # a turn may send several texts (issue 30): count turns, the unit the referee shares
        if event.kind == "message" and event.data.get("part", 1) == 1:
            counts[event.speaker] += 1
    return counts, turns, says


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    worst = 0.0
    ratios: list[float] = []
    turns_total = says_total = messages_total = baseline_total = 0
    for seed in range(args.games):
        players = 3 + seed % 5  # 3..7 players
        counts, turns, says = play(seed, players)
        mean = statistics.mean(counts.values())
        spread = max(abs(c - mean) / mean for c in counts.values())
        worst = max(worst, spread)
        ratios.extend(c / mean for c in counts.values())
        sent = sum(counts.values())
        messages_total += sent
        turns_total += turns
        says_total += says
        baseline_total += sent * players
    print(f"games: {args.games} (lantern_quay, 3-7 scripted players)")
    print(
        f"messages per seat / game mean: min {min(ratios):.2f}, max {max(ratios):.2f}; "
        f"worst spread ±{worst:.0%} (bar: ±30%)"
    )
    print(
        f"chat messages: {messages_total}; cheap round calls: {turns_total}; "
        f"message calls: {says_total}"
    )
    print(
        f"calls per message: {(turns_total + says_total) / messages_total:.2f} "
        f"({turns_total / messages_total:.2f} cheap + {says_total / messages_total:.2f} full)"
    )
    print(
        f"baseline (every seat writes a full message each round): "
        f"{baseline_total / messages_total:.2f} full calls per message"
    )


if __name__ == "__main__":
    main()
