"""The tenth step (issue 12, after blind9 was scored): kinds of English blind9 showed, each
written as a rule and tested here on messages written for the rule (a few blind9 messages
too, marked), not only the ones of the set."""

from __future__ import annotations

import pytest

from parlour.games.escape.keyword_classifier import classify
from parlour.games.escape.scenario import NONE_ID

from .helpers import (
    PANEL,
    TALKED,
    classified_in,
    classified_in_rooms,
    classify_in,
    options_in,
    said_in,
)

LIT = (*TALKED, "say_name", "open_drawer", "unlock_cabinet", "light_lantern")


test_negation_counts_only_in_the_clause_it_is_said_in = said_in(
    "ghost_room",
    LIT,
    [
        # A warning reported after the deed is its reason, not the player taking it back.
        ("press the red button, the note said not to but im curious", "press_red"),  # blind9
        ("press the red button, the note said not to", "press_red"),
        ("she told me never to press red, so I press green", "press_green"),
        # The player's own refusal after the deed still takes it back.
        ("press red, no, don't", NONE_ID),
        ("press the red button. wait, don't", NONE_ID),
        ("press red though I know I shouldn't", NONE_ID),
        ("the note said not to press red", NONE_ID),
    ],
)


test_the_deed_said_by_its_means_or_a_mark_of_its_thing = classified_in_rooms(
    [
        # A modifier only one option's thing has, with a verb fitting that option's deed,
        # names it even when the player calls the thing by another name.
        (
            "stalled_lift",
            ("climb_handrail",),
            "shove the ceiling panel up with both hands",
            "push_hatch",
        ),  # blind9
        ("stalled_lift", ("climb_handrail",), "push the ceiling", "push_hatch"),
        ("stalled_lift", ("use_torch",), "read the inspection thing", "read_certificate"),
        # ... but not when the thing named is another option's ("light" is the torch's).
        ("stalled_lift", ("climb_handrail",), "press the ceiling light", NONE_ID),
        # The tool of an option, one of several alike ("a match" of "the matches"), is no
        # "which one?": one match is as good as another.
        (
            "ghost_room",
            ("read_note", "open_drawer", "unlock_cabinet"),
            "strike a match and hold it to the lamp's wick",
            "light_lantern",
        ),  # blind9
        # The thing the deed is done to in the plural still asks which ("press a button").
        ("stalled_lift", (), "press the button", NONE_ID),
    ]
)


test_musing_on_a_hidden_thing_and_a_pronoun_after_a_question = classified_in_rooms(
    [
        # Musing on what a place hides is searching it.
        (
            "ghost_room",
            (),
            "I wonder if anything is buried in the fireplace ashes",
            "search_fireplace",
        ),  # blind9
        (
            "ghost_room",
            (),
            "I bet something is hidden in the ashes of the fireplace",
            "search_fireplace",
        ),
        # A pronoun after a question stands for the thing of the question the verb fits.
        (
            "stalled_lift",
            ("use_torch",),
            "is the code in the newspaper? let me read it",
            "read_newspaper",
        ),
        (
            "stalled_lift",
            ("use_torch",),
            "I wonder if the service code is written somewhere in here, maybe in the newspaper?"
            " let me read it properly",
            "read_newspaper",
        ),  # blind9
        # A tag question's pronoun is no thing of the room.
        ("ghost_room", TALKED, "your name is Marguerite, isn't it?", "say_name"),
    ]
)


test_reading_through_a_light = classified_in(
    "stalled_lift",
    [
        # Reading by a light that is still off: the light comes first.
        ((), "shine my phone light on the certificate", "use_torch"),  # blind9
        ((), "use the torch to read the certificate", "use_torch"),
        ((), "shine the torch on the certificate and read the small print", "use_torch"),
        # Once it is on, shining it on a thing reads that thing.
        (("use_torch",), "shine my phone light on the certificate", "read_certificate"),
        (
            ("use_torch",),
            "use the torch to read the tiny writing on the framed inspection thing",
            "read_certificate",
        ),  # blind9
        (("use_torch",), "shine the light at the newspaper", "read_newspaper"),
    ],
)


test_a_repeated_deed_is_not_the_next_option = classified_in(
    "ghost_room",
    [
        # Talking to someone already talked to is no saying of her name ("say" is only the
        # id's verb, and talking shares a sense with saying).
        (TALKED, "talk to the ghost again", NONE_ID),
        (TALKED, "ask the ghost again what she wants", NONE_ID),  # blind9
        (TALKED, "chat with the ghost", NONE_ID),
        # With the id's thing ("name") said, a word of the id verb's sense says it.
        (TALKED, "speak her name", "say_name"),
        (TALKED, "tell the ghost her name", "say_name"),
        (TALKED, "call her Marguerite", "say_name"),
    ],
)


test_a_name_said_to_someone = classified_in(
    "ghost_room",
    [
        # A name given before saying a name is offered is no other deed (talking to her).
        ((), "tell the ghost her name is Marguerite", NONE_ID),  # blind9
        ((), "call her Rosalind", NONE_ID),
        ((), "Marguerite, you can rest now", NONE_ID),
        ((), "talk to the ghost", "talk_to_ghost"),
        # Once it is offered, the same words say it; so does a name called in lower case.
        (TALKED, "tell the ghost her name is Marguerite", "say_name"),
        (TALKED, "marguerite vell, you can rest now", "say_name"),  # blind9
        (TALKED, "Marguerite Vell, you are free", "say_name"),
        # A word before a comma is no name unless the sentence speaks to someone.
        ((), "Quick, read the note", "read_note"),
        (("read_note",), "Damn, open the drawer", "open_drawer"),
    ],
)


def test_a_person_mentioned_is_no_name_given() -> None:
    assert classify_in("ease the lever down like Marek said", "stalled_lift", PANEL) == (
        "release_brake"
    )


@pytest.mark.parametrize(
    ("done", "message", "expected"),
    [
        # Speaking to whoever answers is calling: with the phone working, the desk call.
        (
            "open_phone_door,plug_phone",
            "pick up the handset and ask whoever answers for help",
            "call_night_desk",
        ),  # blind9
        (
            "open_phone_door,plug_phone",
            "lift the receiver and tell whoever picks up that I am stuck",
            "call_night_desk",
        ),
        # Before the phone works it is no other deed (not the shout).
        ("", "pick up the handset and ask whoever answers for help", NONE_ID),
        ("open_phone_door", "pick up the handset and ask whoever answers for help", NONE_ID),
    ],
)
def test_asking_whoever_answers_is_a_call(done: str, message: str, expected: str) -> None:
    assert (
        classify(message, options_in("stalled_lift", tuple(d for d in done.split(",") if d)))
        == expected
    )


test_the_second_deed_of_an_option_names_it = said_in(
    "ghost_room",
    TALKED,
    [
        # The second deed of a two-deed option, with its own words, names it.
        ("shout for help", "bang_door"),
        ("call out for help", "bang_door"),
        ("scream for help", "bang_door"),
        # Its word alone with another verb does not ("call" is no shout).
        ("call for help", NONE_ID),
    ],
)
