"""Typer options that several ``parlour`` commands declare alike (one definition each).

Both kinds of commands use them: parlour's own (``cli/``) and those a game hands the CLI
from its ``surface/`` (``parlour eval escape``, ``parlour werewolf cast``), so this module
sits below both and imports nothing of parlour."""

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

#: ``--base-url`` of the commands that take model seat specs.
BaseUrlOpt = Annotated[
    str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint for model specs")
]

#: ``--jobs`` of the commands that play many games in worker processes.
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="worker processes")]
