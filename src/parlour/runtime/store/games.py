"""Games and their actions (``store.games``): the truth a game is rebuilt from.

Every applied action is committed with the events it produced in one transaction, so
killing the process at any moment loses nothing that was applied; a new game's row and
its opening events are one transaction too.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from parlour.core.actions import Action, action_from_json
from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.core.events import Event
from parlour.runtime.store import schema
from parlour.runtime.store.engine import Compiled, Database, guarded
from parlour.runtime.store.events import event_values, insert_events, seat_rows


@dataclass(frozen=True)
class GameRow:
    id: str
    game: str
    config: str
    seed: int
    seats: dict[str, str]
    status: str
    result: dict[str, Any] | None
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class ActionRow:
    idx: int
    decision_id: str
    seat: str
    action: Action
    by: str


@dataclass(frozen=True)
class ActionWrite:
    """One applied action and the events it produced, as ``record_actions`` stores it."""

    idx: int
    decision_id: str
    seat: str
    action: Action
    events: Sequence[Event]
    by: str = ""


class Games:
    """The ``games``, ``actions`` and ``withdrawals`` tables."""

    def __init__(self, db: Database) -> None:
        self.db = db
        dialect = db.engine.dialect
        self._insert_action = Compiled(schema.actions.insert(), dialect)
        self._insert_event = Compiled(schema.events.insert(), dialect)
        self._insert_seat = Compiled(schema.event_seats.insert(), dialect)

    @guarded
    def create(
        self,
        game: str,
        config_json: str,
        seed: int,
        seats: dict[str, str],
        events: Sequence[Event] = (),
    ) -> str:
        """Store a new game with its opening events, in one transaction (a crash leaves
        either the whole start or nothing). Ids carry 64 random bits."""
        game_id = f"{game[:2]}-{secrets.token_hex(8)}"
        now = time.time()
        with self.db.engine.begin() as conn:
            conn.execute(
                schema.games.insert().values(
                    id=game_id,
                    game=game,
                    config=config_json,
                    seed=seed,
                    seats=json.dumps(seats),
                    status="running",
                    result=None,
                    created_at=now,
                    updated_at=now,
                )
            )
            insert_events(conn, game_id, events)
        return game_id

    @guarded
    def get(self, game_id: str) -> GameRow:
        row = self.db.first(sa.select(schema.games).where(schema.games.c.id == game_id))
        if row is None:
            raise ParlourError(
                f"no game with id '{game_id}'; run `{command('list')}` to see saved games"
            )
        return _game_row(row)

    @guarded
    def recent(
        self,
        limit: int = 50,
        *,
        game: str | None = None,
        status: str | None = None,
        tournaments: bool = True,
    ) -> list[GameRow]:
        """The newest games first; ``tournaments=False`` leaves out the games a tournament
        played (a 40-game tournament would otherwise fill a lobby's list)."""
        query = sa.select(schema.games)
        if game is not None:
            query = query.where(schema.games.c.game == game)
        if status is not None:
            query = query.where(schema.games.c.status == status)
        if not tournaments:
            played = sa.select(schema.tournament_games.c.game_id).where(
                schema.tournament_games.c.game_id.is_not(None)
            )
            query = query.where(schema.games.c.id.not_in(played))
        rows = self.db.rows(query.order_by(schema.games.c.created_at.desc()).limit(limit))
        return [_game_row(r) for r in rows]

    def _update(self, game_id: str, *extra: sa.ColumnElement[bool], **values: Any) -> None:
        g = schema.games
        with self.db.engine.begin() as conn:
            conn.execute(
                g.update().where(g.c.id == game_id, *extra).values(**values, updated_at=time.time())
            )

    @guarded
    def set_status(self, game_id: str, status: str) -> None:
        """``running`` or ``paused`` (stopped by the player; ``resume`` continues it).
        A finished game keeps its status."""
        self._update(game_id, schema.games.c.status != "finished", status=status)

    @guarded
    def set_seats(self, game_id: str, seats: dict[str, str]) -> None:
        self._update(game_id, seats=json.dumps(seats))

    @guarded
    def set_config(self, game_id: str, config: str) -> None:
        """A takeover's config (e.g. a power becomes a bot from the next phase); the
        stored actions replay under it, checked by the caller."""
        self._update(game_id, config=config)

    @guarded
    def finish(self, game_id: str, result: dict[str, Any]) -> None:
        self._update(game_id, status="finished", result=json.dumps(result))

    # -- actions -------------------------------------------------------------------------

    @guarded
    def record_actions(self, game_id: str, writes: Sequence[ActionWrite]) -> None:
        """Store applied actions (e.g. every answer of a batch) and their events, in one
        transaction: all of them or none."""
        if not writes:
            return
        now = time.time()
        actions = [
            {
                "game_id": game_id,
                "idx": w.idx,
                "decision_id": w.decision_id,
                "seat": w.seat,
                "action": w.action.model_dump_json(),
                "by": w.by,
                "created_at": now,
            }
            for w in writes
        ]
        events = [e for w in writes for e in w.events]
        try:
            self.db.insert(
                (self._insert_action, actions),
                (self._insert_event, [event_values(game_id, e) for e in events]),
                (self._insert_seat, seat_rows(game_id, events)),
            )
        except self.db.integrity_error as err:
            first = writes[0].idx
            raise ParlourError(
                f"game {game_id} already has action #{first}; is it running in another "
                f"process? Stop that one, then `{command('resume ' + game_id)}` it"
            ) from err

    @guarded
    def actions(self, game_id: str, after: int = -1) -> list[ActionRow]:
        """The game's stored actions with an index above ``after``, in order."""
        a = schema.actions
        rows = self.db.rows(
            sa.select(a).where((a.c.game_id == game_id) & (a.c.idx > after)).order_by(a.c.idx)
        )
        return [
            ActionRow(
                idx=r.idx,
                decision_id=r.decision_id,
                seat=r.seat,
                action=action_from_json(r.action),
                by=r.by,
            )
            for r in rows
        ]

    @guarded
    def record_withdrawal(self, game_id: str, decision_id: str, seat: str, after_idx: int) -> None:
        """A decision that vanished from ``pending()`` before its answer was applied
        (never applied, never a fallback); ``after_idx`` is the action that closed it."""
        self.db.add_row(
            schema.withdrawals,
            game_id=game_id,
            decision_id=decision_id,
            seat=seat,
            after_idx=after_idx,
        )

    @guarded
    def withdrawals(self, game_id: str) -> list[tuple[str, str, int]]:
        """``(decision_id, seat, after_idx)`` of a game's withdrawn decisions, in order."""
        w = schema.withdrawals
        rows = self.db.rows(
            sa.select(w.c.decision_id, w.c.seat, w.c.after_idx)
            .where(w.c.game_id == game_id)
            .order_by(w.c.id)
        )
        return [(r.decision_id, r.seat, int(r.after_idx)) for r in rows]

    @guarded
    def require_writable(self) -> None:
        """Fail now, with the cause, if this database cannot be written (a read-only URI or
        file): a write is tried and rolled back, so nothing changes."""
        with self.db.engine.connect() as conn:
            conn.execute(schema.schema_version.insert().values(version=0))
            conn.rollback()


def _game_row(row: sa.Row[Any]) -> GameRow:
    return GameRow(
        id=row.id,
        game=row.game,
        config=row.config,
        seed=int(row.seed),
        seats=json.loads(row.seats),
        status=row.status,
        result=json.loads(row.result) if row.result else None,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )
