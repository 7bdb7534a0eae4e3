"""The database connection of a store: URL reading, engine, SQLite settings, error guard.

One ``Database`` per ``Store``: its engine (SQLAlchemy Core), the name people know the
database by (for one-line errors), and the long-lived DBAPI connection of the hot
per-action writes. Every repository of the store works through it.
"""

from __future__ import annotations

import functools
import operator
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

import sqlalchemy as sa
from platformdirs import user_data_dir

from parlour.core import commands
from parlour.core.errors import ParlourError
from parlour.runtime.store import schema
from parlour.runtime.store.errors import describe, engine_error, where

P = ParamSpec("P")
R = TypeVar("R")

#: What a hosting loop survives as "the database is briefly away" (restart, failover).
DatabaseErrors: tuple[type[Exception], ...] = (ParlourError, sa.exc.SQLAlchemyError)


def default_db_url() -> str:
    """``PARLOUR_DB`` when set; else, run from a source checkout, that checkout's own
    ``.parlour/parlour.sqlite`` (git-ignored: every checkout and version keeps its own
    games); else, installed, one file in the user's data dir (platformdirs)."""
    env = os.environ.get("PARLOUR_DB")
    if env:
        return db_url(env)
    root = commands.checkout()
    folder = root / ".parlour" if root is not None else Path(user_data_dir("parlour"))
    return db_url(str(folder / "parlour.sqlite"))


def db_url(target: str) -> str:
    """Accept a SQLAlchemy URL or a plain file path."""
    if "://" in target:
        return target
    return f"sqlite:///{Path(target).expanduser().resolve()}"


def sqlite_path(url: str | sa.URL) -> Path | None:
    """The file a SQLite URL names (SQLite's ``file:`` URI form too); None for another
    server or an in-memory database."""
    parsed = sa.make_url(url)
    database = parsed.database or ""
    if not parsed.drivername.startswith("sqlite") or database in ("", ":memory:"):
        return None
    return Path(database.removeprefix("file:"))


#: The first bytes of every SQLite database file.
_SQLITE_HEADER = b"SQLite format 3\x00"


def not_parlour_file(path: Path) -> str | None:
    """Why an existing file cannot be read as a parlour database, or None when it can (or
    when ``Store`` itself can say better: a damaged file, another program's tables).

    Read without writing a byte: a ``Store`` would make an empty file, or an SQLite file
    without tables, into a new parlour database, which a command that only reads must
    never do. The header must say SQLite; a file without parlour's application id (one from
    before parlour set it, or not parlour's) is opened read-only to count its tables.
    """
    try:
        with path.open("rb") as f:
            head = f.read(100)
    except OSError as err:
        return f"cannot read {path} ({err.strerror})"
    if not head:
        return f"{path} is an empty file, not a parlour database"
    if not head.startswith(_SQLITE_HEADER) or len(head) < 72:
        return f"{path} is not a SQLite database, so not a parlour database"
    if int.from_bytes(head[68:72], "big") == schema.APPLICATION_ID:
        return None
    import sqlite3

    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return None  # damaged, or unreadable read-only: Store names the cause
    return None if tables else f"{path} is an SQLite database without tables, not a parlour one"


