"""Terminal play end to end through a pseudo-terminal, and the form-filling human seat."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
from rich.console import Console

from parlour.core.actions import Choices, Structured
from parlour.core.asks import Hints
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng
from parlour.games.diplomacy import DiplomacyGame, make_config
from parlour.runtime import session as sessions
from parlour.runtime.store import Store, db_url
from parlour.seats.human import HumanSeat
from parlour.seats.human_forms import Form

UNIT_PROMPT = r"(?P<unit>[AF] [A-Z]{3}(?:/[A-Z]{2})?) \[Enter = 1\]> "
SUBMIT = r"Submit\? \[Y/n\]> "
BUILDS = r"numbers, comma-separated \(\d+-\d+\)> "


def _spawn(db: Path, *flags: str) -> pexpect.spawn:
    env = {**os.environ, "COLUMNS": "200", "TERM": "dumb", "PYTHONUNBUFFERED": "1"}
    args = ["-m", "parlour", "play", "diplomacy", *flags]
    args += ["--model", "dumbbot", "--seed", "1", "--db", str(db)]
    return pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=60, dimensions=(50, 200)
    )


def test_two_phases_in_a_terminal_then_ctrl_d_and_resume(tmp_path: Path) -> None:
    db = tmp_path / "play.sqlite"
    child = _spawn(db, "--as", "FRANCE")
    # Spring 1901: the board summary, then each French unit with numbered legal orders.
    child.expect("Spring 1901 Movement")
    child.expect("France \\(you\\): units F BRE, A MAR, A PAR")
    answers = {"F BRE": "2", "A MAR": "", "A PAR": "3"}  # F BRE - ENG, hold, A PAR - BUR
    for unit in ("F BRE", "A MAR", "A PAR"):
        # likely orders first, under their heading: the hold is still number 1
        child.expect(
            re.escape(f"{unit} (")
            + r"[A-Za-z ]+\):\r\n\s+likely:\r\n\s+1\. "
            + re.escape(f"{unit} H")
        )
        child.expect(UNIT_PROMPT)
        assert child.match.group("unit") == unit
        child.sendline(answers[unit])
    child.expect(SUBMIT)
    child.sendline("y")
    # The orders become public after adjudication, then Fall 1901 asks again.
    child.expect(r"France: F BRE - ENG; A MAR H; A PAR - BUR")
    child.expect("Fall 1901 Movement")
    while True:
        which = child.expect([UNIT_PROMPT, SUBMIT])
        if which == 1:
            child.sendline("")
            break
        child.sendline("")  # Enter: the first option, a hold
    # The next phase's board summary (Winter builds or Spring 1902), then Ctrl-D.
    child.expect(r"(Winter 1901 Adjustments|Spring 1902 Movement)\. Supply centres: Austria")
    child.expect([UNIT_PROMPT, BUILDS])
    child.sendeof()
    child.expect(r"continue with: uv run parlour resume\s+(?P<id>di-[0-9a-f]+)")
    game_id = child.match.group("id")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130

    store = Store(db_url(str(db)))
    row = store.get_game(game_id)
    assert row.status == "paused" and row.seats["FRANCE"] == "human"  # until resumed
    mine = [a for a in store.actions(game_id) if a.seat == "FRANCE"]
    assert [a.decision_id for a in mine] == ["S1901M:orders:FRANCE", "F1901M:orders:FRANCE"]
    assert all(a.by == "human" for a in mine)
    first = mine[0].action
    assert isinstance(first, Structured) and first.value["F BRE"] == "F BRE - ENG"
    # Resumable: a bot takes France over and the game runs to its end.
    resumed = sessions.resume(store, game_id, seat_overrides={"FRANCE": "dumbbot"})
    result = asyncio.run(resumed.run())
    assert result is not None and store.get_game(game_id).status == "finished"


def test_power_is_an_alias_of_as(tmp_path: Path) -> None:
    child = _spawn(tmp_path / "alias.sqlite", "--power", "ENGLAND")
    child.expect("England \\(you\\): units F EDI, F LON, A LVP")
    child.expect(UNIT_PROMPT)
    assert child.match.group("unit") == "F EDI"
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


# -- the form-filling human seat, without a terminal ------------------------------------------


def _typed(lines: list[str]) -> Iterator[str]:
    yield from lines


def _seat(lines: list[str]) -> tuple[HumanSeat, list[str]]:
    feed = _typed(lines)
    asked: list[str] = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    console = Console(file=open(os.devnull, "w"), width=120)  # noqa: SIM115
    return HumanSeat(console=console, input_fn=answer), asked


def test_orders_are_asked_unit_by_unit_with_a_confirmation() -> None:
    game = DiplomacyGame.new(make_config(None, {}), 1)
    decision = next(d for d in game.pending() if d.seat == "FRANCE")
    # First pass: pick orders, then refuse to submit; second pass: Enter everywhere.
    seat, asked = _seat(["2", "A MAR - SPA", "99", "3", "n", "", "", "", ""])
    action = asyncio.run(seat.decide(game.view("FRANCE"), decision))
    assert action == Structured(value={"F BRE": "F BRE H", "A MAR": "A MAR H", "A PAR": "A PAR H"})
    assert asked.count("Submit? [Y/n]> ") == 2
    assert asked[:4] == ["F BRE [Enter = 1]> ", "A MAR [Enter = 1]> ", *["A PAR [Enter = 1]> "] * 2]


def test_press_messages_are_asked_one_by_one() -> None:
    game = DiplomacyGame.new(make_config(None, {"press_rounds": 1}), 1)
    decision = next(d for d in game.pending() if d.seat == "FRANCE")
    lines = ["Hello Germany", "4", "Peace to all", "", "", "y"]
    seat, asked = _seat(lines)
    action = asyncio.run(seat.decide(game.view("FRANCE"), decision))
    assert action == Structured(
        value={
            "messages": [
                {"text": "Hello Germany", "to": "GERMANY"},
                {"text": "Peace to all", "to": "ALL"},
            ]
        }
    )
    assert asked[0] == "  text (empty line = done)> "
    game.apply(decision.id, action)


def test_builds_keep_the_numbered_choice() -> None:
    game = DiplomacyGame.new(make_config(None, {}), 1)
    rng = Rng(1)
    while not any(d.purpose == "builds" for d in game.pending()):
        for d in game.pending():
            game.apply(d.id, random_answer(d, rng))
    decision = next(d for d in game.pending() if d.purpose == "builds")
    seat, asked = _seat(["1"])
    action = asyncio.run(seat.decide(game.view(decision.seat), decision))
    assert action == Choices(options=(decision.options[0].id,))
    assert asked[0].startswith("numbers, comma-separated (0-")


def test_orders_can_be_typed_short_and_a_miss_explains_the_forms() -> None:
    game = DiplomacyGame.new(make_config(None, {}), 1)
    decision = next(d for d in game.pending() if d.seat == "FRANCE")
    said: list[str] = []
    lines = iter(["spa", "xyz", "a par->bur", "mao", "MAR S PAR - BUR", "Burgundy"])

    async def ask(prompt: str) -> str:
        return next(lines)

    form = Form(ask, said.append, Hints.of(decision))
    assert decision.json_schema is not None
    props = decision.json_schema["properties"]
    # "spa" is Marseilles' move to Spain: F BRE cannot go there, so it is not an option.
    got = [asyncio.run(form.choose(u, props[u])) for u in ("A MAR", "A PAR", "F BRE", "A MAR")]
    assert got == ["A MAR - SPA", "A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR"]
    miss = [s for s in said if "is not one of the options" in s]
    assert len(miss) == 1 and "'xyz'" in miss[0] and "MAR - SPA" in miss[0]
    assert "destination alone" in miss[0]
    assert asyncio.run(form.choose("A PAR", props["A PAR"])) == "A PAR - BUR"  # "Burgundy"


def test_an_ambiguous_short_form_lists_what_it_could_mean() -> None:
    said: list[str] = []
    lines = iter(["spa", "2"])

    async def ask(prompt: str) -> str:
        return next(lines)

    orders = ["F MAO H", "F MAO - SPA/NC", "F MAO - SPA/SC"]
    hints = Hints(aliases={"F MAO": {"SPA": ["F MAO - SPA/NC", "F MAO - SPA/SC"]}})
    form = Form(ask, said.append, hints)
    assert asyncio.run(form.choose("F MAO", {"enum": orders})) == "F MAO - SPA/NC"
    assert any("could be: F MAO - SPA/NC; F MAO - SPA/SC" in s for s in said)


def test_the_phase_line_is_not_repeated_in_the_board_summary() -> None:
    game = DiplomacyGame.new(make_config(None, {}), 1)
    decision = next(d for d in game.pending() if d.seat == "FRANCE")
    phase_events = [e.text for e in game.view("FRANCE").events if e.kind == "phase"]
    assert phase_events == [phase_events[0]] and "Supply centres" in phase_events[0]
    summary = Hints.of(decision).summary
    assert "Supply centres" not in summary and "Spring 1901" not in summary
    assert summary.startswith("Austria: units")
