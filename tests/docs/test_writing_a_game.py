"""The code in docs/writing-a-game.md runs as written (its example game is tests/toy)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

DOC = Path(__file__).resolve().parents[2] / "docs" / "writing-a-game.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_every_python_block_of_the_guide_runs() -> None:
    blocks = _blocks()
    assert len(blocks) >= 2, "the guide lost its examples"
    tests_run = 0
    for block in blocks:
        scope: dict[str, Any] = {"__name__": "writing_a_game_doc"}
        exec(compile(block, str(DOC), "exec"), scope)
        for name, value in scope.items():
            if name.startswith("test_") and callable(value):
                value()
                tests_run += 1
    assert tests_run >= 1, "the guide's test example was not run"
