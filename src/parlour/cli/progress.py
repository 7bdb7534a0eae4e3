"""Progress bars for long loops (evaluations, games, labelled sets): count, ETA, and
nothing left behind on a screen or in a log file."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def progress_bar(console: Console) -> Progress:
    """A bar with done/total, elapsed time and the estimated time left. When the console is
    not a terminal, Rich draws nothing live, so a redirected log gets no control codes."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
