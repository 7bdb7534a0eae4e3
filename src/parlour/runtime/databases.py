"""The database a command reads: one that must already exist.

``Store`` creates its SQLite file (and folders) on first use, which is right for the
commands that write games (play, watch, tournament, serve) and wrong for those that only
read: a mistyped ``--db`` silently became a new empty database, and the command then
said "no game with id ...", pointing away from the real mistake.
"""

from __future__ import annotations

from parlour.core.errors import ParlourError
from parlour.runtime.store import Store, db_url, sqlite_path


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
    return Store(db_url(db) if db else None)
