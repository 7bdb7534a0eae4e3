"""The ``--seed`` option's check: a seed out of range is one line naming the range."""

from __future__ import annotations

from parlour.core.errors import ParlourError
from parlour.core.rng import seed_problem


def checked_seed(value: int | None) -> int | None:
    """A typer callback: the seed unchanged, or ``ParlourError`` (``error: ...``, exit 2)."""
    if value is not None:
        problem = seed_problem(value)
        if problem is not None:
            raise ParlourError(problem)
    return value
