"""Many writers on one database: 4 ``parlour watch`` processes at once, on one SQLite file
(WAL) and on a throwaway PostgreSQL server (``tests/support/postgres.py``: skipped, with the
reason, where its binaries are not installed).

Every game must finish, replay from its stored actions to exactly its stored events, and
equal the same game played alone: no action lost or mixed between games.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from parlour.runtime import session as sessions
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, db_url
from tests.support.postgres import postgres_server, postgres_url  # noqa: F401

#: ``slow`` (not in the fast part): 4 parlour processes writing one database at once.
pytestmark = pytest.mark.slow

SCRIPTED = SeatPlan(default="scripted", system_default="scripted", overrides={})

#: Four different games (name, players, seed, options), written at once.
GAMES: list[tuple[str, int | None, int, dict[str, Any]]] = [
    ("werewolf", 12, 1, {}),
    ("werewolf", 9, 2, {"maniac": True}),
    ("diplomacy", None, 3, {"end_year": 1902, "press_rounds": 1}),
    ("escape", None, 4, {"scripted_player": "explorer"}),
]


def _argv(name: str, players: int | None, seed: int, options: dict[str, Any]) -> list[str]:
    args = [sys.executable, "-m", "parlour", "watch", name, "--model", "scripted"]
    args += ["--seed", str(seed), "--quiet"]
    if players:
        args += ["--players", str(players)]
    for key, value in options.items():
        args += ["--set", f"{key}={str(value).lower() if isinstance(value, bool) else value}"]
    return args


def _write_at_once(url: str) -> None:
    env = {**os.environ, "COLUMNS": "200"}
    procs = [
        subprocess.Popen(
            [*_argv(*game), "--db", url],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for game in GAMES
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        assert "saved as" in out


def _check_every_game(url: str, tmp_path: Path) -> None:
    store = Store(url)
    rows = {(r.game, r.seed): r for r in store.list_games()}
    assert len(rows) == len(GAMES)
    for name, players, seed, options in GAMES:
        row = rows[(name, seed)]
        assert row.status == "finished"
        _, game, n_actions = sessions.rebuild(store, row.id)  # stored events == replay
        alone = Store(db_url(str(tmp_path / f"alone-{name}-{seed}.sqlite")))
        solo = sessions.start(
            alone, name, players=players, seed=seed, options=options, plan=SCRIPTED
        )
        asyncio.run(solo.run())
        assert n_actions == len(alone.actions(solo.game_id)) > 10
        assert [a.action for a in store.actions(row.id)] == [
            a.action for a in alone.actions(solo.game_id)
        ]
        dump = [e.model_dump_json(exclude={"to"}) for e in store.events(row.id)]
        assert dump == [e.model_dump_json(exclude={"to"}) for e in alone.events(solo.game_id)]
        assert len(game.events) == len(dump)
    store.close()


def test_four_processes_write_one_sqlite_file(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite"
    _write_at_once(str(db))
    _check_every_game(db_url(str(db)), tmp_path)


# -- PostgreSQL ----------------------------------------------------------------------------


def test_four_processes_write_one_postgresql_database(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    _write_at_once(postgres_url)  # four starts at once on an empty database: the migration lock
    _check_every_game(postgres_url, tmp_path)
    store = Store(postgres_url)
    gid = store.list_games()[0].id
    assert store.spectator_events(gid, "public")
    store.close()
