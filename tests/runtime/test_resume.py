"""Resume continues exactly: in-process, and after a real kill -9 of the CLI."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parlour.runtime import session as sessions
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.seating import SeatPlan
from parlour.runtime.store import Store, db_url

SCRIPTED = SeatPlan(default="scripted", system_default="scripted", overrides={})


def _events(store: Store, gid: str) -> list[str]:
    return [e.model_dump_json() for e in store.events(gid)]


def test_resume_in_process_matches_an_uninterrupted_game(tmp_path: Path) -> None:
    one = Store(db_url(str(tmp_path / "one.sqlite")))
    whole = sessions.start(one, "werewolf", players=9, seed=11, options={}, plan=SCRIPTED)
    asyncio.run(whole.run())

    two = Store(db_url(str(tmp_path / "two.sqlite")))
    part = sessions.start(two, "werewolf", players=9, seed=11, options={}, plan=SCRIPTED)
    assert asyncio.run(part.run(max_batches=25)) is None
    # A new store object on the same file: nothing but the database carries over.
    again = Store(db_url(str(tmp_path / "two.sqlite")))
    resumed = sessions.resume(again, part.game_id)
    asyncio.run(resumed.run())

    assert _events(two, part.game_id) == _events(one, whole.game_id)
    assert again.get_game(part.game_id).status == "finished"


def _count(db: Path, table: str) -> int:
    try:
        with sqlite3.connect(db) as conn:
            return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow  # kill -9 of a real process
def test_kill_9_then_resume_gives_the_same_final_log(tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "200"}
    base = [sys.executable, "-m", "parlour"]
    game = ["werewolf", "--players", "9", "--seed", "7", "--model", "scripted", "--quiet"]

    whole_db = tmp_path / "whole.sqlite"
    subprocess.run(
        [*base, "watch", *game, "--db", str(whole_db)],
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )

    killed_db = tmp_path / "killed.sqlite"
    proc = subprocess.Popen(
        [*base, "watch", *game, "--pace", "0.02", "--db", str(killed_db)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while _count(killed_db, "actions") < 40 and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    applied = _count(killed_db, "actions")
    assert applied >= 40, "the game did not get going before the kill"

    with sqlite3.connect(killed_db) as conn:
        gid, status = conn.execute("SELECT id, status FROM games").fetchone()
    assert status == "running", "the kill came too late: the game had already finished"
    out = subprocess.run(
        [*base, "resume", gid, "--quiet", "--db", str(killed_db)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr

    def final_log(db: Path) -> list[tuple[object, ...]]:
        with sqlite3.connect(db) as conn:
            return conn.execute(
                "SELECT seq, kind, phase, audience, speaker, text, data FROM events ORDER BY seq"
            ).fetchall()

    assert final_log(killed_db) == final_log(whole_db)
    with sqlite3.connect(killed_db) as conn:
        (result,) = conn.execute("SELECT result FROM games").fetchone()
    assert json.loads(result)["winners"]


# -- replayed and chaos games (F5): streams go on from the stored calls ----------------------

FIXTURES = Path(__file__).parents[1] / "fixtures"
RECORDED = json.loads((FIXTURES / "werewolf_local.json").read_text())
REPLAY = f"replay:{RECORDED['game_id']}"
# Faults over order-only replay: both the chaos draws and the replay position matter.
CHAOS = f"chaos(rate=0.3):replay(strict=false):{RECORDED['game_id']}"


def _recording(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    shutil.copy(FIXTURES / "werewolf_local.sqlite", path)
    return path


def _plan(store: Store, model: str) -> sessions.SessionPlan:
    options = {} if model == REPLAY else dict(RECORDED["options"])
    return sessions.plan(store, "werewolf", seed=RECORDED["seed"], model=model, options=options)


def _calls(store: Store, gid: str) -> dict[str, list[tuple[str, str, str]]]:
    out: dict[str, list[tuple[str, str, str]]] = {}
    for c in store.calls(gid):
        out.setdefault(c.seat, []).append((c.decision_id, c.outcome, c.response_text))
    return out


@pytest.mark.parametrize("model", [REPLAY, CHAOS])
def test_a_resumed_replay_or_chaos_game_matches_an_uninterrupted_one(
    tmp_path: Path, model: str
) -> None:
    one = Store(db_url(str(_recording(tmp_path, "one.sqlite"))))
    whole = sessions.start_planned(one, _plan(one, model))
    asyncio.run(whole.run())

    path = _recording(tmp_path, "two.sqlite")
    two = Store(db_url(str(path)))
    part = sessions.start_planned(two, _plan(two, model))
    assert asyncio.run(part.run(max_batches=6)) is None
    again = Store(db_url(str(path)))  # a new process would start from the file alone
    resumed = sessions.resume(again, part.game_id, llm_factory=LlmFactory(store=again))
    asyncio.run(resumed.run())

    assert _events(two, part.game_id) == _events(one, whole.game_id)
    assert _calls(two, part.game_id) == _calls(one, whole.game_id)
    by = [a.by for a in two.actions(part.game_id)]
    assert by == [a.by for a in one.actions(whole.game_id)]
    if model == REPLAY:  # the replay is the recorded game, call for call
        assert _events(two, part.game_id) == _events(two, RECORDED["game_id"])
        assert "error" not in {c.outcome for c in two.calls(part.game_id)}


def _cli_game(db: Path, model: str, *extra: str) -> list[str]:
    options = (
        []
        if model == REPLAY
        else [f"--set={k}={json.dumps(v)}" for k, v in RECORDED["options"].items()]
    )
    seed = [] if model == REPLAY else ["--seed", str(RECORDED["seed"])]
    return [
        sys.executable,
        "-m",
        "parlour",
        "watch",
        "werewolf",
        "--model",
        model,
        *seed,
        *options,
        "--quiet",
        "--db",
        str(db),
        *extra,
    ]


def _new_game(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        (gid,) = conn.execute(
            "SELECT id FROM games WHERE id != ?", (RECORDED["game_id"],)
        ).fetchone()
    return str(gid)


def _final(db: Path, gid: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    with sqlite3.connect(db) as conn:
        events = conn.execute(
            "SELECT seq, kind, phase, audience, speaker, text, data FROM events "
            "WHERE game_id = ? ORDER BY seq",
            (gid,),
        ).fetchall()
        actions = conn.execute(
            "SELECT idx, decision_id, action, by FROM actions WHERE game_id = ? ORDER BY idx",
            (gid,),
        ).fetchall()
    return events, actions


@pytest.mark.slow  # kill -9 of a real process
@pytest.mark.parametrize("model", [REPLAY, CHAOS])
def test_kill_9_then_resume_a_replayed_or_chaos_game(tmp_path: Path, model: str) -> None:
    env = {**os.environ, "COLUMNS": "200"}
    whole_db = _recording(tmp_path, "whole.sqlite")
    subprocess.run(
        _cli_game(whole_db, model), env=env, check=True, capture_output=True, timeout=180
    )

    killed_db = _recording(tmp_path, "killed.sqlite")
    proc = subprocess.Popen(
        _cli_game(killed_db, model, "--pace", "0.4"),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with sqlite3.connect(killed_db) as conn:
            (n,) = conn.execute(
                "SELECT count(*) FROM actions WHERE game_id != ?", (RECORDED["game_id"],)
            ).fetchone()
        if n >= 8:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    gid = _new_game(killed_db)
    with sqlite3.connect(killed_db) as conn:
        (status,) = conn.execute("SELECT status FROM games WHERE id = ?", (gid,)).fetchone()
    assert status == "running", "the kill came too late: the game had already finished"
    out = subprocess.run(
        [sys.executable, "-m", "parlour", "resume", gid, "--quiet", "--db", str(killed_db)],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert out.returncode == 0, out.stderr
    if model == REPLAY:  # no stream restarted from its beginning
        assert "stops matching" not in out.stderr
    assert _final(killed_db, gid) == _final(whole_db, _new_game(whole_db))
