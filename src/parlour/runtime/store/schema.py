"""Database schema (SQLAlchemy Core) and its ordered migrations.

SQLite by default; any SQLAlchemy URL (e.g. PostgreSQL) works because only Core
constructs are used. A schema change is a new entry in ``MIGRATIONS``, never an edit.
Migrations run under a write lock (``BEGIN IMMEDIATE`` on SQLite, an advisory lock on
PostgreSQL), so processes starting at once on a new database cannot race each other.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable

import sqlalchemy as sa

from parlour.core.errors import ParlourError

metadata = sa.MetaData()

schema_version = sa.Table(
    "schema_version",
    metadata,
    sa.Column("version", sa.Integer, nullable=False),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("result", sa.Text),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("decision_id", sa.String(128), nullable=False),
    sa.Column("seat", sa.String(64), nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("by", sa.String(128), nullable=False, server_default=""),
    sa.Column("created_at", sa.Float, nullable=False),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Column("phase", sa.String(64), nullable=False),
    sa.Column("audience", sa.Text, nullable=False),
    sa.Column("speaker", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    # JSON list of the seats the audience resolved to when the event was emitted
    # (``Event.to``); NULL for a group audience the game did not resolve (schema v3).
    sa.Column("to_seats", sa.Text),
)

#: "What may seat S see since N" as one range scan of the primary key: one row per seat
#: an event reached, plus the reserved keys below. A table, not a JSON column on
#: ``events``, because SQLite cannot index membership in a JSON list. No foreign key: the
#: rows are written in the same transaction as their event, and checking one per row
#: would tax the hot path.
event_seats = sa.Table(
    "event_seats",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.String(80), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
)

#: Reserved ``event_seats.seat`` keys (seat ids are game-chosen names like ``p3``/``FRANCE``).
EVERYONE = "*"  # an ``all`` audience
UNRESOLVED = "?"  # a group audience stored without its seats (``to`` was not filled)
GROUP_PREFIX = "@"  # "@wolves": the group an audience named, for team spectators

model_calls = sa.Table(
    "model_calls",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, index=True),
    sa.Column("seat", sa.String(64), nullable=False),
    sa.Column("decision_id", sa.String(128), nullable=False),
    sa.Column("purpose", sa.String(64), nullable=False),
    sa.Column("phase", sa.String(64), nullable=False),
    sa.Column("attempt", sa.Integer, nullable=False),
    sa.Column("model_id", sa.String(128), nullable=False),
    sa.Column("cache_key", sa.String(128), nullable=False),
    sa.Column("messages", sa.Text, nullable=False),
    sa.Column("messages_digest", sa.String(64), nullable=False),
    sa.Column("output_spec", sa.Text, nullable=False),
    sa.Column("response_text", sa.Text, nullable=False),
    sa.Column("parsed", sa.Text),
    sa.Column("outcome", sa.String(16), nullable=False),
    sa.Column("error", sa.Text, nullable=False),
    sa.Column("input_tokens", sa.Integer, nullable=False),
    sa.Column("output_tokens", sa.Integer, nullable=False),
    sa.Column("cached_tokens", sa.Integer, nullable=False),
    sa.Column("latency_s", sa.Float, nullable=False),
    sa.Column("cost_usd", sa.Float, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

eval_runs = sa.Table(
    "eval_runs",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Column("params", sa.Text, nullable=False),
    sa.Column("summary", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

#: What each seat's context components looked up before a decision (see seats/context.py).
retrievals = sa.Table(
    "retrievals",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, index=True),
    sa.Column("seat", sa.String(64), nullable=False),
    sa.Column("decision_id", sa.String(128), nullable=False),
    sa.Column("component", sa.String(64), nullable=False),
    sa.Column("method", sa.String(128), nullable=False),
    sa.Column("query", sa.Text, nullable=False),
    sa.Column("ids", sa.Text, nullable=False),
    sa.Column("texts", sa.Text, nullable=False),
    sa.Column("scores", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)


def _v1(conn: sa.Connection) -> None:
    for table in (games, actions, events, model_calls):
        table.create(conn, checkfirst=True)


def _v2(conn: sa.Connection) -> None:
    eval_runs.create(conn, checkfirst=True)


def _retrievals(conn: sa.Connection) -> None:
    retrievals.create(conn, checkfirst=True)


def seat_keys(kind: str, seats: Iterable[str], group: str, to: Iterable[str] | None) -> list[str]:
    """The ``event_seats`` keys of one event, from its audience and resolved seats."""
    if kind == "all":
        return [EVERYONE]
    if kind == "seats":
        return sorted(set(to or seats))
    if kind == "group":
        resolved = sorted(set(to or ()))
        return [GROUP_PREFIX + group, *(resolved or [UNRESOLVED])]
    return []  # nobody: engine-only records reach no seat


def _v3(conn: sa.Connection) -> None:
    """Stored audiences: ``events.to_seats`` and the ``event_seats`` index, backfilled.

    Listed seats are copied from the audience JSON; group audiences are keyed
    ``UNRESOLVED`` (the store cannot know a group's members; ``runtime.audiences``
    resolves them by replaying the game when a seat's view is first asked for).
    """
    if "to_seats" not in {c["name"] for c in sa.inspect(conn).get_columns("events")}:
        # A database created by v1 with today's ``events`` table already has the column.
        conn.execute(sa.text("ALTER TABLE events ADD COLUMN to_seats TEXT"))
    event_seats.create(conn, checkfirst=True)
    rows = conn.execute(sa.select(events.c.game_id, events.c.seq, events.c.audience)).all()
    keys: list[dict[str, object]] = []
    listed: list[dict[str, object]] = []
    for game_id, seq, raw in rows:
        audience = json.loads(raw)
        kind, seats = audience["kind"], audience.get("seats", [])
        if kind == "seats":
            listed.append({"g": game_id, "s": seq, "t": json.dumps(list(seats))})
        for key in seat_keys(kind, seats, audience.get("group", ""), None):
            keys.append({"game_id": game_id, "seat": key, "seq": seq})
    if listed:
        conn.execute(
            events.update()
            .where((events.c.game_id == sa.bindparam("g")) & (events.c.seq == sa.bindparam("s")))
            .values(to_seats=sa.bindparam("t")),
            listed,
        )
    if keys:
        conn.execute(event_seats.insert(), keys)


#: Decisions withdrawn before their answer was applied (the runner's as-arrived mode).
withdrawals = sa.Table(
    "withdrawals",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, index=True),
    sa.Column("decision_id", sa.String(128), nullable=False),
    sa.Column("seat", sa.String(64), nullable=False),
    sa.Column("after_idx", sa.Integer, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)


def _withdrawals(conn: sa.Connection) -> None:
    withdrawals.create(conn, checkfirst=True)


# -- live hosting (schema v6): the desk between people and running games, and leases ----

#: A person's decision a running game is waiting for (one row per open decision of a
#: ``RemoteSeat``); the page renders ``decision`` (the Decision as JSON). ``refusal`` is
#: the engine's last rejection of an answer, shown until the next answer.
open_decisions = sa.Table(
    "open_decisions",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("decision_id", sa.String(128), primary_key=True),
    sa.Column("seat", sa.String(64), nullable=False),
    sa.Column("decision", sa.Text, nullable=False),
    sa.Column("asked_at", sa.Float, nullable=False),
    sa.Column("deadline_at", sa.Float),
    sa.Column("refusal", sa.Text),
)

#: Answers submitted through the desk, waiting for the worker running the game to take
#: them (at most one per open decision).
answers = sa.Table(
    "answers",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("decision_id", sa.String(128), primary_key=True),
    sa.Column("seat", sa.String(64), nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("submitted_at", sa.Float, nullable=False),
)

#: One row per hosted game: which worker runs it until when (database time, unix
#: seconds). Claimed and renewed with a compare-and-set; NULL worker = free.
leases = sa.Table(
    "leases",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("worker", sa.String(128)),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Column("claims", sa.Integer, nullable=False),
    sa.Column("error", sa.Text),
)

#: Admin commands (pause, end, replace a seat, resume), applied by whichever worker
#: holds the game's lease (or by the next one to claim it).
admin_commands = sa.Table(
    "admin_commands",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), nullable=False, index=True),
    sa.Column("command", sa.String(16), nullable=False),
    sa.Column("seat", sa.String(64), nullable=False),
    sa.Column("spec", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("done_at", sa.Float),
)


def _hosting(conn: sa.Connection) -> None:
    for table in (open_decisions, answers, leases, admin_commands):
        table.create(conn, checkfirst=True)


#: A tournament (``parlour tournament``): its parameters and status; its games below.
tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("params", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

#: One scheduled game of a tournament: its seating (seat → entrant), the stored game once
#: started (a lost worker's game resumes from its actions) and its outcome once finished.
tournament_games = sa.Table(
    "tournament_games",
    metadata,
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("seating", sa.Text, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("game_id", sa.String(32)),
    sa.Column("outcome", sa.Text),
)


def _tournaments(conn: sa.Connection) -> None:
    """v7: tournaments and their games."""
    tournaments.create(conn, checkfirst=True)
    tournament_games.create(conn, checkfirst=True)


#: The web app's links (``parlour serve``): one row per admin or seat link of a game,
#: keyed by the SHA-256 of the link's token, so a copy of the database acts as no seat.
web_links = sa.Table(
    "web_links",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("game_id", sa.String(32), nullable=False, index=True),
    sa.Column("role", sa.String(16), nullable=False),  # "seat" or "admin"
    sa.Column("seat", sa.String(64), nullable=False),  # "" for an admin link
    sa.Column("created_at", sa.Float, nullable=False),
)

#: Per-game web settings an admin changes (reveal level consented before the end).
web_games = sa.Table(
    "web_games",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("reveal", sa.String(80), nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)


def _web_links(conn: sa.Connection) -> None:
    web_links.create(conn, checkfirst=True)
    web_games.create(conn, checkfirst=True)


#: Ordered migrations; index i brings the schema from version i to i + 1.
MIGRATIONS: list[Callable[[sa.Connection], None]] = [
    _v1,
    _v2,
    _v3,
    _withdrawals,
    _retrievals,
    _hosting,  # v6
    _tournaments,  # v7
    _web_links,  # v8
]
LATEST = len(MIGRATIONS)

#: SQLite ``PRAGMA application_id`` of a parlour database ("PRLR"): another program's
#: SQLite file is refused instead of having parlour's tables added to it.
APPLICATION_ID = 0x50524C52

_PG_LOCK_KEY = 0x50524C52  # pg_advisory_xact_lock key of parlour's migrations


def version(conn: sa.Connection) -> int:
    """The schema version of a database (0 when it has no parlour tables yet)."""
    if not sa.inspect(conn).has_table("schema_version"):
        return 0
    return int(conn.execute(sa.select(sa.func.max(schema_version.c.version))).scalar() or 0)


def migrate(conn: sa.Connection) -> int:
    """Bring the database to the latest version; return the version it was at.

    The caller holds the write lock (see ``migrate_locked``).
    """
    schema_version.create(conn, checkfirst=True)
    current = version(conn)
    if current > LATEST:
        raise ParlourError(
            f"database schema v{current} is newer than this parlour (v{LATEST}); upgrade parlour"
        )
    for step in range(current, LATEST):
        MIGRATIONS[step](conn)
        conn.execute(schema_version.insert().values(version=step + 1))
    return current


def migrate_locked(engine: sa.Engine) -> int:
    """``migrate`` under a lock that concurrent starts on the same database queue behind.

    An up-to-date database is only read, so read-only files and URIs still open.
    """
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        empty = _refuse_foreign(conn, sqlite)
        current = version(conn)
        marked = not sqlite or _application_id(conn) == APPLICATION_ID
        conn.rollback()
    if current == LATEST and marked:
        return current
    if current > LATEST:
        raise ParlourError(
            f"database schema v{current} is newer than this parlour (v{LATEST}); upgrade parlour"
        )
    if not sqlite:
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_PG_LOCK_KEY)))
            return migrate(conn)
    # pysqlite's own transaction handling would start a DEFERRED transaction (and lets
    # DDL autocommit); in autocommit mode the whole migration is ours to bracket.
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        if empty:
            # WAL first on a new file: then starts queued behind the migration's lock
            # still read, instead of backing off against a rollback journal's locks.
            _wal(conn)
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        try:
            before = migrate(conn)
            if _application_id(conn) != APPLICATION_ID:
                conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
        except BaseException:
            conn.exec_driver_sql("ROLLBACK")
            raise
        conn.exec_driver_sql("COMMIT")
        # WAL lets several processes write one file and survives kill -9 without an
        # fsync per commit; set only once the file is known to be parlour's.
        _wal(conn)
    return before


def _wal(conn: sa.Connection) -> None:
    """Switch to WAL (persistent, so whoever gets there first does it for everyone).

    The switch needs the file to itself and SQLite refuses it at once ("database is
    locked") instead of waiting while another process has it open, so retry briefly;
    if others keep it busy, carry on: WAL is for speed, transactions are safe without it.
    """
    for _ in range(50):
        if conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal":
            return
        try:
            conn.exec_driver_sql("PRAGMA journal_mode=WAL")
        except sa.exc.OperationalError as err:
            if "locked" not in str(err.orig) and "busy" not in str(err.orig):
                raise
            time.sleep(0.02)


def _application_id(conn: sa.Connection) -> int:
    return int(conn.exec_driver_sql("PRAGMA application_id").scalar() or 0)


def _refuse_foreign(conn: sa.Connection, sqlite: bool) -> bool:
    """Never add parlour's tables to another program's database; True if it is empty."""
    tables = set(sa.inspect(conn).get_table_names())
    app_id = _application_id(conn) if sqlite else 0
    if app_id in (0, APPLICATION_ID) and ("schema_version" in tables or not tables):
        return not tables  # parlour's (older ones carry no application_id yet), or new
    if not sqlite and not tables & set(metadata.tables):
        return False  # a shared PostgreSQL database: others' tables may live beside ours
    where = conn.engine.url.render_as_string(hide_password=True)
    holds = ", ".join(sorted(tables)[:5]) or "no tables"
    owner = f"application_id {app_id:#x}, " if app_id else ""
    raise ParlourError(
        f"{where} is not a parlour database ({owner}it holds {holds}); parlour will not add "
        "its tables to it: pass --db a parlour database or a new file"
    )
