"""What a new user runs into on a fresh clone: wrong paths, ports, options and ranges.

Every case is a real ``python -m parlour`` subprocess on a real SQLite file: a one-line
error naming the fix, a non-zero exit, no traceback and nothing stored or created.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _run(*args: str, db: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("PARLOUR_DB", None)
    if db is not None:
        env["PARLOUR_DB"] = str(db)
    return subprocess.run(
        [sys.executable, "-m", "parlour", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def _one_line_error(out: subprocess.CompletedProcess[str], *words: str) -> None:
    assert out.returncode != 0, out
    assert "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A finished scripted werewolf game (no model calls) in its own database."""
    db = tmp_path_factory.mktemp("played") / "games.sqlite"
    out = _run(
        "watch",
        "werewolf",
        "--model",
        "scripted",
        "--players",
        "5",
        "--seed",
        "1",
        "--quiet",
        db=db,
    )
    assert out.returncode == 0, out.stderr
    return db, out.stdout.strip().splitlines()[-1].split()[2]


def test_export_to_a_missing_folder_is_refused_like_show(
    played: tuple[Path, str], tmp_path: Path
) -> None:
    db, game_id = played
    target = tmp_path / "no" / "such" / "g.jsonl"
    out = _run("export", game_id, "--out", str(target), db=db)
    _one_line_error(out, f"no folder {target.parent}", "create it first")
    assert not (tmp_path / "no").exists()
    shown = _run("show", game_id, "-o", str(tmp_path / "no" / "g.txt"), db=db)
    _one_line_error(shown, "create it first")  # the same words as show
    into_a_folder = _run("export", game_id, "--out", str(tmp_path), db=db)
    _one_line_error(into_a_folder, "Is a directory", "pick another --out path")
    good = _run("export", game_id, "--out", str(tmp_path / "g.jsonl"), db=db)
    assert good.returncode == 0 and (tmp_path / "g.jsonl").read_text().count("\n") > 10
