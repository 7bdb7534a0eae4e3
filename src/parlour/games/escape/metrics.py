"""Escape's tournament metrics: solve rate, turns to solve, wrong answers, hints
(definitions: docs/tournaments.md), read from the finished game's state and events.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.events import Event
from parlour.core.game import Game, Result
from parlour.core.metrics import GameFacts, GameMetrics, Ratio, TalkLine
from parlour.games.escape.game import EscapeGame


def escape_facts(game: Game, result: Result, player_seats: Sequence[str]) -> GameFacts:

    assert isinstance(game, EscapeGame)
    snap: dict[str, Any] = game.snapshot()
    solved = float(bool(result.winners))
    wrong = sum(
        1 for e in game.events if e.kind == "outcome" and e.data.get("kind") == "wrong_answer"
    )
    seat = player_seats[0]
    counters = {
        seat: {
            "games": 1,
            "solved": solved,
            "turns_solved": float(snap["turn"]) * solved,
            "wrong_answers": float(wrong),
            "hints": float(game.hints_used),
        }
    }
    return GameFacts(
        roles={seat: "player"},
        sides=[[seat]],
        ranks=[0],
        won={seat: bool(solved)},
        counters=counters,
        game={"solved": solved, "turns": float(snap["turn"])},
    )


def escape_talk(events: Sequence[Event]) -> list[TalkLine]:
    """The talk-quality measure's lines: the narrator's narration and the player's messages."""
    return [
        TalkLine(e.seq, e.speaker, e.speaker, e.text)
        for e in events
        if e.kind in ("narration", "message") and e.speaker
    ]


METRICS = GameMetrics(
    escape_facts,
    ratios=(
        Ratio("solve rate", "solved", "games", "games ending in a good ending"),
        Ratio("turns to solve", "turns_solved", "solved", "mean turns of solved games", False),
        Ratio(
            "wrong answers",
            "wrong_answers",
            "games",
            "actions tried with a wrong answer, per game",
            False,
        ),
        Ratio("hints", "hints", "games", "hints used per game", False),
    ),
    headline=("solved", "solve rate"),
    talk=escape_talk,
)
