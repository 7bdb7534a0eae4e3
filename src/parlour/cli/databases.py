"""The database a command reads: one that must already exist.

``Store`` creates its SQLite file (and folders) on first use, which is right for the
commands that write games (play, watch, tournament, serve) and wrong for those that only
read: a mistyped ``--db`` silently became a new empty database, and the command then
said "no game with id ...", pointing away from the real mistake.
"""

from __future__ import annotations

from pathlib import Path

from parlour.core.errors import ParlourError
from parlour.runtime.store import Store, db_url

_SQLITE = "sqlite:///"


def sqlite_file(target: str) -> Path | None:
    """The file a ``--db`` value names, when it names a SQLite file (a path or a
    ``sqlite:///`` URL); None for server URLs and in-memory databases."""
    if "://" not in target:
        return Path(target).expanduser()
    if not target.startswith(_SQLITE):
        return None
    name = target[len(_SQLITE) :].split("?", 1)[0]
    name = name.removeprefix("file:")  # SQLite's URI form: sqlite:///file:PATH?mode=ro&uri=true
    return Path(name) if name not in ("", ":memory:") else None


def existing_store(db: str | None) -> Store:
    """The store at ``--db`` for a command that only reads: refused, and nothing created,
    when that file does not exist. Without ``--db`` the default database is used as
    before (an empty one just lists no games)."""
    if db is not None:
        path = sqlite_file(db)
        if path is not None and not path.is_file():
            raise ParlourError(
                f"no database at {path}: check --db (it is created by play/watch/tournament)"
            )
    return Store(db_url(db) if db else None)
