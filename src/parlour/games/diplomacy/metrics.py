"""Diplomacy's tournament metrics: centre share, solos, survival (definitions:
docs/tournaments.md), read from the finished board.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.game import Game, Result
from parlour.core.metrics import GameFacts, GameMetrics, Ratio, dense_ranks
from parlour.games.diplomacy.game import DiplomacyGame


def diplomacy_facts(game: Game, result: Result, player_seats: Sequence[str]) -> GameFacts:

    assert isinstance(game, DiplomacyGame)
    counts = game.board.centre_counts()
    total = len(game.board.game_map.supply_centres)
    gone = set(game.state.eliminated)
    solo = result.winners[0] if result.winners else None
    counters = {
        s: {
            "games": 1,
            "centre_share": counts.get(s, 0) / total,
            "solo": float(s == solo),
            "survived": float(s not in gone),
        }
        for s in player_seats
    }
    return GameFacts(
        roles={s: s for s in player_seats},  # the power is the role
        sides=[[s] for s in player_seats],
        ranks=dense_ranks([float(counts.get(s, 0)) for s in player_seats]),
        won={s: s == solo for s in player_seats},
        counters=counters,
        game={"solo": float(solo is not None)},
    )


METRICS = GameMetrics(
    diplomacy_facts,
    ratios=(
        Ratio("centre share", "centre_share", "games", "mean share of the supply centres"),
        Ratio("solos", "solo", "games", "games won alone"),
        Ratio("survival", "survived", "games", "games ended with the power alive"),
    ),
    headline=("solo", "solo rate"),
)
