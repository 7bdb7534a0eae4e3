"""Context components from the command line: a seat spec wrapper, stored with the game."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import CliRunner

FIXTURE = Path(__file__).parents[1] / "fixtures" / "werewolf_local.sqlite"
RECORDED = json.loads((FIXTURE.parent / "werewolf_local.json").read_text())["game_id"]


@pytest.mark.parametrize(
    ("model", "says"),
    [
        ("context(dreams):local", "unknown context component 'dreams'"),
        ("context(recall,embed=replay:" + RECORDED + "):local", "cannot embed texts"),
    ],
)
def test_bad_context_spec_is_one_line_and_stores_nothing(
    cli_here: CliRunner, db_path: Path, model: str, says: str
) -> None:
    shutil.copy(FIXTURE, db_path)
    out = cli_here("watch", "werewolf", "-n", "6", "--model", model, "--quiet", timeout=120)
    assert out.returncode == 2
    lines = [line for line in (out.stderr + out.stdout).splitlines() if line.strip()]
    assert len(lines) == 1 and says in lines[0], out.stderr + out.stdout
    assert sqlite3.connect(db_path).execute("SELECT count(*) FROM games").fetchone() == (1,)


def test_watch_with_context_logs_retrievals(cli_here: CliRunner, db_path: Path) -> None:
    shutil.copy(FIXTURE, db_path)
    spec = f"context(memory,journal,recall):replay(strict=false):{RECORDED}"
    out = cli_here("watch", "werewolf", "-n", "6", "--seed", "11", "--model", spec, "--quiet")
    assert out.returncode == 0, out.stderr
    db = sqlite3.connect(db_path)
    (gid,) = db.execute("SELECT id FROM games WHERE id != ?", (RECORDED,)).fetchone()
    rows = db.execute(
        "SELECT component, count(*) FROM retrievals WHERE game_id = ? GROUP BY component",
        (gid,),
    ).fetchall()
    assert {c for c, n in rows if n > 0} == {"memory", "journal", "recall"}
