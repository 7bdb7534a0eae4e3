"""The ninth step (issue 12, after blind8 was scored): a message with no verb, an object
word or a noun phrase alone, never acts, whatever options its thing has. blind8's one wrong
advance was "phone" alone (labelled none) calling the night desk: "phone" can be a verb
("phone for help"), and the emergency phone was that option's alone. The other messages
here are written for the rule, not taken from a label set."""

from __future__ import annotations

import pytest

from benchmarks.escape_labels import LABEL_SETS, load_labels
from parlour.games.escape import commands, load_scenario
from parlour.games.escape.keyword_classifier import classify, is_verbless
from parlour.games.escape.labels import frontier_for
from parlour.games.escape.loader import shipped_names
from parlour.games.escape.scenario import NONE_ID
from parlour.games.escape.seat_requests import classify_decision

from .helpers import LOOKED, PANEL, PHONE, TALKED, classified_in_rooms, options_in

CALL = ("use_torch", "read_certificate", *PHONE)


@pytest.mark.parametrize(
    ("name", "done", "message"),
    [
        # A noun that can be a verb is the thing when nothing follows it.
        ("stalled_lift", CALL, "phone"),
        ("stalled_lift", CALL, "telephone"),
        ("stalled_lift", CALL, "the phone"),
        ("stalled_lift", CALL, "emergency phone"),
        # Another name of the thing ("handset" for the phone), a thing only one option names.
        ("stalled_lift", CALL, "handset"),
        ("stalled_lift", ("open_phone_door",), "phone cable"),
        ("stalled_lift", PANEL, "red switch"),
        ("stalled_lift", ("climb_handrail",), "hatch in the ceiling"),
        ("ghost_room", (), "paper"),
        ("ghost_room", LOOKED, "woman"),
        ("ghost_room", ("read_note", "open_drawer"), "key of the cabinet"),
        # Asides make no deed of a thing; a sentence about a thing is not done to it.
        ("stalled_lift", CALL, "phone please"),
        ("ghost_room", (), "the note, then"),
        ("stalled_lift", CALL, "there's a phone"),
        ("stalled_lift", ("climb_handrail",), "hatch is up there"),
        ("stalled_lift", PANEL, "lever seems stuck"),
    ],
)
def test_an_object_word_or_noun_phrase_alone_does_nothing(
    name: str, done: tuple[str, ...], message: str
) -> None:
    options = options_in(name, done)
    assert is_verbless(message, options)
    assert classify(message, options) == NONE_ID


@pytest.mark.parametrize(
    ("name", "done", "message", "expected"),
    [
        # A verb (also a noun used as one, with its object after a determiner) still acts.
        ("stalled_lift", CALL, "phone the night desk", "call_night_desk"),
        ("stalled_lift", CALL, "call the night desk", "call_night_desk"),
        ("stalled_lift", PANEL, "flick the isolator", "flip_isolator"),
        ("stalled_lift", PANEL, "pull the lever", "release_brake"),
        # "on" ends a phrasal verb; a shout and a code are no things.
        ("stalled_lift", (), "torch on", "use_torch"),
        ("stalled_lift", (), "HELP!", "shout_for_help"),
        ("stalled_lift", (), "scream", "shout_for_help"),
        ("ghost_room", ("read_note", "open_drawer", "unlock_cabinet"), "2904", "open_trapdoor"),
        (
            "ghost_room",
            TALKED,
            "your name is Marguerite",
            "say_name",
        ),
    ],
)
def test_a_verb_or_a_code_still_acts(
    name: str, done: tuple[str, ...], message: str, expected: str
) -> None:
    options = options_in(name, done)
    assert not is_verbless(message, options)
    assert classify(message, options) == expected


def test_the_label_sets_mark_a_verbless_message_none_and_so_does_the_classifier() -> None:
    """The convention the rule follows, counted over every shipped set: of the messages the
    rule calls verbless, most are labelled none (an object word alone: 4 of blind2's and
    blind5's are labelled with an action, every later set says none)."""
    labelled: dict[str, int] = {"none": 0, "action": 0}
    for which in LABEL_SETS:
        for name in shipped_names():
            scenario = load_scenario(name)
            actions = {a.id: a for a in scenario.actions}
            for case in load_labels(name, which).cases:
                if commands.parse(case.message) is not None:
                    continue
                available = frontier_for(scenario, case.state).available()
                decision = classify_decision(
                    "t:classify", [actions[a] for a in available], case.message, ask=True
                )
                options = [(o.id, o.label) for o in decision.options]
                if is_verbless(case.message, options):
                    labelled["none" if case.expect == NONE_ID else "action"] += 1
                    assert classify(case.message, options) == NONE_ID, case.message
    assert labelled["none"] >= 4 * labelled["action"] > 0, labelled


test_kinds_of_miss_blind8_showed = classified_in_rooms(
    [
        # A label alone names the one option whose thing comes in the plural.
        ("stalled_lift", (), "press G", "press_floor_buttons"),
        ("stalled_lift", CALL, "press 9", "press_floor_buttons"),
        ("stalled_lift", (), "push button 3", "press_floor_buttons"),
        ("ghost_room", (), "press 9", NONE_ID),  # two single buttons: the label says neither
        # A thing that would help is a thing to use.
        ("stalled_lift", (), "so dark... maybe my phone torch would help", "use_torch"),
        ("stalled_lift", (), "that would help", NONE_ID),
        # Calling someone by a name and asking if it is them says the name.
        ("ghost_room", ("read_note", "talk_to_ghost"), "Margaret, is that you?", "say_name"),
        ("ghost_room", ("read_note", "talk_to_ghost"), "hello, is that you?", NONE_ID),
    ]
)
