"""A person types while the game goes on printing: what arrives lands above their line.

A real pseudo-terminal plays missing against scripted friends. The person types half a
message and stops; friends' texts come in meanwhile. Each is printed on its own row above
the prompt, the prompt is drawn again below with the half-typed text, the person finishes
the line, and the message the game stores is exactly the line typed.
"""

from __future__ import annotations

import io
import os
import re
import sqlite3
import sys
from pathlib import Path

import pexpect
import pytest

from tests.support.terminal import answer, screen, waiting

#: ``slow`` (not in the fast part): a real pseudo-terminal process.
pytestmark = pytest.mark.slow

CHAT = r"\(empty = say nothing\)> "
HALF = "Has anyone checked the bus st"
REST = "op by the cinema since ten?"
#: a friend's text as printed: ``[mm:ss] Sol: …`` (or ``Sol → Jem (…): …``)
FRIEND = r"\[\d\d:\d\d\] (?:Sol|Jem)\b[^\r\n]*?: [^\r\n]+\r\n"
COLUMNS, ROWS = 160, 40


def test_lines_arriving_while_a_person_types_go_above_the_prompt(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    env = {**os.environ, "COLUMNS": str(COLUMNS), "PARLOUR_DB": str(db)}
    args = ["-m", "parlour", "play", "missing", "--as", "Dot", "--model", "scripted"]
    args += ["--seed", "3", "--set", "town=small_hours", "--set", "minutes=20"]
    # Dot's chat question times out after a second: friends keep texting while she types.
    args += ["--set", "person_wait=1"]
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=60, dimensions=(ROWS, COLUMNS)
    )
    log = io.StringIO()
    child.logfile_read = log
    # The setting-up questions, then the chat.
    while child.expect([waiting(CHAT), waiting("> ")]) == 1:
        answer(child, "You remember the kettle was still warm.")
    child.send(HALF)  # no Enter
    child.expect(re.escape(HALF))  # drawn as typed
    # A friend texts after that; then the prompt comes back under it with the half line.
    child.expect(FRIEND)
    child.expect(waiting(CHAT + re.escape(HALF)))

    # What the person sees then (up to that drawing: more may have been read past it):
    # the friend's text on a row of its own, no typed text in it; the last row is the
    # prompt with the half line.
    read = log.getvalue()
    term = screen(read[: len(read) - len(child.buffer)], COLUMNS, ROWS)
    friend_rows = [row for row in term if re.match(r"\[\d\d:\d\d\] (Sol|Jem)\b", row)]
    assert friend_rows, term
    assert not [row for row in term if HALF in row and not row.startswith("(empty")], term
    shown = [row for row in term if row]
    assert shown[-1] == f"(empty = say nothing)> {HALF}", term

    # The person finishes the line; the game stores what was typed, as typed.
    answer(child, REST)
    child.expect([waiting(CHAT), waiting("> ")])
    child.sendeof()  # done for now: the game is saved
    child.expect(pexpect.EOF)
    said = sqlite3.connect(db).execute(
        "SELECT text FROM events WHERE kind='message' AND speaker='p1'"
    )
    assert said.fetchall() == [(HALF + REST,)]
