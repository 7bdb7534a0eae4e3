"""The code in docs/writing-a-game.md runs as written (its example games are tests/toy
and examples/liars_dice)."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "writing-a-game.md"
EXAMPLE = ROOT / "examples" / "liars_dice"


def _blocks(language: str) -> list[str]:
    fence = rf"```{language}\n(.*?)```"
    return re.findall(fence, DOC.read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture
def example_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk-through imports ``parlour_liars_dice``: from its checkout when the
    example is not installed (tests/plugins installs it into a fresh environment)."""
    if importlib.util.find_spec("parlour_liars_dice") is None:
        monkeypatch.syspath_prepend(str(EXAMPLE / "src"))


def test_every_python_block_of_the_guide_runs(example_importable: None) -> None:
    blocks = _blocks("python")
    assert len(blocks) >= 6, "the guide lost its examples"
    assert any("parlour_liars_dice" in b for b in blocks), "the walk-through lost its code"
    tests_run = 0
    for block in blocks:
        scope: dict[str, Any] = {"__name__": "writing_a_game_doc"}
        exec(compile(block, str(DOC), "exec"), scope)
        for name, value in scope.items():
            if name.startswith("test_") and callable(value):
                value()
                tests_run += 1
    assert tests_run >= 2, "the guide's test examples were not run"
    assert "parlour_liars_dice" in sys.modules


def test_the_entry_point_shown_is_the_one_the_example_declares() -> None:
    (shown,) = _blocks("toml")
    declared = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))
    quoted = tomllib.loads(shown)
    assert quoted["project"]["name"] == declared["project"]["name"]
    assert quoted["project"]["dependencies"] == declared["project"]["dependencies"]
    assert quoted["project"]["entry-points"] == declared["project"]["entry-points"]
