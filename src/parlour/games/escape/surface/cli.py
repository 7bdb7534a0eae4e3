"""``parlour escape validate|graph``: tools for scenario designers."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from parlour.core.errors import ParlourError
from parlour.games.escape.cli_support import (
    EXIT_UNREADABLE,
    done_from_events,
    format_problems,
    game_over,
    render_file,
    validate_file,
    ways,
)
from parlour.games.escape.scenario import ScenarioError

escape_app = typer.Typer(help="Escape scenario tools: validate and draw causal graphs.")


@escape_app.command("validate")
def validate_cmd(
    file: Annotated[str, typer.Argument(help="scenario YAML file or shipped scenario name")],
    strict: Annotated[bool, typer.Option(help="treat warnings as errors")] = False,
    max_turns: Annotated[
        int | None,
        typer.Option(min=1, help="warn (W006) when a player needs more turns than this"),
    ] = None,
) -> None:
    """Check a scenario: coded errors exit non-zero; warnings are listed."""
    problems, code = validate_file(file, max_turns=max_turns, strict=strict)
    sys.stdout.write(format_problems(problems) + "\n")
    summary = ways(file) if code != EXIT_UNREADABLE else None
    if summary:
        sys.stdout.write(summary + "\n")
    raise typer.Exit(code)


@escape_app.command("graph")
def graph_cmd(
    file: Annotated[str, typer.Argument(help="scenario YAML file or shipped scenario name")],
    format_: Annotated[str, typer.Option("--format", help="mermaid, dot or svg")] = "mermaid",
    game: Annotated[
        str | None, typer.Option(help="colour done/available/locked from this saved game")
    ] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="write to a file")] = None,
    db: Annotated[str | None, typer.Option("--db", help="database for --game")] = None,
) -> None:
    """Draw a scenario's action graph."""
    done: set[str] | None = None
    finished = False
    if game is not None:
        from parlour.runtime.databases import existing_store

        store = existing_store(db)
        row = store.get_game(game)
        if row.game != "escape":
            raise ParlourError(f"game {game} is {row.game}, not escape")
        events = store.events(game)
        done, finished = done_from_events(events), game_over(events)
    try:
        text = render_file(file, format_, done, finished)
    except ScenarioError as err:
        raise ParlourError(str(err)) from err
    if output:
        output.write_text(text, encoding="utf-8")
        sys.stdout.write(f"wrote {output}\n")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
