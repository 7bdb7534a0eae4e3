"""Golden transcripts: scripted games of every built-in game on fixed seeds.

Written before the games were re-packaged (a game is one package), so any move that
changes what a game does, says or stores shows up here as a diff. Each case plays one
game through the CLI as a user would (``watch --model scripted``), then reads it back
with ``show --reveal`` (every event, private ones too) and ``list`` (status and result).
Game ids are random, so they are masked before the comparison.

To accept a deliberate change of behaviour, rerun with ``PARLOUR_GOLDEN_UPDATE=1`` and
review the diff of ``tests/golden/*.txt`` like any other change.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.conftest import CliRunner

HERE = Path(__file__).parent

#: name → the ``watch`` arguments after ``watch``; each a short, complete game.
CASES: dict[str, tuple[str, ...]] = {
    "werewolf": ("werewolf", "--players", "7", "--seed", "3"),
    "werewolf9": ("werewolf", "--players", "9", "--seed", "11"),
    "escape": ("escape", "--seed", "2"),
    "diplomacy": ("diplomacy", "--seed", "4", "--set", "end_year=1902"),
    "missing": ("missing", "--seed", "5"),
    "campaign": ("campaign", "--seed", "6"),
}

_ID = re.compile(r"\b[a-z]{2}-[0-9a-f]{8,16}\b")
_WHEN = re.compile(r"\b\d{4}-\d\d-\d\d \d\d:\d\d\b")
_DB = re.compile(r"(saved games in )\S+")


def _masked(text: str) -> str:
    """The run's own facts (random game id, start time, database path) masked."""
    return _DB.sub(r"\1DB", _WHEN.sub("YYYY-MM-DD HH:MM", _ID.sub("GAME_ID", text)))


def _game_id(out: str) -> str:
    found = _ID.findall(out)
    assert found, out
    return found[-1]


@pytest.mark.parametrize("name", sorted(CASES))
def test_scripted_game_matches_its_golden_transcript(cli: CliRunner, name: str) -> None:
    played = cli("watch", *CASES[name], "--model", "scripted", "--quiet", timeout=600)
    assert played.returncode == 0, played.stderr + played.stdout
    game_id = _game_id(played.stdout + played.stderr)
    shown = cli("show", game_id, "--reveal")
    assert shown.returncode == 0, shown.stderr
    listed = cli("list", "--limit", "1")
    assert listed.returncode == 0, listed.stderr
    got = _masked(f"$ show --reveal\n{shown.stdout}\n$ list\n{listed.stdout}")
    golden = HERE / f"{name}.txt"
    if os.environ.get("PARLOUR_GOLDEN_UPDATE") == "1":
        golden.write_text(got, encoding="utf-8")
    assert golden.exists(), f"no {golden.name}: run once with PARLOUR_GOLDEN_UPDATE=1"
    assert got == golden.read_text(encoding="utf-8")
