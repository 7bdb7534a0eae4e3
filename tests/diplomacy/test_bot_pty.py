"""Two people and five bots in one terminal (hot seat), press in both directions."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pexpect

from parlour.runtime.store import Store, db_url

PROMPT = r"> $"


def test_two_people_and_five_bots_talk_both_ways(tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite"
    env = {**os.environ, "COLUMNS": "200", "TERM": "dumb", "PYTHONUNBUFFERED": "1"}
    args = ["-m", "parlour", "play", "diplomacy", "--as", "FRANCE", "--seat", "GERMANY=human"]
    args += ["--model", "bot:scripted", "--set", "press_rounds=1", "--set", "end_year=1901"]
    args += ["--seed", "1", "--db", str(db)]
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=90, dimensions=(50, 200)
    )
    screen_log = io.StringIO()
    child.logfile_read = screen_log
    # France asks England a question in private; Germany wishes everyone luck.
    child.expect(r"France — Press before the Spring 1901")
    child.expect(PROMPT)
    child.sendline("Will you support A PAR - BUR?")
    child.expect(r"to \[Enter = 1\]> ")
    child.sendline("3")  # ENGLAND (1 is ALL)
    child.expect(PROMPT)
    child.sendline("")  # no second message
    child.expect(r"Submit\? \[Y/n\]> ")
    child.sendline("y")
    child.expect(r"Germany — Press before the Spring 1901")
    child.expect(PROMPT)
    child.sendline("good luck all")
    child.expect(r"to \[Enter = 1\]> ")
    child.sendline("")  # ALL
    # from here on: Enter everywhere (no more talk, first legal option, submit)
    while True:
        which = child.expect([PROMPT, pexpect.EOF], timeout=120)
        if which == 1:
            break
        child.sendline("")
    child.close()
    screen = " ".join(screen_log.getvalue().split())  # rich wraps lines at the width
    assert child.exitstatus == 0, screen[-2000:]
    # bots -> person: England answers France's question in private, and the bots'
    # agendas open a conversation with a person: a proposal (peace or an alliance for
    # two seasons) the game put into words
    assert "[England, France] England: Noted." in screen
    assert "for the next 2 seasons" in screen

    store = Store(db_url(str(db)))
    (game,) = store.list_games()
    assert game.status == "finished"
    press = [e for e in store.events(game.id) if e.kind == "press"]
    people = {"FRANCE", "GERMANY"}
    to_bots = [e for e in press if e.speaker in people]
    from_bots = [e for e in press if e.speaker not in people]
    assert {e.speaker for e in to_bots} == people  # person -> bot, both people
    assert any(e.data["to"] == "ENGLAND" for e in to_bots)
    assert from_bots and all(e.data["to"] in people for e in from_bots)  # bot -> person
    # "good luck all" is small talk: no bot answered Germany
    assert not any(e.data["to"] == "GERMANY" and e.text.startswith("Noted") for e in from_bots)
    # every bot submitted orders in both movement phases
    orders = [e for e in store.events(game.id) if e.kind == "orders"]
    assert {(e.phase, e.speaker) for e in orders} >= {
        (p, s) for p in ("S1901M", "F1901M") for s in game.seats if s not in people
    }
