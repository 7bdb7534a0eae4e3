"""Scenario files: clean ones load into frozen models; bad ones name file, line and key."""

from __future__ import annotations

import textwrap

import pytest
from pydantic import ValidationError

from parlour.games.escape import ScenarioError, load_scenario, parse_scenario, shipped_names
from parlour.games.escape.loader import scenario_path

GOOD = """\
title: Tiny
intro: You are in a box.
world: [The box is small.]
actions:
  - id: open_lid
    description: open the lid
    consequence: The lid swings up.
  - id: climb_out
    description: climb out of the box
    needs: [open_lid]
    consequence: You are out.
    ends_game: true
    ending: free
    good: true
"""


def load_error(text: str, file: str = "rooms/ghost.yaml") -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(textwrap.dedent(text), file=file)
    return caught.value


def test_good_file_loads_into_frozen_models() -> None:
    scenario = parse_scenario(GOOD, file="tiny.yaml")
    assert scenario.title == "Tiny"
    assert scenario.action("climb_out").needs == ("open_lid",)
    assert scenario.action("climb_out").is_good_ending
    assert scenario.source == "tiny.yaml"
    with pytest.raises(ValidationError):
        scenario.action("open_lid").id = "x"  # type: ignore[misc]


def test_shipped_scenarios_load_by_name() -> None:
    assert set(shipped_names()) >= {"ghost_room", "stalled_lift"}
    for name in shipped_names():
        scenario = load_scenario(name)
        assert 10 <= len(scenario.actions) <= 20
        assert scenario.source == name


def test_unknown_action_key_names_file_line_and_suggestion() -> None:
    text = GOOD.replace("    needs: [open_lid]", "    need: [open_lid]")
    err = load_error(text)
    assert str(err) == (
        "rooms/ghost.yaml:10: action 'climb_out': unknown key 'need' (did you mean 'needs'?)"
    )
    assert (err.file, err.line, err.key) == ("rooms/ghost.yaml", 10, "need")


def test_unknown_top_level_key() -> None:
    err = load_error(GOOD.replace("title: Tiny", "titel: Tiny"))
    assert str(err).startswith("rooms/ghost.yaml:1: unknown key 'titel' (did you mean 'title'?)")


def test_missing_field_points_at_the_action() -> None:
    err = load_error(GOOD.replace("    consequence: The lid swings up.\n", ""))
    assert str(err) == "rooms/ghost.yaml:5: action 'open_lid': missing key 'consequence'"


def test_wrong_types_are_named() -> None:
    err = load_error(GOOD.replace("ends_game: true", "ends_game: sometimes"))
    assert "rooms/ghost.yaml:12: action 'climb_out': key 'ends_game' must be true or false" in str(
        err
    )
    err = load_error(GOOD.replace("needs: [open_lid]", "needs: open_lid"))
    assert "rooms/ghost.yaml:10: action 'climb_out': key 'needs' must be a list" in str(err)
    err = load_error(GOOD.replace("description: open the lid", "description: 42"))
    assert "rooms/ghost.yaml:6: action 'open_lid': key 'description' must be text" in str(err)
    err = load_error(GOOD.replace("world: [The box is small.]", "world: [yes]"))
    assert "rooms/ghost.yaml:3: key 'world' item 1 must be text" in str(err)


def test_needs_item_type_is_located() -> None:
    err = load_error(GOOD.replace("needs: [open_lid]", "needs:\n      - open_lid\n      - 7"))
    assert "rooms/ghost.yaml:12: action 'climb_out': key 'needs' item 2 must be text" in str(err)


def test_answers_keep_their_written_form() -> None:
    text = GOOD.replace(
        "    description: open the lid", "    description: open the lid\n    answer: 0451"
    )
    assert parse_scenario(text).action("open_lid").answer == "0451"


def test_duplicate_keys_syntax_errors_and_empty_files() -> None:
    err = load_error(GOOD.replace("title: Tiny", "title: Tiny\ntitle: Again"))
    assert str(err) == "rooms/ghost.yaml:2: duplicate key 'title'"
    err = load_error("title: [unclosed\n")
    assert str(err).startswith("rooms/ghost.yaml:2: YAML syntax error")
    assert "is empty" in str(load_error(""))
    assert "is a mapping" in str(load_error("- just\n- a list\n"))
    err = load_error("title: T\nintro: I\n")
    assert str(err) == "rooms/ghost.yaml:1: missing key 'actions'"


def test_action_without_id_is_named_by_position() -> None:
    err = load_error(GOOD.replace("  - id: open_lid\n    description", "  - description"))
    assert "action #1: missing key 'id'" in str(err)


def test_unknown_scenario_names_the_choices() -> None:
    with pytest.raises(ScenarioError, match="ghost_room"):
        scenario_path("no_such_room")
