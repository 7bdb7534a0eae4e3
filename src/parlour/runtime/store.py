"""Persistence of games, actions, events and model calls (SQLAlchemy Core).

Every applied action is committed with the events it produced in one transaction, so
killing the process at any moment loses nothing that was applied; a new game's row and
its opening events are one transaction too. SQLite runs in WAL mode: a commit survives a
killed process without an fsync per action, and several processes can write one file.
Each event's audience is stored resolved to seats (``schema.event_seats``), so "what may
this seat see since N" is one indexed query (``events_for``), not a replay.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import sqlalchemy as sa
from platformdirs import user_data_dir

from parlour.core.actions import Action, action_from_json
from parlour.core.errors import ParlourError
from parlour.core.events import Audience, Event
from parlour.runtime import schema
from parlour.runtime.db_errors import describe, engine_error, where

P = ParamSpec("P")
R = TypeVar("R")


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
class ActionWrite:
    """One applied action and the events it produced, as ``record_actions`` stores it."""

    idx: int
    decision_id: str
    seat: str
    action: Action
    events: Sequence[Event]
    by: str = ""


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


class UnresolvedAudiences(ParlourError):
    """A game has group-audience events stored without their seats (see ``audiences``)."""


#: Spectator reveal levels of ``Store.spectator_events``.
SPECTATOR_LEVELS = ("public", "team:GROUP", "everything")


def _guarded(method: Callable[Concatenate[Store, P], R]) -> Callable[Concatenate[Store, P], R]:
    """Driver errors (damaged file, read-only URI, lost server) become one-line errors."""

    def wrapper(self: Store, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        except ParlourError:
            raise
        except (sa.exc.DBAPIError, self._driver_error) as err:
            raise ParlourError(describe(err, self.where)) from err

    functools.update_wrapper(wrapper, method)
    return wrapper


class Store:
    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_db_url()
        try:
            parsed = sa.make_url(self.url)
            self.engine = sa.create_engine(parsed, **_engine_options(parsed))
        except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ModuleNotFoundError) as err:
            raise engine_error(err, self.url) from err
        self.where = where(parsed)
        self._driver_error: type[Exception] = self.engine.dialect.loaded_dbapi.Error
        if self.engine.dialect.name == "sqlite":
            _make_folder(parsed)
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self._raw: Any = None
        # The per-action writes share one DBAPI connection; several games' writer threads
        # in one process (a host) take turns on it (a DBAPI connection is not shared
        # between threads at once).
        self._raw_lock = threading.Lock()
        self._insert_action = _Compiled(schema.actions.insert(), self.engine.dialect)
        self._insert_event = _Compiled(schema.events.insert(), self.engine.dialect)
        self._insert_seat = _Compiled(schema.event_seats.insert(), self.engine.dialect)
        self._audiences: dict[str, Audience] = {}
        self._open()

    @property
    def in_memory(self) -> bool:
        """An in-memory SQLite database: only this Store's connections can see it, so no
        second Store or other process can open the same one."""
        url = self.engine.url
        return url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")

    @_guarded
    def _open(self) -> None:
        schema.migrate_locked(self.engine)

    # -- games ---------------------------------------------------------------------------

    @_guarded
    def create_game(
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
            _insert_events(conn, game_id, events)
        return game_id

    @_guarded
    def get_game(self, game_id: str) -> GameRow:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(schema.games).where(schema.games.c.id == game_id)).first()
        if row is None:
            raise ParlourError(
                f"no game with id '{game_id}'; run `parlour list` to see saved games"
            )
        return _game_row(row)

    @_guarded
    def list_games(
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
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(schema.games.c.created_at.desc()).limit(limit)).all()
        return [_game_row(r) for r in rows]

    def count_tournament_games(self) -> int:
        with self.engine.connect() as conn:
            count = conn.execute(
                sa.select(sa.func.count()).where(schema.tournament_games.c.game_id.is_not(None))
            ).scalar_one()
        return int(count)

    @_guarded
    def set_status(self, game_id: str, status: str) -> None:
        """``running`` or ``paused`` (stopped by the player; ``resume`` continues it).
        A finished game keeps its status."""
        with self.engine.begin() as conn:
            conn.execute(
                schema.games.update()
                .where(schema.games.c.id == game_id, schema.games.c.status != "finished")
                .values(status=status, updated_at=time.time())
            )

    @_guarded
    def set_seats(self, game_id: str, seats: dict[str, str]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                schema.games.update()
                .where(schema.games.c.id == game_id)
                .values(seats=json.dumps(seats), updated_at=time.time())
            )

    @_guarded
    def set_config(self, game_id: str, config: str) -> None:
        """A takeover's config (e.g. a power becomes a bot from the next phase); the
        stored actions replay under it, checked by the caller."""
        with self.engine.begin() as conn:
            conn.execute(
                schema.games.update()
                .where(schema.games.c.id == game_id)
                .values(config=config, updated_at=time.time())
            )

    @_guarded
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

    @_guarded
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
        self.record_actions(game_id, [ActionWrite(idx, decision_id, seat, action, events, by)])

    @_guarded
    def record_actions(self, game_id: str, writes: Sequence[ActionWrite]) -> None:
        """Store applied actions (e.g. every answer of a batch) and their events, in one
        transaction: all of them or none."""
        if not writes:
            return
        with self._raw_lock:
            self._record_actions(game_id, writes)

    def _record_actions(self, game_id: str, writes: Sequence[ActionWrite]) -> None:
        raw = self._writer()
        cursor = raw.cursor()
        now = time.time()
        try:
            sql, rows = self._insert_action.bind_many(
                [
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
            )
            cursor.executemany(sql, rows)
            events = [_event_values(game_id, e) for w in writes for e in w.events]
            if events:
                sql, rows = self._insert_event.bind_many(events)
                cursor.executemany(sql, rows)
                seat_rows = _seat_rows(game_id, [e for w in writes for e in w.events])
                if seat_rows:
                    cursor.executemany(*self._insert_seat.bind_many(seat_rows))
            raw.commit()
        except self.engine.dialect.loaded_dbapi.IntegrityError as err:
            raw.rollback()
            first = writes[0].idx
            raise ParlourError(
                f"game {game_id} already has action #{first}; is it running in another "
                "process? Stop that one, then `parlour resume` it"
            ) from err
        except BaseException:
            raw.rollback()
            raise
        finally:
            cursor.close()

    @_guarded
    def record_withdrawal(self, game_id: str, decision_id: str, seat: str, after_idx: int) -> None:
        """A decision that vanished from ``pending()`` before its answer was applied
        (never applied, never a fallback); ``after_idx`` is the action that closed it."""
        with self.engine.begin() as conn:
            conn.execute(
                schema.withdrawals.insert().values(
                    game_id=game_id,
                    decision_id=decision_id,
                    seat=seat,
                    after_idx=after_idx,
                    created_at=time.time(),
                )
            )

    @_guarded
    def withdrawals(self, game_id: str) -> list[tuple[str, str, int]]:
        """``(decision_id, seat, after_idx)`` of a game's withdrawn decisions, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(
                    schema.withdrawals.c.decision_id,
                    schema.withdrawals.c.seat,
                    schema.withdrawals.c.after_idx,
                )
                .where(schema.withdrawals.c.game_id == game_id)
                .order_by(schema.withdrawals.c.id)
            ).all()
        return [(r.decision_id, r.seat, int(r.after_idx)) for r in rows]

    @_guarded
    def replace_events(self, game_id: str, events: Sequence[Event]) -> None:
        """Store a game's events anew, re-derived from its actions (one transaction).

        Events are derived data: when a newer parlour derives a stored game's actions into
        different events (e.g. a ballot's reason moved to a voter-only event), the actions
        stay the truth and the stored events follow them."""
        with self.engine.begin() as conn:
            for table in (schema.event_seats, schema.events):
                conn.execute(table.delete().where(table.c.game_id == game_id))
            _insert_events(conn, game_id, events)

    @_guarded
    def record_events(self, game_id: str, events: Sequence[Event]) -> None:
        """Events produced without an action (e.g. the opening events of ``new``)."""
        with self.engine.begin() as conn:
            _insert_events(conn, game_id, events)

    def close(self) -> None:
        with self._raw_lock:
            if self._raw is not None:
                self._raw.close()
                self._raw = None
        self.engine.dispose()

    @_guarded
    def actions(self, game_id: str, after: int = -1) -> list[ActionRow]:
        """The game's stored actions with an index above ``after``, in order."""
        a = schema.actions
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(a).where((a.c.game_id == game_id) & (a.c.idx > after)).order_by(a.c.idx)
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

    @_guarded
    def event_count(self, game_id: str) -> int:
        # count(kind), not count(*): the rows themselves are read (not only the primary
        # key's index), so a damaged events table is found here, before a resume starts.
        with self.engine.connect() as conn:
            count = conn.execute(
                sa.select(sa.func.count(schema.events.c.kind)).where(
                    schema.events.c.game_id == game_id
                )
            ).scalar()
        return int(count or 0)

    @_guarded
    def require_writable(self) -> None:
        """Fail now, with the cause, if this database cannot be written (a read-only URI or
        file): a write is tried and rolled back, so nothing changes."""
        with self.engine.connect() as conn:
            conn.execute(schema.schema_version.insert().values(version=0))
            conn.rollback()

    @_guarded
    def events(self, game_id: str) -> list[Event]:
        return self.spectator_events(game_id, "everything")

    @_guarded
    def events_for(self, game_id: str, seat: str, after_seq: int = -1) -> list[Event]:
        """The events ``seat`` may see with ``seq > after_seq``: one indexed query.

        Raises ``UnresolvedAudiences`` when a group-audience event was stored without its
        seats (``Event.to`` must be filled by the game when it emits); ``runtime.audiences``
        resolves them once by replaying the game.
        """
        rows = self._seat_query(game_id, (schema.EVERYONE, seat, schema.UNRESOLVED), after_seq)
        # Only an unresolved group event is returned without its seats (keyed UNRESOLVED).
        if any(r.to_seats is None and self._audience(r.audience).kind == "group" for r in rows):
            raise UnresolvedAudiences(
                f"game {game_id} has group events stored without their seats; resolve them "
                "with parlour.runtime.audiences.resolve (replays the game once)"
            )
        return [self._event(r) for r in rows]

    @_guarded
    def spectator_events(self, game_id: str, level: str, after_seq: int = -1) -> list[Event]:
        """What an audience may see: ``public`` (events for everyone), ``team:GROUP`` (those
        plus the group's own channel) or ``everything`` (secrets and engine records too)."""
        if level == "everything":
            with self.engine.connect() as conn:
                rows = conn.execute(
                    sa.select(schema.events)
                    .where((schema.events.c.game_id == game_id) & (schema.events.c.seq > after_seq))
                    .order_by(schema.events.c.seq)
                ).all()
            return [self._event(r) for r in rows]
        if level == "public":
            keys: tuple[str, ...] = (schema.EVERYONE,)
        elif level.startswith("team:") and level != "team:":
            keys = (schema.EVERYONE, schema.GROUP_PREFIX + level.removeprefix("team:"))
        else:
            raise ParlourError(
                f"unknown spectator level '{level}'; use public, team:GROUP (e.g. team:wolves) "
                "or everything"
            )
        return [self._event(r) for r in self._seat_query(game_id, keys, after_seq)]

    @_guarded
    def groups(self, game_id: str) -> list[str]:
        """The groups a game's events were addressed to (e.g. ``wolves``), sorted."""
        es = schema.event_seats
        with self.engine.connect() as conn:
            keys = conn.execute(
                sa.select(es.c.seat)
                .where((es.c.game_id == game_id) & es.c.seat.startswith(schema.GROUP_PREFIX))
                .distinct()
            ).scalars()
            return sorted(k.removeprefix(schema.GROUP_PREFIX) for k in keys)

    def _seat_query(self, game_id: str, keys: Sequence[str], after_seq: int) -> list[Any]:
        # The seat's sequence numbers come from one range scan per key of event_seats'
        # primary key; the events are then fetched by theirs. (Written as a join, SQLite
        # carried ``seq > N`` over to the inner table and scanned it per row: quadratic.)
        es, ev = schema.event_seats, schema.events
        seqs = sa.select(es.c.seq).where(
            (es.c.game_id == game_id) & es.c.seat.in_(keys) & (es.c.seq > after_seq)
        )
        query = (
            sa.select(ev).where((ev.c.game_id == game_id) & ev.c.seq.in_(seqs)).order_by(ev.c.seq)
        )
        with self.engine.connect() as conn:
            return list(conn.execute(query).all())

    def _audience(self, raw: str) -> Audience:
        audience = self._audiences.get(raw)
        if audience is None:  # a game uses a handful of audiences: parse each once
            audience = self._audiences[raw] = Audience.model_validate_json(raw)
        return audience

    def _event(self, r: Any) -> Event:
        return Event(
            seq=r.seq,
            kind=r.kind,
            phase=r.phase,
            audience=self._audience(r.audience),
            speaker=r.speaker,
            text=r.text,
            data=json.loads(r.data),
            to=tuple(json.loads(r.to_seats)) if r.to_seats else (),
        )

    @_guarded
    def unresolved_seqs(self, game_id: str) -> list[int]:
        """Group-audience events of a game stored without their seats."""
        es = schema.event_seats
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    sa.select(es.c.seq)
                    .where((es.c.game_id == game_id) & (es.c.seat == schema.UNRESOLVED))
                    .order_by(es.c.seq)
                ).scalars()
            )

    @_guarded
    def resolve_audiences(self, game_id: str, seats: Mapping[int, Iterable[str]]) -> None:
        """Store the seats of group events stored unresolved (one transaction)."""
        es, ev = schema.event_seats, schema.events
        with self.engine.begin() as conn:
            for seq, members in seats.items():
                names = sorted(set(members))
                conn.execute(
                    ev.update()
                    .where((ev.c.game_id == game_id) & (ev.c.seq == seq))
                    .values(to_seats=json.dumps(names))
                )
                conn.execute(
                    es.delete().where(
                        (es.c.game_id == game_id)
                        & (es.c.seq == seq)
                        & (es.c.seat == schema.UNRESOLVED)
                    )
                )
                if names:
                    conn.execute(
                        es.insert(), [{"game_id": game_id, "seat": s, "seq": seq} for s in names]
                    )

    # -- model calls ---------------------------------------------------------------------

    @_guarded
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

    @_guarded
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

    @_guarded
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


