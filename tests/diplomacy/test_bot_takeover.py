"""Takeover: `parlour resume ID --seat ITALY=bot:scripted` makes Italy a bot from the
next movement phase; its journal is bootstrapped from the public record and its press."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from parlour.games.diplomacy.config import next_bot_phase
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.runtime import session as sessions
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, db_url


def _resume(db: Path, game_id: str, seat: str, *, timeout: int) -> subprocess.CompletedProcess[str]:
    """``parlour resume GAME --seat SEAT`` in a real subprocess, as a user runs it."""
    command = ["resume", game_id, "--quiet", "--seat", seat, "--db", str(db)]
    return subprocess.run(
        [sys.executable, "-m", "parlour", *command],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_resume_with_a_bot_seat_takes_the_power_over(tmp_path: Path) -> None:
    db = tmp_path / "takeover.sqlite"
    store = Store(db_url(str(db)))
    plan = SeatPlan(default="dumbbot", system_default="dumbbot", overrides={})
    part = sessions.start(
        store, "diplomacy", players=None, seed=5, options={"end_year": 1902}, plan=plan
    )
    assert asyncio.run(part.run(max_batches=1)) is None
    game = part.game
    assert isinstance(game, DiplomacyGame) and game.board.phase.year == 1901
    stopped_at = game.board.phase.name
    before = [a.action for a in store.actions(part.game_id)]

    done = _resume(db, part.game_id, "ITALY=bot(persona=cautious):scripted", timeout=300)
    assert done.returncode == 0, done.stderr
    again = Store(db_url(str(db)))
    row = again.get_game(part.game_id)
    assert row.status == "finished"
    assert row.seats["ITALY"] == "bot(persona=cautious):scripted"
    config = json.loads(row.config)
    first = next_bot_phase(stopped_at)
    assert config["bots"] == ["ITALY"] and config["bots_from"] == {"ITALY": first}
    assert config["personas"] == {"ITALY": "cautious"}
    # the actions before the takeover are untouched; they replay under the new config
    assert [a.action for a in again.actions(part.game_id)][: len(before)] == before
    _, final, _ = sessions.rebuild(again, part.game_id)
    assert isinstance(final, DiplomacyGame)
    bot = final.view("ITALY").private.bot
    assert bot is not None and bot.bootstrapped and bot.journal
    plans = [a for a in again.actions(part.game_id) if ":plan:ITALY" in a.decision_id]
    assert plans and plans[0].decision_id.startswith(first)
    assert any(e.kind == "journal" for e in final.view("ITALY").events)
    # a second takeover of the same seat changes nothing
    again_plan = sessions.plan_resume(again, part.game_id, seats={"ITALY": "bot:scripted"})
    assert again_plan.config == final.config


def test_takeover_of_a_game_without_a_bot_protocol_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "ww.sqlite"
    store = Store(db_url(str(db)))
    plan = SeatPlan(default="scripted", system_default="scripted", overrides={})
    part = sessions.start(store, "werewolf", players=6, seed=1, options={}, plan=plan)
    assert asyncio.run(part.run(max_batches=2)) is None
    seat = next(iter(store.get_game(part.game_id).seats))
    done = _resume(db, part.game_id, f"{seat}=bot:scripted", timeout=120)
    assert done.returncode != 0
    assert done.stderr.strip().startswith("error:") and "bot protocol" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
