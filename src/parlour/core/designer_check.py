"""What every ``parlour <game> validate`` shares: exit codes and how problems are printed.

Each game keeps its own ``Problem`` type (escape names an action, missing a file and line);
anything with a ``severity`` and a one-line ``str`` fits here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from string import Formatter
from typing import Protocol

#: 0: no errors (warnings allowed unless strict); 1: errors (or warnings when strict);
#: 2: the file could not be read or parsed at all.
EXIT_OK, EXIT_ERRORS, EXIT_UNREADABLE = 0, 1, 2


class Graded(Protocol):
    @property
    def severity(self) -> str: ...


def has_errors(problems: Iterable[Graded]) -> bool:
    return any(p.severity == "error" for p in problems)


def exit_code(problems: Sequence[Graded], *, strict: bool) -> int:
    failed = has_errors(problems) or (strict and bool(problems))
    return EXIT_ERRORS if failed else EXIT_OK


def format_problems(problems: Sequence[object]) -> str:
    if not problems:
        return "no problems found"
    return "\n".join(str(p) for p in problems)


def placeholders(text: str) -> list[str]:
    """The ``{name}`` placeholders of a template line, in order (``{{`` and ``}}`` are
    literal braces); a malformed brace counts as the placeholder ``{``."""
    try:
        return [name for _, name, _, _ in Formatter().parse(text) if name is not None]
    except ValueError:
        return ["{"]
