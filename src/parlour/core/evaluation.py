"""The contract between ``parlour eval`` and a game's evaluation harness.

A game's harness (``GameModule.evaluation``) lives in the game's ``surface/`` subpackage
and may import neither the CLI nor ``parlour.evals``. The generic pieces it shows its work
with come from the surface in an ``EvalTools``: where to print, a progress bar, ``--set``
parsing, a line plot with confidence bands. The harness returns its command-line app (a
``typer.Typer`` with one command), which ``parlour eval NAME`` runs. The types here are
structural, so core stays free of any UI library.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol


class Printer(Protocol):
    """Where a harness prints its report (a rich ``Console``)."""

    def print(
        self,
        *objects: Any,
        style: str | None = None,
        highlight: bool | None = None,
        soft_wrap: bool | None = None,
    ) -> None: ...


class Progress(Protocol):
    """One running progress bar: advance it as work is done, rename what it counts."""

    def advance(self, steps: float = 1) -> None: ...

    def describe(self, text: str) -> None: ...


@dataclass(frozen=True)
class Curve:
    """One line with an optional confidence band (``None`` where the band is unknown)."""

    label: str
    x: Sequence[float]
    mean: Sequence[float]
    low: Sequence[float | None]
    high: Sequence[float | None]


class LinePlot(Protocol):
    """Lines with shaded bands and a dashed reference line, written as a PNG at ``path``."""

    def __call__(
        self,
        curves: Sequence[Curve],
        path: str | Path,
        *,
        title: str,
        xlabel: str,
        ylabel: str,
        reference: float | None = None,
        reference_label: str = "parity",
        percent: bool = True,
    ) -> Path: ...


@dataclass(frozen=True)
class EvalTools:
    """What the eval surface lends a game's harness."""

    #: Where the report goes; progress bars draw on it too, so prints sit above a bar.
    console: Printer
    #: ``with progress(description, total) as bar:`` a bar that vanishes when done.
    progress: Callable[[str, int], AbstractContextManager[Progress]]
    #: ``--set KEY=VALUE`` items → options (values read as YAML; one-line errors).
    parse_set: Callable[[list[str] | None], dict[str, object]]
    line_plot: LinePlot
