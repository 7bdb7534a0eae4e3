"""What the CLI wires: validate a file with an exit code, draw a file, read a saved game."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.core.actions import Choice, Text
from parlour.games.escape import EscapeGame
from parlour.games.escape.cli_support import (
    EXIT_ERRORS,
    EXIT_OK,
    EXIT_UNREADABLE,
    done_from_events,
    format_problems,
    game_over,
    render_file,
    validate_file,
    ways,
)
from parlour.games.escape.scenario import ScenarioError

from .helpers import config


def test_shipped_scenarios_validate_clean() -> None:
    for name in ("ghost_room", "stalled_lift"):
        assert validate_file(name) == ([], EXIT_OK)
    assert format_problems([]) == "no problems found"


def test_ways_tells_the_bots_way_and_a_players(tmp_path: Path) -> None:
    assert ways("stalled_lift") == (
        "shortest good ending: 6 turns knowing the answers; 7 for a player who must find "
        "the answers (read_newspaper → open_phone_door → plug_phone → call_night_desk → "
        "open_service_panel → release_brake → force_doors)"
    )
    plain = tmp_path / "plain.yaml"
    plain.write_text(
        "title: T\nintro: I\nactions:\n"
        "  - {id: out, description: leave, consequence: Bye., ends_game: true, good: true}\n"
    )
    assert ways(plain) == "shortest good ending: 1 turns knowing the answers (out)"
    # A player must read the paper first: the turn limit counts that step too (W006).
    assert "W006" not in [p.code for p in validate_file("stalled_lift", max_turns=7)[0]]
    assert "W006" in [p.code for p in validate_file("stalled_lift", max_turns=6)[0]]
    assert ways(tmp_path / "missing.yaml") is None


def test_errors_warnings_and_unreadable_files(tmp_path: Path) -> None:
    warn = tmp_path / "warn.yaml"
    warn.write_text(
        "title: T\nintro: I\nactions:\n"
        "  - {id: out, description: leave, consequence: Bye., ends_game: true, good: true}\n"
    )
    problems, code = validate_file(warn)
    assert code == EXIT_OK and [p.code for p in problems] == ["W005"]
    assert validate_file(warn, strict=True)[1] == EXIT_ERRORS
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: T\nintro: I\nactions:\n  - {id: a, description: d, consequence: c}\n")
    problems, code = validate_file(bad)
    assert code == EXIT_ERRORS and "E005" in format_problems(problems)
    typo = tmp_path / "typo.yaml"
    typo.write_text("title: T\nintro: I\nactions:\n  - id: a\n    descripton: d\n")
    problems, code = validate_file(typo)
    assert code == EXIT_UNREADABLE
    assert (
        problems[0].message == f"{typo}:5: action 'a': unknown key 'descripton' "
        "(did you mean 'description'?)"
    )


def test_render_file_and_saved_game_progress() -> None:
    game = EscapeGame.new(config("ghost_room"), 1)
    game.apply("t1:act", Text(text="open the drawer"))
    game.apply("t1:classify", Choice(option="open_drawer"))
    game.apply("t1:narrate", Text(text="ok"))
    done = done_from_events(game.events)
    assert done == {"open_drawer"}
    assert "class a5 done" in render_file("ghost_room", "mermaid", done)
    assert not game_over(game.events)
    with pytest.raises(ScenarioError, match="unknown graph format"):
        render_file("ghost_room", "gif")
