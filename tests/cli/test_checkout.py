"""Run from a source checkout, parlour keeps its games in that checkout and prints the
commands it suggests as ``uv run parlour ...``; installed, ``parlour ...`` and one
per-user database. ``--db`` and ``$PARLOUR_DB`` override the default everywhere."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from parlour.core import commands
from parlour.runtime.store import default_db_url
from tests.support.cli import run_parlour

ROOT = Path(__file__).resolve().parents[2]


def test_this_checkout_is_found_and_commands_say_uv_run() -> None:
    assert commands.checkout() == ROOT
    assert commands.command("resume we-1") == "uv run parlour resume we-1"
    assert commands.pip_install("ray") == "uv pip install ray"


def test_installed_parlour_says_parlour_and_keeps_the_per_user_database(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(commands, "checkout", lambda: None)
    monkeypatch.delenv("PARLOUR_DB", raising=False)
    assert commands.command("resume we-1") == "parlour resume we-1"
    assert commands.pip_install("'psycopg[binary]'") == "pip install 'psycopg[binary]'"
    assert ".parlour" not in default_db_url() and default_db_url().endswith("parlour.sqlite")
    monkeypatch.setenv("PARLOUR_DB", str(tmp_path / "mine.sqlite"))
    assert default_db_url() == f"sqlite:///{tmp_path / 'mine.sqlite'}"


def test_a_folder_without_parlours_pyproject_is_no_checkout(tmp_path: Path) -> None:
    (tmp_path / "src" / "parlour").mkdir(parents=True)
    assert not commands._is_checkout(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "other"\n')
    assert not commands._is_checkout(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "parlour"\n')
    assert commands._is_checkout(tmp_path)


def _checkout(where: Path) -> Path:
    """A second source tree of parlour: its package and its pyproject, nothing else."""
    shutil.copytree(ROOT / "src", where / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", where / "pyproject.toml")
    return where


def _parlour(tree: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_parlour(*args, env={"PYTHONPATH": str(tree / "src")}, cwd=cwd)


def test_two_checkouts_keep_their_own_games(tmp_path: Path) -> None:
    one, two = _checkout(tmp_path / "one"), _checkout(tmp_path / "two")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    played = _parlour(one, "watch", "escape", "--model", "scripted", "--seed", "3", cwd=elsewhere)
    assert played.returncode == 0, played.stderr
    [game_id] = re.findall(r"saved as (\S+) \(uv run parlour show \1\)", played.stdout)
    assert (one / ".parlour" / "parlour.sqlite").is_file()
    assert not (two / ".parlour").exists()
    # the same checkout lists it from any folder; the other checkout does not
    listed = _parlour(one, "list", cwd=elsewhere)
    assert listed.returncode == 0 and game_id in listed.stdout, listed.stdout + listed.stderr
    other = _parlour(two, "list", cwd=one)
    assert other.returncode == 0 and game_id not in other.stdout, other.stdout
    # --db still picks any database, from either checkout
    shared = _parlour(two, "list", "--db", str(one / ".parlour" / "parlour.sqlite"), cwd=two)
    assert game_id in shared.stdout, shared.stdout + shared.stderr


def test_the_resume_hint_names_a_database_that_is_not_the_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from types import SimpleNamespace

    from parlour.cli.app import _again
    from parlour.runtime.store import Store

    monkeypatch.setenv("PARLOUR_DB", str(tmp_path / "default.sqlite"))
    session: Any = SimpleNamespace(game_id="es-1")
    assert _again(Store(), "resume", session) == "uv run parlour resume es-1"
    other = tmp_path / "my games.sqlite"
    hint = _again(Store(f"sqlite:///{other}"), "show", session)
    assert hint == f"uv run parlour show es-1 --db '{other}'"
