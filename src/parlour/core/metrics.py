"""What a tournament keeps from one finished game, and the metrics a game declares.

Every game gets the generic facts (each player seat its own side, ranked by its return;
a seat won if it is among the winners). A game says more by handing a ``GameMetrics`` on
its ``GameModule.metrics``: its roles and sides, per-seat counters, and the ratios reported
from them (a ratio is the sum of a numerator counter over the sum of a denominator counter,
per entrant and role, so games of different lengths weigh by what happened in them).
Metrics are computed from the finished game alone, so they are rules-level: a game's
``metrics.py`` imports only core and the game itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from parlour.core.events import Event
from parlour.core.game import Game, Result


@dataclass(frozen=True)
class Ratio:
    """``numerator / denominator`` over the seats of an entrant (or a role)."""

    name: str
    numerator: str
    denominator: str
    describe: str
    percent: bool = True


@dataclass(frozen=True)
class GameFacts:
    roles: dict[str, str]  # player seat → role ("player" when the game has none)
    sides: list[list[str]]  # seats that win or lose together
    ranks: list[int]  # rank of each side, 0 best (ties share a rank)
    won: dict[str, bool]
    counters: dict[str, dict[str, float]] = field(default_factory=dict)  # seat → name → n
    game: dict[str, float] = field(default_factory=dict)  # per-game figures

    def to_json(self) -> dict[str, Any]:
        """Every field by name (a copy: JSON-ready plain data)."""
        return asdict(self)


FactsFn = Callable[[Game, Result, Sequence[str]], GameFacts]


@dataclass(frozen=True)
class TalkLine:
    """One line a person reads, as a game hands it to the talk-quality measure
    (``evals/talk_quality.py``): what was said, not how the screen frames it."""

    seq: int  # the event that showed it (the first, when several texts make one line)
    seat: str  # the seat whose answer wrote it (a director writes its NPCs' lines)
    voice: str  # who says it to the reader (the seat, or an NPC the seat voices)
    text: str  # the words, without the game's frame ("Name: “...”")
    #: A line the game rendered from a choice (a speech act): a part of the id of the
    #: decision whose choice it renders (e.g. ":speak:"); "" when the text is the answer's
    #: own words.
    rendered_from: str = ""
    #: A clause the game frames rather than a sentence (a check's reason after its dice):
    #: the talk measure does not count it as cut off for lacking a full stop.
    phrase: bool = False


#: The lines a person reads in a game's event log, in order.
TalkFn = Callable[[Sequence[Event]], list[TalkLine]]


@dataclass(frozen=True)
class GameMetrics:
    facts: FactsFn
    ratios: tuple[Ratio, ...] = ()
    #: Rule variants a one-entrant tournament (a balance check) crosses by default.
    balance_grid: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    #: A per-game figure reported per rule set with a CI (e.g. the village's win rate).
    headline: tuple[str, str] | None = None  # (key in GameFacts.game, label)
    #: The game's talk for the talk-quality measure; None: every event with a speaker.
    talk: TalkFn | None = None


def dense_ranks(scores: Sequence[float]) -> list[int]:
    """Rank 0 for the highest score; equal scores share a rank."""
    order = sorted(set(scores), reverse=True)
    return [order.index(s) for s in scores]


def generic_facts(game: Game, result: Result, player_seats: Sequence[str]) -> GameFacts:
    returns = [result.returns.get(s, 1.0 if s in result.winners else 0.0) for s in player_seats]
    return GameFacts(
        roles={s: "player" for s in player_seats},
        sides=[[s] for s in player_seats],
        ranks=dense_ranks(returns),
        won={s: s in result.winners for s in player_seats},
    )


#: The metrics of a game that declares none: ratings and win rates from its returns.
GENERIC = GameMetrics(generic_facts)
