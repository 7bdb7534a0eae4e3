"""The shown-narration audit of ``benchmarks/narration_faithfulness.py``: it judges what the
player was shown, independently of the engine's own narration check, so the 50-game count
of denials and locked reveals (issue 12) measures something that can fail."""

from __future__ import annotations

from pathlib import Path

from benchmarks.narration_faithfulness import audit, judge
from parlour.core.actions import Choice, Text
from tests.conftest import CliRunner

from .helpers import last_narration
from .test_faithful import FAILING, FAITHFUL, _cranked, _game


def test_the_issue_example_would_count_as_a_denial() -> None:
    game = _cranked()
    before = len(game.events)
    assert judge(game, before, FAILING) == ["denies"]
    assert judge(game, before, FAITHFUL) == []
    # What the engine shows instead (the consequence itself) passes the audit.
    game.apply("t1:narrate", Text(text=FAILING))
    shown = last_narration(game)
    assert judge(game, before, shown.text) == []


def test_a_locked_consequence_word_counts_as_a_reveal() -> None:
    game = _game()
    game.apply("t1:act", Text(text="I sing a song"))
    game.apply("t1:classify", Choice(option="none"))
    before = len(game.events)
    # "courtyard" is only in the locked ending's consequence.
    assert judge(game, before, "You hum; somewhere a courtyard drips.") == ["reveals ['court']"]
    assert judge(game, before, "You sing. The shutter stays down.") == []


def test_the_audit_replays_stored_games(cli: CliRunner, db_path: Path) -> None:
    for scenario in ("ghost_room", "stalled_lift"):
        out = cli(
            "watch",
            "escape",
            "--model",
            "scripted",
            "--set",
            f"scenario={scenario}",
            "--seed",
            "3",
            "--quiet",
        )
        assert out.returncode == 0, out.stderr
    from parlour.runtime.store import Store

    games = [g.id for g in Store(f"sqlite:///{db_path}").list_games()]
    shown, denies, reveals = audit(str(db_path), games)
    assert len(games) == 2 and shown >= 12  # both solver paths, six turns or more each
    assert (denies, reveals) == (0, 0)