def _engine_options(url: sa.URL) -> dict[str, Any]:
    if url.get_backend_name() == "postgresql" and "connect_timeout" not in url.query:
        # An unreachable server fails in seconds instead of the OS's minutes-long timeout.
        return {"connect_args": {"connect_timeout": 10}}
    return {}


def sqlite_path(url: str | sa.URL) -> Path | None:
    """The file a SQLite URL names (SQLite's ``file:`` URI form too); None for another
    server or an in-memory database."""
    parsed = sa.make_url(url)
    database = parsed.database or ""
    if not parsed.drivername.startswith("sqlite") or database in ("", ":memory:"):
        return None
    return Path(database.removeprefix("file:"))


def _make_folder(url: sa.URL) -> None:
    """A new database file may be created in a new folder (not for URIs or memory)."""
    path = sqlite_path(url)
    if path is None or url.query.get("uri") or (url.database or "").startswith("file:"):
        return
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ParlourError(
            f"cannot create the database folder {folder} ({err.strerror}); "
            "pass --db PATH to a writable location"
        ) from err


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # Connection settings only: nothing here writes the file (WAL mode is set by the
    # migration, once the file is known to be parlour's).
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA busy_timeout=10000")  # first: the others may wait for a lock
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _insert_events(conn: sa.Connection, game_id: str, events: Sequence[Event]) -> None:
    if events:
        conn.execute(schema.events.insert(), [_event_values(game_id, e) for e in events])
        seat_rows = _seat_rows(game_id, events)
        if seat_rows:
            conn.execute(schema.event_seats.insert(), seat_rows)


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
        "to_seats": json.dumps(list(event.to)) if event.to else None,
    }


def _seat_rows(game_id: str, events: Sequence[Event]) -> list[dict[str, Any]]:
    return [
        {"game_id": game_id, "seat": key, "seq": e.seq}
        for e in events
        for key in schema.seat_keys(e.audience.kind, e.audience.seats, e.audience.group, e.to)
    ]


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
