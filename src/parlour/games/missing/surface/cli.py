"""``parlour missing validate``: the town designer's tool."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from parlour.games.missing.validate import format_problems, validate_file

missing_app = typer.Typer(help="Missing town tools: validate a town file.")


@missing_app.command("validate")
def validate_cmd(
    file: Annotated[str, typer.Argument(help="town YAML file or shipped town name")],
    strict: Annotated[bool, typer.Option(help="treat warnings as errors")] = False,
) -> None:
    """Check a town: coded errors (file:line) exit 1, an unreadable file 2; warnings listed."""
    problems, code = validate_file(file, strict=strict)
    sys.stdout.write(format_problems(problems) + "\n")
    raise typer.Exit(code)
