"""One entry-point reader for games, models and agents: found per sys.path, loaded
lazily, and a plug-in that fails to import is a one-line error naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.core import plugins
from parlour.core.errors import ParlourError
from parlour.games import registry


def _dist(folder: Path, group: str, line: str) -> None:
    dist = folder / "plugtest-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: plugtest\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(f"[{group}]\n{line}\n")


def test_a_plugin_on_a_new_path_is_found_and_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "plugtest_mod.py").write_text("VALUE = 41 + 1\n")
    _dist(tmp_path, "parlour.test_group", "answer = plugtest_mod:VALUE")
    assert "answer" not in plugins.names("parlour.test_group")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert plugins.names("parlour.test_group") == ["answer"]
    assert plugins.load("parlour.test_group", "answer", "thing") == 42
    assert plugins.load("parlour.test_group", "absent", "thing") is None


def test_a_broken_game_plugin_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "plugtest_broken.py").write_text("raise ImportError('missing dependency')\n")
    _dist(tmp_path, "parlour.games", "brokengame = plugtest_broken:MODULE")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "brokengame" in registry.game_names()
    with pytest.raises(ParlourError) as err:
        registry.load("brokengame")
    message = str(err.value)
    assert "game 'brokengame' (plugtest_broken:MODULE) failed to import" in message
    assert "missing dependency" in message and "\n" not in message
    assert registry.load("werewolf").game is not None  # the others still load
