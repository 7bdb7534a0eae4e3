"""A person's prompts as they come out of a pseudo-terminal.

At a terminal, parlour reads a person's line with prompt_toolkit
(``parlour.cli.prompt_line``), which draws rather than prints: a waiting prompt ends with
the cursor moved past its trailing space (no space is written) and shown; every line
printed while it waits is put above it and the prompt is drawn again below; and when
Enter is pressed the prompt is drawn once more, with the line, followed by a line break.
So a prompt seen in the output is not always a new question: answer with ``answer``,
which waits for that last drawing, and the next ``waiting`` match is a new one.
"""

from __future__ import annotations

import re

import pexpect
import pyte

#: what follows a waiting prompt on its own row: typed text and cursor moves, then the
#: cursor is shown
_WAITS = r"[^\r\n]*?\x1b\[\?25h"
#: what follows the line when Enter was pressed: the cursor goes back to the row's start
#: (one column back is a backspace), the colours are reset and the row is left; nothing
#: else printed ends a row so
_DONE = r"(?:\x1b\[\d+D|\x08)\x1b\[0m\r+\n"


def waiting(prompt: str) -> str:
    """A regex for ``prompt`` (itself a regex) drawn and waiting for keys."""
    return prompt.rstrip() + _WAITS


def answer(child: pexpect.spawn, line: str) -> None:
    """Type ``line`` and Enter at the waiting prompt; return once the prompt took it.
    (Whichever prompt: a question that timed out while the line was typed hands the open
    line, and what was typed, to the next question, whose prompt then replaces it.)"""
    child.sendline(line)
    child.expect(re.escape(line) + _DONE)


def screen(raw: str, columns: int = 160, rows: int = 24) -> list[str]:
    """What ``raw`` (a pseudo-terminal's output) leaves on a terminal: every row, those
    scrolled off the top first, trailing spaces cut. What a person reads, redraws and
    all, where the bytes would count a line drawn twice twice."""
    term = pyte.HistoryScreen(columns, rows, history=100_000)
    pyte.Stream(term).feed(raw)
    scrolled = ["".join(row[x].data for x in range(columns)).rstrip() for row in term.history.top]
    return [*scrolled, *(row.rstrip() for row in term.display)]
