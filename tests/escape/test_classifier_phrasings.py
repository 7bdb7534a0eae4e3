"""The designer's ``also`` phrasings: read only where the descriptions find nothing."""

from __future__ import annotations

from parlour.core.actions import Choice, Text
from parlour.core.decisions import Decision
from parlour.games.escape import EscapeConfig, EscapeGame
from parlour.games.escape.keyword_classifier import classify_with_phrasings
from parlour.games.escape.prompts import classifier_parts
from parlour.games.escape.validate import validate

from .helpers import scenario_from

ROOM = """
title: Shed
intro: A garden shed with a crate, a lamp and a door.
world: [The door is shut.]
actions:
  - id: break_crate
    description: break up the empty crate for firewood
    also: [stamp on the crate, smash the crate]
    consequence: Splinters.
  - id: light_lamp
    description: light the oil lamp
    also: [get some light in here]
    consequence: Light.
  - id: open_door
    description: open the shed door
    needs: [light_lamp]
    also: [get out of here]
    ends_game: true
    good: true
    consequence: Out.
"""

CRATE = ("break_crate", "break up the empty crate for firewood")
LAMP = ("light_lamp", "light the oil lamp")
OPTIONS = [CRATE, LAMP, ("ask", "ask"), ("none", "none")]
PHRASINGS = [
    ("break_crate", "stamp on the crate"),
    ("break_crate", "smash the crate"),
    ("light_lamp", "get some light in here"),
    ("open_door", "get out of here"),
]
LOCKED = [("open_door", "open the shed door")]


def _pick(message: str, phrasings: list[tuple[str, str]] = PHRASINGS) -> str:
    return classify_with_phrasings(message, OPTIONS, unoffered=LOCKED, phrasings=phrasings)


def test_a_players_words_the_description_lacks_pick_by_a_phrasing() -> None:
    assert _pick("stamp on the crate till it falls apart", []) == "none"
    assert _pick("stamp on the crate till it falls apart") == "break_crate"
    assert _pick("i need to get some light in here") == "light_lamp"


def test_a_phrasing_never_changes_what_the_descriptions_pick_or_ask() -> None:
    described = ["break the crate", "light the lamp", "is the crate empty?", "hello"]
    for message in described:
        assert _pick(message) == _pick(message, []), message


def test_a_locked_actions_phrasing_is_a_thing_not_to_pick() -> None:
    # "get out of here" is the door's, not offered yet: no offered action takes it.
    assert _pick("get out of here") == "none"


def test_phrasings_of_two_actions_fitting_alike_ask() -> None:
    both = [("break_crate", "smash it to bits"), ("light_lamp", "smash it to bits")]
    assert _pick("smash it to bits", both) == "ask"


def test_the_game_passes_phrasings_to_the_classifier_and_a_model_reads_them() -> None:
    game = EscapeGame.new(EscapeConfig(scenario=scenario_from(ROOM)), 1)
    game.apply("t1:act", Text(text="stamp on the crate"))
    decision: Decision = game.pending()[0]
    view = game.view("classifier")
    assert ("break_crate", "stamp on the crate") in [(p.id, p.text) for p in view.private.phrasings]
    prompt = classifier_parts(view, decision).command
    assert "- break_crate: break up the empty crate for firewood (also: stamp on the crate; " in (
        prompt
    )
    assert "open the shed door; get out of here (not possible now)" in prompt
    game.apply(decision.id, Choice(option="break_crate"))
    assert game.done == ("break_crate",)
    assert "smash the crate" not in str(game.view("player"))  # phrasings are no story
    assert "smash the crate" not in str(game.view("narrator"))


def test_validate_warns_of_an_answer_or_a_shared_phrasing() -> None:
    text = ROOM.replace(
        "also: [get some light in here]", "also: [get some light in here, smash the crate]"
    ).replace(
        "    description: open the shed door\n",
        '    description: open the shed door\n    answer: "42"\n',
    )
    text = text.replace("also: [get out of here]", "also: [type 42 on the lock]")
    codes = {p.code: p.message for p in validate(scenario_from(text))}
    assert "W007" in codes and "'open_door'" in codes["W007"] and "type 42" in codes["W007"]
    assert "W008" in codes and "'light_lamp' also says \"smash the crate\"" in codes["W008"]
    assert not {"W007", "W008"} & {p.code for p in validate(scenario_from(ROOM))}
