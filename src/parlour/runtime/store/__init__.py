"""Persistence (SQLAlchemy Core): the one package that owns storage.

A ``Store`` opens one database (SQLite by default, PostgreSQL by URL), brings its schema
up to date (``schema``) and hands out one repository per kind of record: ``games``
(games and actions), ``events`` (events and their audiences), ``calls`` (model calls,
retrievals, evaluation runs), ``tournaments``, ``links`` (the web app's), ``leases``
(hosted games and admin commands) and ``desk`` (people's open decisions and answers).
No SQL lives outside this package.

Every applied action is committed with the events it produced in one transaction, so
killing the process at any moment loses nothing that was applied. SQLite runs in WAL
mode: a commit survives a killed process without an fsync per action, and several
processes can write one file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Concatenate, ParamSpec, TypeVar

from parlour.core.actions import Action
from parlour.core.events import Event
from parlour.runtime.store.calls import AnswerRow, CallRecord, Calls, RetrievalRow
from parlour.runtime.store.desk import DeskTable, OpenDecision
from parlour.runtime.store.engine import (
    Database,
    DatabaseErrors,
    db_url,
    default_db_url,
    guarded,
    not_parlour_file,
    sqlite_path,
)
from parlour.runtime.store.events import SPECTATOR_LEVELS, Events, Progress, UnresolvedAudiences
from parlour.runtime.store.games import ActionRow, ActionWrite, GameRow, Games
from parlour.runtime.store.leases import CommandRow, LeaseRow, Leases, LeaseTable
from parlour.runtime.store.links import LinkRow, LinkTable
from parlour.runtime.store.tournaments import TournamentGameRow, TournamentRow, Tournaments

__all__ = [
    "SPECTATOR_LEVELS",
    "ActionRow",
    "ActionWrite",
    "AnswerRow",
    "CallRecord",
    "CommandRow",
    "DatabaseErrors",
    "GameRow",
    "LeaseRow",
    "Leases",
    "LinkRow",
    "OpenDecision",
    "Progress",
    "RetrievalRow",
    "Store",
    "TournamentGameRow",
    "TournamentRow",
    "UnresolvedAudiences",
    "db_url",
    "default_db_url",
    "not_parlour_file",
    "sqlite_path",
]


H = TypeVar("H")
P = ParamSpec("P")
R = TypeVar("R")


def _delegate(
    repository: Callable[[Store], H], method: Callable[Concatenate[H, P], R]
) -> Callable[Concatenate[Store, P], R]:
    """A ``Store`` method that calls ``method`` on one of the store's repositories with
    the same parameters, so the facade does not restate each repository signature."""

    def call(self: Store, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return method(repository(self), *args, **kwargs)

    call.__doc__ = method.__doc__
    return call


def _games(store: Store) -> Games:
    return store.games


def _events(store: Store) -> Events:
    return store.events


def _calls(store: Store) -> Calls:
    return store.calls


def _tournaments(store: Store) -> Tournaments:
    return store.tournaments


class Store:
    """One database and its repositories; the methods below delegate to them."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_db_url()
        self.db = Database(self.url)
        self.engine = self.db.engine
        self.where = self.db.where
        self._open()
        self.games = Games(self.db)
        self.events = Events(self.db)
        self.calls = Calls(self.db)
        self.tournaments = Tournaments(self.db)
        self.links = LinkTable(self.db)
        self.leases = LeaseTable(self.db)
        self.desk = DeskTable(self.db)

    @property
    def in_memory(self) -> bool:
        """An in-memory SQLite database: only this Store's connections can see it, so no
        second Store or other process can open the same one."""
        return self.db.in_memory

    @guarded
    def _open(self) -> None:
        self.db.migrate()

    def close(self) -> None:
        self.db.close()

    def require_writable(self) -> None:
        """Fail now, with the cause, if this database cannot be written."""
        self.games.require_writable()

    # -- games and actions (``self.games``) ----------------------------------------------

    create_game = _delegate(_games, Games.create)
    get_game = _delegate(_games, Games.get)
    list_games = _delegate(_games, Games.recent)
    count_tournament_games = _delegate(_tournaments, Tournaments.count_games_played)
    set_status = _delegate(_games, Games.set_status)
    set_seats = _delegate(_games, Games.set_seats)
    set_config = _delegate(_games, Games.set_config)
    finish_game = _delegate(_games, Games.finish)

    def record_action(
        self,
        game_id: str,
        idx: int,
        decision_id: str,
        seat: str,
        action: Action,
        events: Sequence[Event],
        by: str = "",
    ) -> None:
        """Store one applied action and the events it produced, in one transaction."""
        self.games.record_actions(
            game_id, [ActionWrite(idx, decision_id, seat, action, events, by)]
        )

    record_actions = _delegate(_games, Games.record_actions)
    actions = _delegate(_games, Games.actions)
    record_withdrawal = _delegate(_games, Games.record_withdrawal)
    withdrawals = _delegate(_games, Games.withdrawals)

    # -- events (``self.events``) ---------------------------------------------------------

    replace_events = _delegate(_events, Events.replace)
    record_events = _delegate(_events, Events.record)
    event_count = _delegate(_events, Events.count)
    events_for = _delegate(_events, Events.for_seat)
    spectator_events = _delegate(_events, Events.spectator)
    groups = _delegate(_events, Events.groups)
    unresolved_seqs = _delegate(_events, Events.unresolved_seqs)
    resolve_audiences = _delegate(_events, Events.resolve_audiences)

    # -- model calls and evaluation runs (``self.calls``) --------------------------------

    record_call = _delegate(_calls, Calls.record)
    record_eval = _delegate(_calls, Calls.record_eval)
