"""Persistence of games, actions, events and model calls (SQLAlchemy Core).

Every applied action is committed with the events it produced in one transaction, so
killing the process at any moment loses nothing that was applied. SQLite runs in WAL
mode: a commit survives a killed process without an fsync per action.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from platformdirs import user_data_dir

from parlour.core.actions import Action, action_from_json
from parlour.core.errors import ParlourError
from parlour.core.events import Audience, Event
from parlour.runtime import schema


def default_db_url() -> str:
    """The user's data dir (platformdirs), overridable with ``PARLOUR_DB``."""
    env = os.environ.get("PARLOUR_DB")
    if env:
        return db_url(env)
    return db_url(str(Path(user_data_dir("parlour")) / "parlour.sqlite"))


def db_url(target: str) -> str:
    """Accept a SQLAlchemy URL or a plain file path."""
    if "://" in target:
        return target
    return f"sqlite:///{Path(target).expanduser().resolve()}"


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
class CallRecord:
    """One model call attempt, as stored (see DESIGN: every model call is stored)."""

    game_id: str
    seat: str
    decision_id: str
    purpose: str
    phase: str
    attempt: int
    model_id: str
    cache_key: str
    messages: list[dict[str, Any]]
    messages_digest: str
    output_spec: dict[str, Any]
    response_text: str
    parsed: Any
    outcome: str  # "valid" | "invalid" | "error" | "fallback"
    error: str
    input_tokens: int
    output_tokens: int
    cached_tokens: int
    latency_s: float
    cost_usd: float


