"""Progress bars for long loops (evaluations, games, labelled sets): count, ETA, and
nothing left behind on a screen or in a log file."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.view import AnyView
from parlour.seats.base import Seat


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


class CountingSeat:
    """A seat that advances a progress task each time it answers (one labelled message,
    one decision); it answers exactly as the seat it wraps."""

    def __init__(self, inner: Seat, progress: Progress, task: TaskID) -> None:
        self.inner = inner
        self.progress = progress
        self.task = task

    @property
    def label(self) -> str:
        return self.inner.label

    async def decide(self, view: AnyView, decision: Decision) -> Action:
        try:
            return await self.inner.decide(view, decision)
        finally:
            self.progress.advance(self.task)
