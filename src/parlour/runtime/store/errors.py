"""Database failures as one line naming the real cause and the fix.

Drivers report a damaged file, a read-only URI or a refused connection as exceptions
whose text is precise but whose traceback is useless to a player; this module turns
each into a ``ParlourError`` (the CLI prints it on one line and exits non-zero).
"""

from __future__ import annotations

import sqlalchemy as sa

from parlour.core.commands import pip_install
from parlour.core.errors import ParlourError


def where(url: sa.URL) -> str:
    """The database as people name it: the file path, or the URL without its password."""
    if url.get_backend_name() == "sqlite" and url.database:
        return url.database.removeprefix("file:").partition("?")[0]
    return url.render_as_string(hide_password=True)


def describe(err: BaseException, place: str) -> str:
    """A one-line explanation of a driver error raised for the database at ``place``."""
    orig = getattr(err, "orig", None) or err
    cause = " ".join(str(orig).split()) or type(orig).__name__
    low = cause.lower()
    if "file is not a database" in low:
        return (
            f"{place} is not a SQLite database ({cause}); pass --db a parlour database or a "
            "new file"
        )
    if "malformed" in low or "disk image" in low:
        return (
            f"the database {place} is damaged ({cause}); restore it from a backup or salvage it "
            f"with `sqlite3 {place} .recover`, or pass --db another file"
        )
    if "readonly" in low or "read-only" in low:
        return (
            f"the database {place} is read-only ({cause}); open it writable (without mode=ro) "
            "or pass --db a writable file"
        )
    if "unable to open database file" in low:
        return f"cannot open the database file {place} ({cause}); pass --db PATH to a writable file"
    if "locked" in low or "busy" in low:
        return (
            f"the database {place} stayed locked by another process ({cause}); retry, or pass "
            "--db another file"
        )
    if "disk is full" in low or "disk i/o" in low:
        return (
            f"cannot write the database {place} ({cause}); free disk space or pass --db "
            "another file"
        )
    if "connect" in low or "could not translate host" in low or "timeout" in low:
        return (
            f"cannot connect to the database at {place} ({cause}); start the server or fix the "
            "URL given to --db"
        )
    return f"database error at {place} ({cause}); check the file or URL given to --db"


def engine_error(err: BaseException, url: str) -> ParlourError:
    """A URL SQLAlchemy cannot turn into an engine: unknown scheme or missing driver."""
    scheme = url.partition("://")[0]
    if isinstance(err, sa.exc.NoSuchModuleError):
        return ParlourError(
            f"unknown database URL scheme '{scheme}://'; pass --db a file path, "
            "sqlite:///PATH or postgresql://USER@HOST/DB"
        )
    if isinstance(err, ModuleNotFoundError):
        return ParlourError(
            f"the database driver for '{scheme}://' is not installed ({err.name}); "
            f"for PostgreSQL: {pip_install(repr('psycopg[binary]'))}"
        )
    return ParlourError(
        f"bad database URL '{url}' ({err}); pass --db a file path or a URL like "
        "postgresql://USER@HOST/DB"
    )
