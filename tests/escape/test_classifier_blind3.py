"""The fourth step (issue 12, after blind3 was scored): object-only messages, one of several
things, looking at writing, musing and polite requests, the first of two deeds, shouted
questions. Messages here are written for the rules, not taken from any label set."""

from __future__ import annotations

from parlour.games.escape.keyword_classifier import is_question
from parlour.games.escape.scenario import NONE_ID

from .helpers import TALKED, classified_in_rooms

test_fourth_step_rules = classified_in_rooms(
    [
        # No verb: nothing is done, however well the noun fits.
        ("stalled_lift", (), "the inspection certificate", NONE_ID),
        ("ghost_room", (), "that oil painting", NONE_ID),
        ("ghost_room", (), "the red one, press it", "press_red"),  # a verb later acts
        # One of several, not said which: none (a label or a modifier says which).
        ("stalled_lift", (), "push the button", NONE_ID),  # says not which: none (labels.py)
        ("stalled_lift", (), "push button 4", "press_floor_buttons"),
        ("stalled_lift", (), "push the alarm button", "ring_alarm"),
        # Looking at a thing that bears writing is reading it; at its place is not.
        ("ghost_room", (), "inspect the note", "read_note"),
        ("ghost_room", (), "x writing desk", NONE_ID),  # the drawer's or the note's: none
        ("stalled_lift", (), "study the newspaper", "read_newspaper"),
        # Musing, polite requests, "have a word with".
        (
            "ghost_room",
            ("open_drawer",),
            "i wonder whether there is something inside the cabinet",
            "unlock_cabinet",
        ),
        ("ghost_room", (), "can I take a quick look at the painting?", "examine_painting"),
        ("ghost_room", (), "can I open the drawer?", NONE_ID),  # asks whether, stays a question
        (
            "ghost_room",
            ("open_drawer",),
            "have a quick word with the woman by the window",
            "talk_to_ghost",
        ),
        ("ghost_room", TALKED, "try the red one", "press_red"),
        # Two deeds: the first wins; "before that" reorders; a lower-case name is a name.
        ("ghost_room", TALKED, "whisper her name, Rosalind, then climb down", "say_name"),
        (
            "ghost_room",
            TALKED,
            "I'll search the ashes. Before that, open the drawer",
            "open_drawer",
        ),
        ("ghost_room", TALKED, "name her rosalind", "say_name"),
        # A question called out is shouting, where shouting is an option.
        ("stalled_lift", (), "IS ANYBODY THERE", "shout_for_help"),
        ("stalled_lift", (), "can anybody hear me?!", "shout_for_help"),
        ("stalled_lift", (), "can anybody hear me?", NONE_ID),
    ]
)


def test_an_auxiliary_opens_a_question_only_before_its_subject() -> None:
    assert is_question("is the door locked")
    assert is_question("have you seen the key")
    assert not is_question("have a look at the painting")
