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

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

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

    def create_game(
        self,
        game: str,
        config_json: str,
        seed: int,
        seats: dict[str, str],
        events: Sequence[Event] = (),
    ) -> str:
        return self.games.create(game, config_json, seed, seats, events)

    def get_game(self, game_id: str) -> GameRow:
        return self.games.get(game_id)

    def list_games(
        self,
        limit: int = 50,
        *,
        game: str | None = None,
        status: str | None = None,
        tournaments: bool = True,
    ) -> list[GameRow]:
        return self.games.recent(limit, game=game, status=status, tournaments=tournaments)

    def count_tournament_games(self) -> int:
        return self.tournaments.count_games_played()

    def set_status(self, game_id: str, status: str) -> None:
        self.games.set_status(game_id, status)

    def set_seats(self, game_id: str, seats: dict[str, str]) -> None:
        self.games.set_seats(game_id, seats)

    def set_config(self, game_id: str, config: str) -> None:
        self.games.set_config(game_id, config)

    def finish_game(self, game_id: str, result: dict[str, Any]) -> None:
        self.games.finish(game_id, result)

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

    def record_actions(self, game_id: str, writes: Sequence[ActionWrite]) -> None:
        self.games.record_actions(game_id, writes)

    def actions(self, game_id: str, after: int = -1) -> list[ActionRow]:
        return self.games.actions(game_id, after)

    def record_withdrawal(self, game_id: str, decision_id: str, seat: str, after_idx: int) -> None:
        self.games.record_withdrawal(game_id, decision_id, seat, after_idx)

    def withdrawals(self, game_id: str) -> list[tuple[str, str, int]]:
        return self.games.withdrawals(game_id)

    # -- events (``self.events``) ---------------------------------------------------------

    def replace_events(self, game_id: str, events: Sequence[Event]) -> None:
        self.events.replace(game_id, events)

    def record_events(self, game_id: str, events: Sequence[Event]) -> None:
        self.events.record(game_id, events)

    def event_count(self, game_id: str) -> int:
        return self.events.count(game_id)

    def events_for(self, game_id: str, seat: str, after_seq: int = -1) -> list[Event]:
        return self.events.for_seat(game_id, seat, after_seq)

    def spectator_events(self, game_id: str, level: str, after_seq: int = -1) -> list[Event]:
        return self.events.spectator(game_id, level, after_seq)

    def groups(self, game_id: str) -> list[str]:
        return self.events.groups(game_id)

    def unresolved_seqs(self, game_id: str) -> list[int]:
        return self.events.unresolved_seqs(game_id)

    def resolve_audiences(self, game_id: str, seats: Mapping[int, Iterable[str]]) -> None:
        self.events.resolve_audiences(game_id, seats)

    # -- model calls and evaluation runs (``self.calls``) --------------------------------

    def record_call(self, call: CallRecord) -> None:
        self.calls.record(call)

    def record_eval(self, kind: str, params: dict[str, Any], summary: dict[str, Any]) -> str:
        return self.calls.record_eval(kind, params, summary)
