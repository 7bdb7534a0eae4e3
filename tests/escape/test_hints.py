"""The hint order: the way to a good ending for a player who must find each answer first."""

from __future__ import annotations

from parlour.games.escape import load_scenario
from parlour.games.escape.analysis import analyse
from parlour.games.escape.hints import clue_for, hint_order
from parlour.games.escape.scenario import Scenario

from .helpers import scenario_from

SAFE = """
title: Safe
intro: A small office with a safe.
world: [{world}]
actions:
  - {{id: read_memo, description: read the memo, consequence: "The memo says: code 4719."}}
  - {{id: open_safe, description: open the safe, answer: "4719", consequence: A key.}}
  - {{id: leave, description: unlock the door, needs: [open_safe], ends_game: true,
     good: true, consequence: Out.}}
  - {{id: sit, description: sit down, consequence: You sit.}}
"""


def _steps(scenario: Scenario) -> list[str]:
    """The hinted way, in order (the actions whose key is on it)."""
    key = hint_order(scenario)
    return [a for a, k in sorted(key.items(), key=lambda kv: kv[1]) if k[0] == 0]


def _first_steps(scenario_text: str) -> list[str]:
    return _steps(scenario_from(scenario_text))


def test_a_clue_comes_before_the_code_it_tells() -> None:
    # The walkthrough bot's shortest way is open_safe, leave; a player must read the memo.
    assert _first_steps(SAFE.format(world="A desk.")) == ["read_memo", "open_safe", "leave"]


def test_an_answer_the_room_already_tells_needs_no_clue() -> None:
    text = SAFE.format(world="A note on the safe reads 4719.")
    assert clue_for(scenario_from(text), analyse(scenario_from(text))) == {}
    assert _first_steps(text) == ["open_safe", "leave"]


def test_a_clue_that_needs_its_own_answer_is_not_one() -> None:
    # Only what the safe holds tells its code: no clue, the bot's own way stands.
    text = SAFE.format(world="A desk.").replace(
        'consequence: "The memo says: code 4719."}',
        'needs: [open_safe], consequence: "The memo says: code 4719."}',
    )
    assert _first_steps(text) == ["open_safe", "leave"]


def test_the_shipped_rooms_hint_their_clues() -> None:
    ghost = _steps(load_scenario("ghost_room"))
    # The trapdoor's code is what the ghost says once named; her name is on the painting.
    assert ghost.index("examine_painting") < ghost.index("say_name") < ghost.index("open_trapdoor")
    lift = _steps(load_scenario("stalled_lift"))
    assert lift.index("read_newspaper") < lift.index("open_service_panel")
    palm = _steps(load_scenario("examples/escape/palm_house.yaml"))
    assert palm[:3] == ["climb_gallery", "read_plaque", "open_cupboard"]
