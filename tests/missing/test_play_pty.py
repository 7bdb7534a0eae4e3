"""A person plays missing in a real pseudo-terminal while scripted seats text: a /who during
the introductions, then a message, /search, /who and /time in the chat, then the game runs
to its ending and debrief."""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import pexpect

from tests.support.terminal import answer, waiting

CHAT_PROMPT = r"\(empty = say nothing\)> "
CHAT = ["Anyone heard from Arlo? I'm at home.", "/search cinema", "/who", "/time"]


def test_a_person_texts_and_uses_commands_while_scripted_seats_talk(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    env = {**os.environ, "COLUMNS": "160", "PARLOUR_DB": str(db)}
    args = [
        "-m",
        "parlour",
        "play",
        "missing",
        "--as",
        "Dot",
        "--model",
        "scripted",
        "--seed",
        "3",
        "--set",
        "town=small_hours",
        "--set",
        "minutes=8",
        "--set",
        "person_wait=0.4",
    ]
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=90, dimensions=(24, 160)
    )
    typed = list(CHAT)
    setup = 0
    while True:
        i = child.expect([waiting(CHAT_PROMPT), waiting("> "), "Game over", pexpect.EOF])
        if i == 0:
            answer(child, typed.pop(0) if typed else "")
        elif i == 1:
            setup += 1
            # The third question is Dot's introduction: a command there is answered, the
            # question asked again, and only then the introduction posted.
            said = "/who" if setup == 3 else "You remember the kettle was still warm."
            answer(child, said)
        else:
            break
    child.expect(pexpect.EOF)
    assert not typed and setup >= 5
    con = sqlite3.connect(db)
    assert con.execute("SELECT status FROM games").fetchall() == [("finished",)]
    said = con.execute(
        "SELECT count(*) FROM events WHERE kind='message' AND speaker='p1' "
        "AND text LIKE 'Anyone heard from Arlo%'"
    ).fetchone()
    assert said == (1,)
    others = con.execute(
        "SELECT count(*) FROM events WHERE kind='message' AND speaker!='p1'"
    ).fetchone()[0]
    assert others >= 3
    replies = {row[0] for row in con.execute("SELECT data FROM events WHERE kind='reply'")}
    assert any('"who"' in r for r in replies) and any('"time"' in r for r in replies)
    assert any('"search"' in r for r in replies)
    early = con.execute("SELECT text FROM events WHERE kind='reply' AND phase='intro'").fetchall()
    assert len(early) == 1 and "Dot (" in early[0][0]
    intro = con.execute("SELECT text FROM events WHERE kind='introduction' AND speaker='p1'")
    assert intro.fetchall() == [("You remember the kettle was still warm.",)]
    assert not con.execute("SELECT count(*) FROM events WHERE text LIKE '/%'").fetchone()[0]
    found = con.execute("SELECT to_seats FROM events WHERE kind='found'").fetchall()
    assert found and all(row[0].count('"p') == 1 for row in found)  # searcher only
    assert con.execute("SELECT count(*) FROM events WHERE kind='debrief'").fetchone()[0] == 3