class Database:
    """A store's engine, the database's name for errors, and the hot-path writer."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            parsed = sa.make_url(url)
            self.engine = sa.create_engine(parsed, **_engine_options(parsed))
        except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ModuleNotFoundError) as err:
            raise engine_error(err, url) from err
        self.where = where(parsed)
        self.driver_error: type[Exception] = self.engine.dialect.loaded_dbapi.Error
        self.integrity_error: type[Exception] = self.engine.dialect.loaded_dbapi.IntegrityError
        if self.engine.dialect.name == "sqlite":
            _make_folder(parsed)
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self._raw: Any = None
        # The per-action writes share one DBAPI connection; several games' writer threads
        # in one process (a host) take turns on it (a DBAPI connection is not shared
        # between threads at once).
        self.raw_lock = threading.Lock()

    @property
    def in_memory(self) -> bool:
        url = self.engine.url
        return url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")

    def migrate(self) -> None:
        schema.migrate_locked(self.engine)

    def writer(self) -> Any:
        """A long-lived DBAPI connection for the per-action writes (hold ``raw_lock``).

        The hot path skips SQLAlchemy's execution machinery (it costs more than the insert
        itself) but runs SQL that SQLAlchemy compiled for this engine's dialect, so it stays
        portable to PostgreSQL.
        """
        if self._raw is None:
            self._raw = self.engine.raw_connection()
        return self._raw

    def rows(self, query: sa.Executable) -> list[sa.Row[Any]]:
        """Every row a query returns, read on a pooled connection."""
        with self.engine.connect() as conn:
            return list(conn.execute(query).all())

    def first(self, query: sa.Executable) -> sa.Row[Any] | None:
        """The first row a query returns (None: no row), read on a pooled connection."""
        with self.engine.connect() as conn:
            return conn.execute(query).first()

    def scalar(self, query: sa.Executable) -> Any:
        """The first value of the first row a query returns (None: no row), read on a
        pooled connection."""
        with self.engine.connect() as conn:
            return conn.execute(query).scalar()

    def add_row(self, table: sa.Table, **values: Any) -> None:
        """Insert one row stamped ``created_at`` now, in its own transaction."""
        with self.engine.begin() as conn:
            conn.execute(table.insert().values(**values, created_at=time.time()))

    def insert(self, *batches: tuple[Compiled, list[dict[str, Any]]]) -> None:
        """Insert rows through the hot-path writer, all batches in one transaction."""
        with self.raw_lock:
            raw = self.writer()
            cursor = raw.cursor()
            try:
                for compiled, rows in batches:
                    if rows:
                        cursor.executemany(*compiled.bind_many(rows))
                raw.commit()
            except BaseException:
                raw.rollback()
                raise
            finally:
                cursor.close()

    def close(self) -> None:
        with self.raw_lock:
            if self._raw is not None:
                self._raw.close()
                self._raw = None
        self.engine.dispose()


class _HasDatabase(Protocol):
    db: Database


H = TypeVar("H", bound=_HasDatabase)


def guarded(method: Callable[Concatenate[H, P], R]) -> Callable[Concatenate[H, P], R]:
    """Driver errors (damaged file, read-only URI, lost server) become one-line errors."""

    def wrapper(self: H, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        except ParlourError:
            raise
        except (sa.exc.DBAPIError, self.db.driver_error) as err:
            raise ParlourError(describe(err, self.db.where)) from err

    functools.update_wrapper(wrapper, method)
    return wrapper


class Compiled:
    """An INSERT compiled once for a dialect, with its parameters in DBAPI order."""

    def __init__(self, statement: sa.Insert, dialect: sa.Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        self.order: tuple[str, ...] | None = (
            tuple(compiled.positiontup) if compiled.positional and compiled.positiontup else None
        )
        # The positional parameters of a row, picked in C (a hot path: every stored row).
        self._pick: Callable[[dict[str, Any]], Any] | None = None
        if self.order is not None:
            pick = operator.itemgetter(*self.order)
            self._pick = pick if len(self.order) > 1 else lambda values: (pick(values),)

    def _params(self, values: dict[str, Any]) -> Any:
        if self._pick is None:
            return values
        return self._pick(values)

    def bind(self, values: dict[str, Any]) -> tuple[str, Any]:
        return self.sql, self._params(values)

    def bind_many(self, rows: list[dict[str, Any]]) -> tuple[str, list[Any]]:
        return self.sql, [self._params(r) for r in rows]


def _engine_options(url: sa.URL) -> dict[str, Any]:
    if url.get_backend_name() == "postgresql" and "connect_timeout" not in url.query:
        # An unreachable server fails in seconds instead of the OS's minutes-long timeout.
        return {"connect_args": {"connect_timeout": 10}}
    return {}


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
