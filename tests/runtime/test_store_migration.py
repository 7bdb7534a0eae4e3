"""Databases written before stored audiences (schema v2) migrate, show and resume.

``tests/fixtures/store_v2.sqlite`` was made by parlour at commit 57bae59 (schema v2):
an unfinished scripted werewolf game (9 players, seed 5, 30 batches) and an unfinished
scripted diplomacy game (seed 2, end_year 1902, press_rounds 1, 6 batches). Its short
game ids (8 hex digits) predate the 64-bit ids and must keep working.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from parlour.runtime import session as sessions
from parlour.runtime.audiences import resolve
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, UnresolvedAudiences, db_url, schema
from tests.support.cli import run_parlour_here

FIXTURES = Path(__file__).parents[1] / "fixtures"
SCRIPTED = SeatPlan(default="scripted", system_default="scripted", overrides={})
WEREWOLF, DIPLOMACY = "we-869e60f4", "di-b2d12782"
OPTIONS: dict[str, tuple[int | None, int, dict[str, Any]]] = {
    WEREWOLF: (9, 5, {}),
    DIPLOMACY: (None, 2, {"end_year": 1902, "press_rounds": 1}),
}


@pytest.fixture
def old_db(tmp_path: Path) -> Path:
    path = tmp_path / "old.sqlite"
    shutil.copy(FIXTURES / "store_v2.sqlite", path)
    return path


def _dump(store: Store, gid: str) -> list[str]:
    return [e.model_dump_json(exclude={"to"}) for e in store.events(gid)]


def test_fixture_is_schema_v2(old_db: Path) -> None:
    with sqlite3.connect(old_db) as conn:
        assert conn.execute("SELECT max(version) FROM schema_version").fetchone() == (2,)
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "event_seats" not in tables


def test_old_database_migrates_and_its_games_resume_identically(
    old_db: Path, tmp_path: Path
) -> None:
    store = Store(db_url(str(old_db)))
    with sqlite3.connect(old_db) as conn:
        assert conn.execute("SELECT max(version) FROM schema_version").fetchone() == (
            schema.LATEST,
        )
        assert conn.execute("PRAGMA application_id").fetchone() == (schema.APPLICATION_ID,)
    # Listed seats were backfilled from the audience JSON; the pack's channel waits for
    # the game to say who was in it.
    assert store.events_for(DIPLOMACY, "FRANCE")
    with pytest.raises(UnresolvedAudiences):
        store.events_for(WEREWOLF, "p1")
    assert len(store.unresolved_seqs(WEREWOLF)) == 6  # the fixture's six wolf-chat events
    assert resolve(store, WEREWOLF) == 6
    assert store.unresolved_seqs(WEREWOLF) == []
    _, game, _ = sessions.rebuild(store, WEREWOLF)
    for seat in game.seats():
        assert [e.seq for e in store.events_for(WEREWOLF, seat.id)] == [
            e.seq for e in game.view(seat.id).events
        ]

    for gid, (players, seed, options) in OPTIONS.items():
        stored = _dump(store, gid)
        resumed = sessions.resume(store, gid)
        assert asyncio.run(resumed.run()) is not None
        assert _dump(store, gid)[: len(stored)] == stored  # nothing stored was changed
        if gid == WEREWOLF:
            # Its stored actions are the scripted players' of the fixture's day; today's
            # scripted players (belief, day plans) choose otherwise, so a fresh game is
            # another game. It resumed to its end on top of what was stored: enough here.
            assert store.get_game(gid).status == "finished"
            continue
        fresh = Store(db_url(str(tmp_path / f"fresh-{gid}.sqlite")))
        whole = sessions.start(
            fresh, resumed.game_name, players=players, seed=seed, options=options, plan=SCRIPTED
        )
        asyncio.run(whole.run())
        assert _dump(store, gid) == _dump(fresh, whole.game_id)
        assert store.get_game(gid).status == "finished"


def test_old_database_through_the_cli(old_db: Path) -> None:
    def parlour(*args: str) -> subprocess.CompletedProcess[str]:
        return run_parlour_here(*args, "--db", str(old_db))

    shown = parlour("show", WEREWOLF, "--as", "p1")
    assert shown.returncode == 0, shown.stderr
    assert "as Kenji" in shown.stdout or "— as" in shown.stdout
    resumed = parlour("resume", WEREWOLF, "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    assert "Game over" in resumed.stdout
    listed = parlour("list")
    assert WEREWOLF in listed.stdout and DIPLOMACY in listed.stdout


def test_the_recorded_model_game_migrates_and_shows_as_a_seat(tmp_path: Path) -> None:
    path = tmp_path / "recorded.sqlite"
    shutil.copy(FIXTURES / "werewolf_local.sqlite", path)
    store = Store(db_url(str(path)))
    gid = store.list_games()[0].id
    # Its events were re-derived with today's rules, which fill every group's seats.
    assert resolve(store, gid) == 0
    _, game, _ = sessions.rebuild(store, gid)
    for seat in game.seats():
        assert [e.seq for e in store.events_for(gid, seat.id)] == [
            e.seq for e in game.view(seat.id).events
        ]


def test_new_game_ids_carry_64_random_bits_and_old_ids_still_open(old_db: Path) -> None:
    store = Store(db_url(str(old_db)))
    gid = store.create_game("werewolf", "{}", 1, {})
    prefix, _, digits = gid.partition("-")
    assert prefix == "we" and len(digits) == 16 and int(digits, 16) >= 0
    assert len({store.create_game("werewolf", "{}", 1, {}) for _ in range(200)}) == 200
    assert store.get_game(WEREWOLF).seed == 5
