"""``parlour export GAME_ID | --tournament ID --format jsonl [--out FILE]``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from parlour.command_options import DbUrlOpt
from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.runtime.databases import existing_store


def export(
    game_id: Annotated[
        str | None, typer.Argument(help=f"a stored game id (`{command('list')}`)")
    ] = None,
    tournament: Annotated[
        str | None, typer.Option("--tournament", help="every game of a tournament")
    ] = None,
    format_: Annotated[
        str, typer.Option("--format", help="jsonl (one JSON object a line)")
    ] = "jsonl",
    out: Annotated[
        Path | None, typer.Option("--out", help="file to write (default: stdout)")
    ] = None,
    db: DbUrlOpt = None,
) -> None:
    """Games' events and every model call (prompt, answer, cost, view hash) as JSONL."""
    from parlour.tournament.export import game_lines, tournament_lines

    if format_ != "jsonl":
        raise ParlourError(f"--format {format_}: only jsonl is supported; use --format jsonl")
    if (game_id is None) == (tournament is None):
        raise ParlourError(
            f"give a game id or --tournament ID (one of them), e.g. {command('export ww-1234')}"
        )
    # Refused before any work, in `parlour show -o`'s words: a typo in a folder name
    # should not become a new folder tree.
    if out is not None and not out.parent.is_dir():
        raise ParlourError(f"cannot write {out}: no folder {out.parent}; create it first")
    store = existing_store(db)
    if tournament is not None:
        from parlour.tournament import storage

        storage.get(store, tournament)
        lines = tournament_lines(store, tournament)
    else:
        assert game_id is not None
        store.get_game(game_id)
        lines = game_lines(store, game_id)
    try:
        sink = out.open("w", encoding="utf-8") if out else sys.stdout
    except OSError as err:
        raise ParlourError(f"cannot write {out} ({err.strerror}); pick another --out path") from err
    try:
        n = 0
        for line in lines:
            sink.write(json.dumps(line, ensure_ascii=False) + "\n")
            n += 1
    finally:
        if out:
            sink.close()
    if out:
        typer.echo(f"{n} lines written to {out}", err=True)
