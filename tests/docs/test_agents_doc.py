"""docs/agents.md runs as written: its notebook cells, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


def test_the_notebook_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    cells = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(cells) >= 3, "the guide lost its example"
    scope: dict[str, Any] = {"__name__": "agents_doc"}  # like a notebook's own namespace
    for cell in cells:
        exec(compile(cell, str(DOC), "exec"), scope)
    assert scope["rows"] and {r["entrant"] for r in scope["rows"]} == {"mine", "base"}
    assert list(tmp_path.iterdir()) == []  # a notebook leaves no files unless asked
