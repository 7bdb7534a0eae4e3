"""A human plays werewolf in a real pseudo-terminal: open mic, votes, night actions."""

from __future__ import annotations

import io
import os
import re
import sqlite3
import sys
from pathlib import Path

import pexpect
import pytest

from tests.support.cli import run_parlour
from tests.support.terminal import answer, screen, waiting

#: ``slow`` (not in the fast part): real pseudo-terminal processes.
pytestmark = pytest.mark.slow

PROMPTS = [r"number> ", r"numbers, comma-separated .*> ", r"\(empty = say nothing\)> ", r"> "]
#: the prompts as drawn, waiting for keys (see tests/support/terminal.py)
WAITING = [waiting(p) for p in PROMPTS]


def _spawn(db: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "COLUMNS": "160", "PARLOUR_DB": str(db)}
    return pexpect.spawn(
        sys.executable,
        ["-m", "parlour", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(24, 160),  # as wide as COLUMNS: the prompt is drawn to the terminal's width
    )


def _kenji(db: Path) -> pexpect.spawn:
    """Werewolf, five seats, the person as Kenji against scripts, seed 2."""
    game = ("werewolf", "--players", "5", "--as", "Kenji", "--model", "scripted", "--seed", "2")
    return _spawn(db, "play", *game)


def test_a_human_plays_a_whole_game(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    child = _kenji(db)
    spoke = asked = 0
    while True:
        i = child.expect([*WAITING, "Game over", pexpect.EOF])
        if i == 0:
            answer(child, "1")
            asked += 1
        elif i == 2:
            # Say something once, then let the discussion continue.
            answer(child, "" if spoke else "I think Aiko is quiet today.")
            spoke += 1
        elif i in (1, 3):
            answer(child, "1")
        else:
            break
    child.expect(pexpect.EOF)
    assert spoke >= 1 and asked >= 1
    rows = sqlite3.connect(db).execute("SELECT status FROM games").fetchall()
    assert rows == [("finished",)]
    said = (
        sqlite3.connect(db)
        .execute(
            "SELECT count(*) FROM events "
            "WHERE kind='speech' AND speaker='p1' AND text LIKE '%Aiko%'"
        )
        .fetchone()
    )
    assert said == (1,)


def test_closing_the_terminal_saves_and_resume_continues(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    child = _spawn(
        db, "play", "werewolf", "--players", "5", "--as", "1", "--model", "scripted", "--seed", "4"
    )
    child.expect(WAITING[:3])
    child.sendeof()
    child.expect("continue with: uv run parlour resume (\\S+)")
    gid = child.match.group(1).strip()
    child.expect(pexpect.EOF)
    (status,) = sqlite3.connect(db).execute("SELECT status FROM games").fetchone()
    assert status == "paused"  # stopped by the player, listed as such until resumed
    again = _spawn(db, "resume", gid)
    while True:
        i = again.expect([*WAITING, "Game over", pexpect.EOF])
        if i >= len(PROMPTS):
            break
        answer(again, "" if i == 2 else "1")
    (status,) = sqlite3.connect(db).execute("SELECT status FROM games").fetchone()
    assert status == "finished"


def _interrupt_at_prompt(child: pexpect.spawn) -> str:
    """One Ctrl-C at a waiting prompt: the process says the game is saved and ends at
    once with Ctrl-C's status (it used to wait for Enter, then hang at exit)."""
    child.sendintr()
    child.expect(
        r"interrupted; everything so far is saved — continue with: uv run parlour resume (\S+)",
        timeout=10,
    )
    game_id = str(child.match.group(1)).strip()
    child.expect(pexpect.EOF, timeout=10)
    child.close()
    assert child.exitstatus == 130, (child.exitstatus, child.signalstatus)
    return game_id


@pytest.mark.parametrize("prompt", [0, 2], ids=["vote number", "discussion"])
def test_one_ctrl_c_at_a_prompt_ends_the_process_and_resume_continues(
    tmp_path: Path, prompt: int
) -> None:
    db = tmp_path / "g.sqlite"
    child = _kenji(db)
    while (i := child.expect(WAITING)) != prompt:  # answer until the wanted prompt
        answer(child, "" if i == 2 else "1")
    game_id = _interrupt_at_prompt(child)
    listed = run_parlour("list", "--db", str(db), timeout=60)
    assert re.search(rf"{game_id}\s.*werewolf.*│ paused │ 2 ", listed.stdout), listed.stdout
    # resume shows the table, then what the player had seen, then asks again...
    again = _spawn(db, "resume", game_id)
    again.expect("played by")
    again.expect("So far")
    again.expect("Night 1 falls")
    again.expect("Now")
    again.expect(WAITING[:3])
    # ...and one Ctrl-C there ends it the same way
    assert _interrupt_at_prompt(again) == game_id
    (status,) = sqlite3.connect(db).execute("SELECT status FROM games").fetchone()
    assert status == "paused"


@pytest.mark.parametrize("game", ["missing", "escape"])
def test_one_ctrl_c_at_other_games_prompts(tmp_path: Path, game: str) -> None:
    db = tmp_path / "g.sqlite"
    child = _spawn(db, "play", game, "--model", "scripted", "--seed", "2")
    child.expect(WAITING)
    _interrupt_at_prompt(child)
    (status,) = sqlite3.connect(db).execute("SELECT status FROM games").fetchone()
    assert status == "paused"


def test_escape_shows_what_the_player_typed_once_and_asks_which_they_meant(
    tmp_path: Path,
) -> None:
    """The typed line is on the screen after its prompt; the game's event that repeats it
    ("Player: read the note") is not printed again. The README's "Which did you mean"
    example is what the game does."""
    child = _spawn(tmp_path / "e.sqlite", "play", "escape", "--scenario", "ghost_room")
    child.logfile_read = io.StringIO()
    for line in ("read the note", "press the red or green button", "the green one"):
        child.expect(r"What do you do next\?.*\n[^\r\n]*" + waiting(">"))
        answer(child, line)
    child.expect(r"What do you do next\?.*\n[^\r\n]*" + waiting(">"))
    child.sendintr()
    child.expect(pexpect.EOF)
    # as the screen shows it: the prompt is drawn again with the line when Enter is pressed
    shown = "\n".join(screen(child.logfile_read.getvalue()))
    assert "Player: " not in shown, shown
    for typed in ("read the note", "press the red or green button", "the green one"):
        assert shown.count(typed) == 1, (typed, shown)
    assert "The note is written in a trembling hand" in shown
    assert (
        "Which did you mean: (1) press the red button beside the door, or (2) press the "
        "green button beside the door?"
    ) in shown
    assert "The green button clicks" in shown
