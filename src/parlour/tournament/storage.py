"""Tournaments in the database, as the tournament code sees them (``store.tournaments``).

The parent process creates the tournament and its schedule; a worker writes the stored
game's id as soon as the game exists (so a retried or resumed game continues from its
actions); the parent writes each outcome as it arrives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.runtime.store import Store, TournamentGameRow, TournamentRow
from parlour.tournament.schedule import Match

__all__ = ["ScheduledGame", "TournamentRow"]


@dataclass(frozen=True)
class ScheduledGame:
    match: Match
    game_id: str | None
    outcome: dict[str, Any] | None


def create(store: Store, game: str, params: dict[str, Any], matches: Sequence[Match]) -> str:
    """The tournament and its whole schedule, in one transaction."""
    schedule = [TournamentGameRow(m.idx, m.seed, m.options, m.seating, None, None) for m in matches]
    return store.tournaments.create(game, params, schedule)


def get(store: Store, tid: str) -> TournamentRow:
    return store.tournaments.get(tid)


def list_all(store: Store) -> list[tuple[TournamentRow, int, int]]:
    """Every tournament with its games done and scheduled, newest first."""
    return store.tournaments.list_all()


def games(store: Store, tid: str) -> list[ScheduledGame]:
    return [
        ScheduledGame(Match(r.idx, r.seed, r.options, r.seating), r.game_id, r.outcome)
        for r in store.tournaments.games(tid)
    ]


def game_id_of(store: Store, tid: str, idx: int) -> str | None:
    return store.tournaments.game_id_of(tid, idx)


def set_game_id(store: Store, tid: str, idx: int, game_id: str) -> None:
    store.tournaments.set_game_id(tid, idx, game_id)


def record_outcome(store: Store, tid: str, idx: int, outcome: dict[str, Any]) -> None:
    store.tournaments.record_outcome(tid, idx, outcome)


def set_status(store: Store, tid: str, status: str) -> None:
    store.tournaments.set_status(tid, status)
