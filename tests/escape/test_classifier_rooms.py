"""Principles that should hold in any room, not only the two the classifier grew up in.

A third room by an outside designer (``examples/escape/palm_house.yaml``) showed kinds the
shipped rooms never asked for: a word the descriptions do not use but the room's text
does ("the wheel" of "a red valve wheel marked STEAM"), a bare reference two actions share
("open the door" with a side door and the main doors), a deliberation ("should i ...
or ..."), a deed that goes one way of itself ("go up" for climbing the stairs) and everyday
families (feeding, animals, oiling). Each test uses that room or a small room made up here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.core.actions import Text
from parlour.games.escape import EscapeGame
from parlour.games.escape.keyword_classifier import classify, is_question
from parlour.games.escape.keyword_classifier.room_names import room_named
from parlour.games.escape.labels import frontier_for
from parlour.games.escape.loader import load_scenario
from parlour.games.escape.prompts import classifier_parts
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.seat_requests import room_text, unoffered_actions

from .helpers import SHIPPED, classify_in, config

PALM = str(Path(__file__).parents[2] / "examples" / "escape" / "palm_house.yaml")
ASKABLE = [(NONE_ID, "-"), (ASK_ID, "-")]


def in_palm_house(message: str, done: tuple[str, ...] = ()) -> str:
    """The pick in the palm house, told what the game tells the classifier."""
    scenario = load_scenario(PALM)
    by_id = {a.id: a for a in scenario.actions}
    available = frontier_for(scenario, done).available()
    options = [(a, by_id[a].description) for a in available] + ASKABLE
    unoffered = [(u.id, u.description) for u in unoffered_actions(scenario.actions, available)]
    room = room_text(scenario.intro, scenario.world)
    return classify(message, options, unoffered=unoffered, room=room)


# --- the room's public text names its things ---------------------------------------------

#: A made-up boiler room: the valve's description does not say "wheel", the room does.
BOILER = [
    ("open_hatch", "turn the winding wheel to open the hatch"),
    ("vent_boiler", "turn the pressure valve on the boiler"),
    *ASKABLE,
]
BOILER_ROOM = ("A squat boiler in the corner carries a brass valve wheel.",)


def test_a_word_the_room_gives_two_things_does_not_say_which() -> None:
    # Without the room's text the only "wheel" is the hatch's; with it, there are two.
    assert classify("turn the wheel", BOILER) == "open_hatch"
    assert classify("turn the wheel", BOILER, room=BOILER_ROOM) == NONE_ID
    # Saying which still acts, by the description's words or the room's name for it.
    assert classify("turn the winding wheel", BOILER, room=BOILER_ROOM) == "open_hatch"
    assert classify("turn the valve wheel", BOILER, room=BOILER_ROOM) == "vent_boiler"
    assert classify("turn the pressure wheel", BOILER, room=BOILER_ROOM) == "vent_boiler"


def test_the_room_renames_a_thing_only_by_a_compound_of_two_things() -> None:
    named, _ = room_named(BOILER, (), BOILER_ROOM)
    assert dict(named)["vent_boiler"] == "turn the pressure valve wheel on the boiler"
    assert dict(named)["open_hatch"] == "turn the winding wheel to open the hatch"
    # A word after a thing that is no action's thing is prose, not a name.
    prose = ("The valve hisses softly.", "A valve gauge hangs on the boiler.")
    assert room_named(BOILER, (), prose)[0] == tuple(BOILER)
    # A compound that is another action's own thing ("the floor buttons" of "press the
    # floor buttons") is no name of a thing "on the floor".
    lift = [
        ("read_newspaper", "read the newspaper on the floor"),
        ("press_floor_buttons", "press the floor buttons"),
    ]
    said = ("The floor buttons are dark.",)
    assert room_named(lift, (), said)[0] == tuple(lift)


@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_rooms_descriptions_are_read_as_written(name: str) -> None:
    scenario = load_scenario(name)
    actions = tuple((a.id, a.description) for a in scenario.actions)
    assert room_named(actions, (), room_text(scenario.intro, scenario.world))[0] == actions


def test_palm_house_wheel_and_the_red_steam_wheel() -> None:
    on_gallery = ("climb_gallery",)
    assert in_palm_house("turn the wheel", on_gallery) == NONE_ID
    assert in_palm_house("turn the winding wheel", on_gallery) == "open_vents"
    assert in_palm_house("give the red steam wheel a good spin", on_gallery) == ("turn_steam_valve")


def test_the_classifier_view_holds_the_room_as_the_player_reads_it() -> None:
    scenario = load_scenario(PALM)
    game = EscapeGame.new(config(PALM), 1)
    game.apply("t1:act", Text(text="turn the wheel"))
    (decision,) = game.pending()
    view = game.view("classifier")
    assert view.private.room == (scenario.intro, *scenario.world)
    # Public text only: no consequence, hint or answer reaches the classifier by it.
    held = " ".join(view.private.room)
    for action in scenario.actions:
        assert action.consequence not in held
        assert not action.hint or action.hint not in held
        assert not action.answer or action.answer not in held
    # The model classifier reads it too, after the instruction and before the actions.
    command = classifier_parts(view, decision).command
    assert command.startswith(decision.prompt)
    assert command.index(scenario.world[7]) < command.index("Actions:")


# --- a bare reference two things share ---------------------------------------------------


#: Done in the palm house once the side door can be unlocked (the main doors are always there).
BOTH_DOORS = ("look_in_pond", "open_cupboard", "fish_key", "oil_lock")


@pytest.mark.parametrize(
    ("room", "said", "palm"),
    [
        pytest.param(
            # "door" and "cupboard" share a sense, but here "door" is the front door's word.
            [
                ("open_cupboard", "open the kitchen cupboard"),
                ("knock_door", "knock on the front door"),
            ],
            {"open the door": NONE_ID, "open the cupboard": "open_cupboard"},
            [("try to open the door", (), NONE_ID), ("open the cupboard", (), "open_cupboard")],
            id="a word that is another thing's own name is not the winner's by a sense",
        ),
        pytest.param(
            [
                ("unlock_gate", "unlock the garden gate with the key"),
                ("shake_gates", "shake the iron gates"),
            ],
            {"open the gate": NONE_ID, "unlock the garden gate": "unlock_gate"},
            [
                ("open the door", BOTH_DOORS, NONE_ID),
                ("unlock the side door", BOTH_DOORS, "unlock_side_door"),
                # Two deeds on one thing written alike are no two things: "look in the pond" looks.
                ("look in the pond", (), "look_in_pond"),
            ],
            id="one thing and several of its kind offered do not say which",
        ),
    ],
)
def test_a_bare_reference_two_things_share_does_not_say_which(
    room: list[tuple[str, str]],
    said: dict[str, str],
    palm: list[tuple[str, tuple[str, ...], str]],
) -> None:
    """In a made-up room and in the palm house: the bare reference is none, the exact one acts."""
    for message, expected in said.items():
        assert classify(message, [*room, *ASKABLE]) == expected, message
    for message, done, expected in palm:
        assert in_palm_house(message, done) == expected, message


# --- questions, ways, everyday families ---------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "should i open the drawer or keep looking",
        "hmm should i open the drawer now",
        "ok shall we open the drawer",
    ],
)
def test_weighing_a_deed_is_a_question_and_never_acts(message: str) -> None:
    assert is_question(message)
    assert classify_in(message, "ghost_room") == NONE_ID


def test_a_polite_order_is_still_an_order() -> None:
    assert not is_question("can you open the drawer")
    assert classify_in("open the drawer", "ghost_room") == "open_drawer"


def test_a_climbing_deed_goes_up_of_itself() -> None:
    room = [("climb_loft", "climb the rope ladder to the loft"), ("ring_bell", "ring the bell")]
    assert classify("go up", [*room, *ASKABLE]) == "climb_loft"
    assert classify("go down", [*room, *ASKABLE]) == NONE_ID
    assert in_palm_house("go up") == "climb_gallery"


@pytest.mark.parametrize(
    ("message", "done", "expected"),
    [
        ("feed the carp", ("look_in_pond",), "feed_fish"),
        ("throw a few pellets to the fish", (), "feed_fish"),
        ("squirt some oil in the keyhole", ("open_cupboard",), "oil_lock"),
        ("peer into the lily pond", (), "look_in_pond"),
    ],
)
def test_everyday_families_in_a_room_never_tuned_on_them(
    message: str, done: tuple[str, ...], expected: str
) -> None:
    assert in_palm_house(message, done) == expected


def test_everyday_families_in_a_made_up_room() -> None:
    aviary = [
        ("feed_birds", "scatter seed on the aviary floor"),
        ("oil_hinge", "oil the hinge of the aviary gate"),
        ("shake_cage", "rattle the cage"),
        *ASKABLE,
    ]
    assert classify("sprinkle some seed for the parrots", aviary) == "feed_birds"
    assert classify("grease the hinge", aviary) == "oil_hinge"
    assert classify("give the cage a good shake", aviary) == "shake_cage"


# --- long messages: the deed after the reasons; a code given by its verb -----------------


def test_reasons_then_so_i_acts_by_what_it_decides() -> None:
    done = ("read_notebook",)
    said = "the notebook said the key fell in the pond so ill look in the pond"
    assert in_palm_house(said, done) == "look_in_pond"
    # "so i can ..." is a purpose: the deed comes first.
    assert classify_in("stand on the rail so i can reach the hatch", "stalled_lift") == (
        "climb_handrail"
    )
    # A pronoun after "so" points back into the reasons, which stay.
    assert classify_in("she pointed at the trapdoor so lets try to open it", "ghost_room") == (
        "open_trapdoor"
    )


@pytest.mark.parametrize(
    "message",
    ["put 1850 into the combination lock", "spin the padlock wheels to 0000", "try 1848"],
)
def test_a_code_given_by_its_verb_names_the_code_option(message: str) -> None:
    # The engine, not the classifier, checks the code: a wrong one advances nothing.
    assert in_palm_house(message, ("read_notebook",)) == "open_cupboard"
    room = [("open_safe", "open the safe with the combination"), ("ring_bell", "ring the bell")]
    assert classify("dial 4471", [*room, *ASKABLE]) == "open_safe"
