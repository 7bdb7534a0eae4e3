"""``--decision-timeout`` on ``play``: a person who never answers is covered by the
fallback (in Diplomacy: civil disorder, the power's units hold), the game finishes and
the process exits cleanly although its input prompt is still waiting for a line."""

from __future__ import annotations

from pathlib import Path

from parlour.runtime.store import Store, db_url
from tests.support.cli import run_silent


def test_a_silent_player_is_covered_and_the_game_ends_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "timeout.sqlite"
    args = ["play", "diplomacy", "--model", "hold", "--as", "FRANCE", "--decision-timeout", "1"]
    args += ["--set", "end_year=1901", "--db", str(db)]
    out_path, err_path = tmp_path / "out.txt", tmp_path / "err.txt"
    proc = run_silent(args, out_path, err_path)
    out, err = out_path.read_text(), err_path.read_text()
    assert proc.returncode == 0, err
    assert "Fatal Python error" not in err
    assert "Draw at the end of 1901" in out
    store = Store(db_url(str(db)))
    [game] = store.list_games()
    france = [a for a in store.actions(game.id) if a.seat == "FRANCE"]
    assert france and all(a.by == "fallback" for a in france)
