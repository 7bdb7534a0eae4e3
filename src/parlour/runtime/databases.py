"""The database a command opens: one that must exist, or one it may create.

``Store`` creates its SQLite file (and folders) on first use. A command that only reads
(list, show, audit, export, cost, ...) must not: a mistyped ``--db`` would silently become
a new empty database (the command then says "no game with id ...", pointing away from the
real mistake), and an empty or foreign file would be turned into a parlour database. A
command that writes games (play, watch, tournament, serve) creates the file ``--db`` names,
but not its folder: a mistyped folder is one line, not a tree of new directories. Only the
default database (the user data dir, never typed by anyone) gets its folder created.
"""

from __future__ import annotations

from functools import cache

from parlour.core.errors import ParlourError
from parlour.runtime.store import Store, db_url, not_parlour_file, sqlite_path


def existing_store(db: str | None) -> Store:
    """The store at ``--db`` for a command that only reads: refused, and nothing created,
    when that file does not exist. Without ``--db`` the default database is used as
    before (an empty one just lists no games)."""
    if db is not None:
        path = sqlite_path(db_url(db))
        if path is not None and not path.is_file():
            raise ParlourError(
                f"no database at {path}: check --db (it is created by play/watch/tournament)"
            )
        problem = None if path is None else not_parlour_file(path)
        if problem is not None:
            raise ParlourError(f"{problem}: check --db")
    return Store(db_url(db) if db else None)


def new_or_existing_store(db: str | None) -> Store:
    """The store at ``--db`` for a command that writes games: the file is created when
    absent, its folder never (one line naming the folder instead)."""
    if db is not None:
        path = sqlite_path(db_url(db))
        if path is not None and not path.parent.is_dir():
            raise ParlourError(
                f"no folder {path.parent} for --db {db}: create it first "
                "(parlour creates the database file, not folders)"
            )
    return Store(db_url(db) if db else None)


@cache
def worker_store(url: str) -> Store:
    """The one Store a worker process keeps per database, reused by every game it plays
    (tournament games, evaluation games)."""
    return Store(url)