class Store:
    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_db_url()
        if self.url.startswith("sqlite:///"):
            path = Path(self.url.removeprefix("sqlite:///"))
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise ParlourError(
                    f"cannot create the database folder {path.parent} ({err.strerror}); "
                    "pass --db PATH to a writable location"
                ) from err
        self.engine = sa.create_engine(self.url, future=True)
        self._raw: Any = None
        self._insert_action = _Compiled(schema.actions.insert(), self.engine.dialect)
        self._insert_event = _Compiled(schema.events.insert(), self.engine.dialect)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            with self.engine.begin() as conn:
                schema.migrate(conn)
        except sa.exc.OperationalError as err:
            raise ParlourError(
                f"cannot open the database at {self.url} ({err.orig}); "
                "pass --db PATH to a writable file"
            ) from err

    # -- games ---------------------------------------------------------------------------

    def create_game(self, game: str, config_json: str, seed: int, seats: dict[str, str]) -> str:
        game_id = f"{game[:2]}-{secrets.token_hex(4)}"
        now = time.time()
        with self.engine.begin() as conn:
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
        return game_id

    def get_game(self, game_id: str) -> GameRow:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(schema.games).where(schema.games.c.id == game_id)).first()
        if row is None:
            raise ParlourError(
                f"no game with id '{game_id}'; run `parlour list` to see saved games"
            )
        return _game_row(row)

    def list_games(
        self, limit: int = 50, *, game: str | None = None, status: str | None = None
    ) -> list[GameRow]:
        query = sa.select(schema.games)
        if game is not None:
            query = query.where(schema.games.c.game == game)
        if status is not None:
            query = query.where(schema.games.c.status == status)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(schema.games.c.created_at.desc()).limit(limit)).all()
        return [_game_row(r) for r in rows]

    def set_status(self, game_id: str, status: str) -> None:
        """``running`` or ``paused`` (stopped by the player; ``resume`` continues it).
        A finished game keeps its status."""
        with self.engine.begin() as conn:
            conn.execute(
                schema.games.update()
                .where(schema.games.c.id == game_id, schema.games.c.status != "finished")
                .values(status=status, updated_at=time.time())
            )

    def set_seats(self, game_id: str, seats: dict[str, str]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                schema.games.update()
                .where(schema.games.c.id == game_id)
                .values(seats=json.dumps(seats), updated_at=time.time())
            )

    def finish_game(self, game_id: str, result: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                schema.games.update()
                .where(schema.games.c.id == game_id)
                .values(status="finished", result=json.dumps(result), updated_at=time.time())
            )

    # -- actions and events --------------------------------------------------------------

    def _writer(self) -> Any:
        """A long-lived DBAPI connection for the per-action writes.

        The hot path skips SQLAlchemy's execution machinery (it costs more than the insert
        itself) but runs SQL that SQLAlchemy compiled for this engine's dialect, so it stays
        portable to PostgreSQL.
        """
        if self._raw is None:
            self._raw = self.engine.raw_connection()
        return self._raw

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
        raw = self._writer()
        cursor = raw.cursor()
        try:
            cursor.execute(
                *self._insert_action.bind(
                    {
                        "game_id": game_id,
                        "idx": idx,
                        "decision_id": decision_id,
                        "seat": seat,
                        "action": action.model_dump_json(),
                        "by": by,
                        "created_at": time.time(),
                    }
                )
            )
            if events:
                sql, rows = self._insert_event.bind_many(
                    [_event_values(game_id, e) for e in events]
                )
                cursor.executemany(sql, rows)
            raw.commit()
        except self.engine.dialect.loaded_dbapi.IntegrityError as err:
            raw.rollback()
            raise ParlourError(
                f"game {game_id} already has action #{idx}; is it running in another "
                "process? Stop that one, then `parlour resume` it"
            ) from err
        except BaseException:
            raw.rollback()
            raise
        finally:
            cursor.close()

    def record_events(self, game_id: str, events: Sequence[Event]) -> None:
        """Events produced without an action (e.g. the opening events of ``new``)."""
        if not events:
            return
        with self.engine.begin() as conn:
            conn.execute(schema.events.insert(), [_event_values(game_id, e) for e in events])

    def close(self) -> None:
        if self._raw is not None:
            self._raw.close()
            self._raw = None
        self.engine.dispose()

    def actions(self, game_id: str) -> list[ActionRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(schema.actions)
                .where(schema.actions.c.game_id == game_id)
                .order_by(schema.actions.c.idx)
            ).all()
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

    def event_count(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            count = conn.execute(
                sa.select(sa.func.count())
                .select_from(schema.events)
                .where(schema.events.c.game_id == game_id)
            ).scalar()
        return int(count or 0)

    def events(self, game_id: str) -> list[Event]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(schema.events)
                .where(schema.events.c.game_id == game_id)
                .order_by(schema.events.c.seq)
            ).all()
        return [
            Event(
                seq=r.seq,
                kind=r.kind,
                phase=r.phase,
                audience=Audience.model_validate_json(r.audience),
                speaker=r.speaker,
                text=r.text,
                data=json.loads(r.data),
            )
            for r in rows
        ]

    # -- model calls ---------------------------------------------------------------------

    def record_call(self, call: CallRecord) -> None:
        values = {
            **call.__dict__,
            "messages": json.dumps(call.messages),
            "output_spec": json.dumps(call.output_spec),
            "parsed": None if call.parsed is None else json.dumps(call.parsed),
            "created_at": time.time(),
        }
        with self.engine.begin() as conn:
            conn.execute(schema.model_calls.insert().values(**values))

    def calls(self, game_id: str) -> list[CallRecord]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(schema.model_calls)
                .where(schema.model_calls.c.game_id == game_id)
                .order_by(schema.model_calls.c.id)
            ).all()
        out: list[CallRecord] = []
        for r in rows:
            data = dict(r._mapping)
            data.pop("id")
            data.pop("created_at")
            data["messages"] = json.loads(data["messages"])
            data["output_spec"] = json.loads(data["output_spec"])
            data["parsed"] = None if data["parsed"] is None else json.loads(data["parsed"])
            out.append(CallRecord(**data))
        return out

    # -- evaluation runs -----------------------------------------------------------------

    def record_eval(self, kind: str, params: dict[str, Any], summary: dict[str, Any]) -> str:
        run_id = f"ev-{secrets.token_hex(4)}"
        with self.engine.begin() as conn:
            conn.execute(
                schema.eval_runs.insert().values(
                    id=run_id,
                    kind=kind,
                    params=json.dumps(params),
                    summary=json.dumps(summary),
                    created_at=time.time(),
                )
            )
        return run_id


class _Compiled:
    """An INSERT compiled once for a dialect, with its parameters in DBAPI order."""

    def __init__(self, statement: sa.Insert, dialect: sa.Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        self.order: tuple[str, ...] | None = (
            tuple(compiled.positiontup) if compiled.positional and compiled.positiontup else None
        )

    def _params(self, values: dict[str, Any]) -> Any:
        if self.order is None:
            return values
        return tuple(values[name] for name in self.order)

    def bind(self, values: dict[str, Any]) -> tuple[str, Any]:
        return self.sql, self._params(values)

    def bind_many(self, rows: list[dict[str, Any]]) -> tuple[str, list[Any]]:
        return self.sql, [self._params(r) for r in rows]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _event_values(game_id: str, event: Event) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seq": event.seq,
        "kind": event.kind,
        "phase": event.phase,
        "audience": event.audience.model_dump_json(),
        "speaker": event.speaker,
        "text": event.text,
        "data": json.dumps(event.data, sort_keys=True),
    }


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
