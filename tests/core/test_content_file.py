"""The shared content-file helpers every game loader uses (escape, missing, campaign)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from parlour.core.content_file import ShippedContent, first_unknown_key
from parlour.core.errors import ParlourError


class _Inner(BaseModel):
    name: str
    colour: str = ""


class _Outer(BaseModel):
    title: str
    items: tuple[_Inner, ...] = ()
    main: _Inner | None = None
    source: str = ""


class _Failed(ParlourError):
    def __init__(self, message: str, *, file: str, line: int = 0, code: str = "") -> None:
        super().__init__(message)
        self.file, self.line, self.code = file, line, code


def test_unknown_key_found_depth_first_with_hint() -> None:
    data = {"title": "t", "items": [{"name": "a"}, {"name": "b", "colur": "red"}]}
    found = first_unknown_key(data, _Outer, skip=frozenset({"source"}))
    assert found is not None
    assert (found.path, found.key, found.hint) == (("items", 1), "colur", "did you mean 'colour'?")
    found = first_unknown_key({"title": "t", "main": {"zzz": 1}}, _Outer)
    assert found is not None and found.path == ("main",) and found.hint == "allowed: name, colour"
    assert first_unknown_key({"source": "x"}, _Outer, skip=frozenset({"source"})) is not None
    assert first_unknown_key({"title": "t", "items": [{"name": "a"}]}, _Outer) is None


def test_shipped_names_paths_and_read_errors(tmp_path: Path) -> None:
    (tmp_path / "b.yaml").write_text("x: 1\n")
    (tmp_path / "a.yaml").write_text("x: 2\n")
    (tmp_path / "a.labels.yaml").write_text("x: 3\n")
    shipped = ShippedContent(tmp_path, "room", "rooms", (".labels.yaml",))
    assert shipped.names() == ["a", "b"]
    text, file, source = shipped.read("a", _Failed)
    assert (text, file, source) == ("x: 2\n", str(tmp_path / "a.yaml"), "a")
    with pytest.raises(_Failed) as err:
        shipped.path("c", _Failed)
    assert str(err.value) == (
        "no room 'c': give a path to a .yaml file or one of the shipped rooms: a, b"
    )
    (tmp_path / "bad.yaml").write_bytes(b"x: \xff\n")
    with pytest.raises(_Failed) as err:
        shipped.read(tmp_path / "bad.yaml", _Failed)
    assert err.value.code == "Y007" and err.value.line == 1
