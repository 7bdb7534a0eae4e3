"""Database schema (SQLAlchemy Core) and its ordered migrations.

SQLite by default; any SQLAlchemy URL (e.g. PostgreSQL) works because only Core
constructs are used. A schema change is a new entry in ``MIGRATIONS``, never an edit.
"""

from __future__ import annotations

from collections.abc import Callable

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
)

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


def _v3_retrievals(conn: sa.Connection) -> None:
    retrievals.create(conn, checkfirst=True)


#: Ordered migrations; index i brings the schema from version i to i + 1.
MIGRATIONS: list[Callable[[sa.Connection], None]] = [_v1, _v2]
MIGRATIONS.append(_v3_retrievals)
LATEST = len(MIGRATIONS)


def migrate(conn: sa.Connection) -> int:
    """Bring the database to the latest version; return the version it was at."""
    schema_version.create(conn, checkfirst=True)
    current = conn.execute(sa.select(sa.func.max(schema_version.c.version))).scalar() or 0
    if current > LATEST:
        raise ParlourError(
            f"database schema v{current} is newer than this parlour (v{LATEST}); upgrade parlour"
        )
    for version in range(current, LATEST):
        MIGRATIONS[version](conn)
        conn.execute(schema_version.insert().values(version=version + 1))
    return int(current)
