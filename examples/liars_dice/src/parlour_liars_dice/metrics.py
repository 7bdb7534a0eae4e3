"""What a tournament can measure in a finished game of liar's dice, from the event log
(the engine's truth), never from anything a seat said.

Per seat: bids made, liar calls, calls that were right, dice lost, dice lost as a
bidder. The ratios are sums over a tournament entrant's seats (numerator over
denominator), so long and short games weigh by what happened in them. Pure: it reads a
finished game and imports nothing beyond ``parlour.core`` and this package.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.game import Game, Result
from parlour.core.metrics import GameFacts, GameMetrics, Ratio, generic_facts

COUNTERS = ("bids", "calls", "calls_right", "dice_lost", "caught_bluffing")

RATIOS = (
    Ratio("call_accuracy", "calls_right", "calls", "liar calls that were right"),
    Ratio("bluffs_caught", "caught_bluffing", "bids", "bids that were called and wrong"),
)


def seat_counters(game: Game, seats: Sequence[str]) -> dict[str, dict[str, float]]:
    """Seat → counter → count, from the game's bid and challenge events."""
    counters = {s: dict.fromkeys(COUNTERS, 0.0) for s in seats}
    for event in game.events:
        if event.kind == "bid":
            bidder = str(event.data["bidder"])
            if bidder in counters:
                counters[bidder]["bids"] += 1
        elif event.kind == "challenge":
            challenger, bidder = str(event.data["challenger"]), str(event.data["bidder"])
            loser = str(event.data["loser"])
            if challenger in counters:
                counters[challenger]["calls"] += 1
                counters[challenger]["calls_right"] += loser == bidder
            if loser in counters:
                counters[loser]["dice_lost"] += 1
            if bidder in counters:
                counters[bidder]["caught_bluffing"] += loser == bidder
    return counters


def rounds_played(game: Game) -> int:
    """How many rounds ended in a challenge."""
    return sum(event.kind == "challenge" for event in game.events)


def facts(game: Game, result: Result, seats: Sequence[str]) -> GameFacts:
    """Every seat its own side, ranked by its return, with its counters and the rounds."""
    base = generic_facts(game, result, seats)
    return GameFacts(
        roles=base.roles,
        sides=base.sides,
        ranks=base.ranks,
        won=base.won,
        counters=seat_counters(game, seats),
        game={"rounds": float(rounds_played(game))},
    )


#: What ``parlour tournament liars_dice`` reports beyond ratings and win rates.
METRICS = GameMetrics(facts=facts, ratios=RATIOS)
