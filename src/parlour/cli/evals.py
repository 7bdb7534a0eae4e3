"""``parlour eval GAME ...``: each game's evaluation harness, found by name.

A game hands its harness on ``GameModule.evaluation``; this module only finds it and lends
it the generic pieces (``EvalTools``: the console, a progress bar, ``--set`` parsing, the
line plot). Games are loaded when their sub-command is asked for (or when ``--help`` lists
them), so a broken plug-in cannot break the rest of the CLI.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

import typer
from rich.console import Console
from rich.progress import Progress as RichProgress
from rich.progress import TaskID

# typer vendors click (``typer._click``); these are the types its groups are written in.
from typer._click.core import Command, Context
from typer.core import TyperGroup

from parlour.cli.progress import progress_bar
from parlour.core.errors import ParlourError
from parlour.core.evaluation import EvalTools, Progress
from parlour.evals.plot import line_plot
from parlour.games import registry
from parlour.runtime.set_values import parse_set_options

console = Console()


class _Bar:
    """One task of a rich progress bar, as a harness sees it (``core.evaluation.Progress``)."""

    def __init__(self, progress: RichProgress, task: TaskID) -> None:
        self._progress = progress
        self._task = task

    def advance(self, steps: float = 1) -> None:
        self._progress.advance(self._task, steps)

    def describe(self, text: str) -> None:
        self._progress.update(self._task, description=text)


@contextmanager
def _progress(description: str, total: int) -> Iterator[Progress]:
    with progress_bar(console) as progress:
        yield _Bar(progress, progress.add_task(description, total=total))


def _parse_set(items: list[str] | None) -> dict[str, object]:
    return parse_set_options(items)


TOOLS = EvalTools(console=console, progress=_progress, parse_set=_parse_set, line_plot=line_plot)


@cache
def _harness(game: str) -> Command | None:
    """The click command of ``game``'s harness, or None when the game has none (or is not
    installed)."""
    try:
        module = registry.load(game)
    except ParlourError:
        return None
    if module.evaluation is None:
        return None
    app = module.evaluation(TOOLS)
    if not isinstance(app, typer.Typer):
        raise ParlourError(
            f"game '{game}': its evaluation hook returned {type(app).__name__}, not a "
            "typer.Typer; fix that game's package"
        )
    return typer.main.get_command(app)


def _listed(game: str) -> bool:
    """Whether ``game`` has a harness to list; a broken one is left out of the list (asking
    for it by name says what is wrong)."""
    try:
        return _harness(game) is not None
    except ParlourError:
        return False


class _GameEvals(TyperGroup):
    """Sub-commands are the installed games with a harness, resolved by name."""

    def list_commands(self, ctx: Context) -> list[str]:
        return [name for name in registry.game_names() if _listed(name)]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        return _harness(cmd_name)


evals_app = typer.Typer(
    cls=_GameEvals,
    help="Evaluate bots over many stored games: a report, a JSON summary and a plot.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@evals_app.callback()
def _group() -> None:
    """Evaluate bots over many games (one sub-command per game)."""
