"""Typer options that several ``parlour`` commands declare alike (one definition each)."""

from __future__ import annotations

from typing import Annotated

import typer

#: ``--db`` of the commands that read or write stored games and tournaments.
DbUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="SQLite file or SQLAlchemy URL (default: $PARLOUR_DB, else the checkout's "
        ".parlour/parlour.sqlite, else one in the user data dir)",
    ),
]
