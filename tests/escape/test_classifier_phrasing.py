"""The generalisation step (issue 12, third pass): phrasing rewrites, keyboard-slip typos,
broad orders and said names. Messages here are written for the rules, not taken from sets."""

from __future__ import annotations

import pytest

from parlour.games.escape.keyword_classifier import classify, is_broad
from parlour.games.escape.phrasing import is_quantified, numbers_as_digits, rewrite, untagged
from parlour.games.escape.scenario import NONE_ID
from parlour.games.escape.typos import correct, distance

from .helpers import PHONE, classify_in, options_in


@pytest.mark.parametrize(
    ("spoken", "digits"),
    [
        ("key nineteen sixty two", "key 1962"),
        ("two nine zero four", "2904"),
        ("twenty nine oh four please", "2904 please"),
        ("one thousand nine hundred and sixty two", "1962"),
        ("the red one", "the red one"),  # not a code: left as words
        ("two buttons", "two buttons"),
    ],
)
def test_codes_in_words_become_digits_only_when_they_make_a_code(spoken: str, digits: str) -> None:
    assert numbers_as_digits(spoken) == digits


def test_rewrites_contractions_shorthand_goals_and_phrasal_verbs() -> None:
    assert rewrite("x painting") == "examine painting"
    assert rewrite("I'll use the matches to light the lamp") == "I light the lamp with the matches"
    assert rewrite("punch in the code") == "type the code"
    assert rewrite("put the key in the lock") == "plug the key in the lock"
    assert rewrite("try the key in the lock") == "try the key in the lock"  # "key" is a noun
    assert rewrite("speak into the receiver") == "call on the receiver"
    assert untagged("you are Anna, aren't you?") == "you are Anna."


def test_typos_are_keyboard_slips_towards_known_words_and_never_short_or_plural() -> None:
    known = frozenset({"cupboard", "painting", "cabinet", "torch", "button", "lever"})
    assert correct("cupbaord", known) == "cupboard"  # two neighbours swapped
    assert correct("cabnet", known) == "cabinet"  # a letter dropped
    assert correct("leaver", known) == "lever"  # a letter added
    assert correct("pointing", known) == "pointing"  # o and a are far apart: a real word
    assert correct("touch", known) == "touch"  # five letters: left to text.near
    assert correct("buttons", known) == "buttons"  # a known word with an ending
    assert distance("pointing", "painting", 2) > 2


def test_goal_decides_not_the_instrument() -> None:
    # the phone door is shut: calling is not on offer, and opening the door was not asked
    message = "use the emergency phone to call the night desk"
    assert classify(message, options_in("stalled_lift", ())) == NONE_ID
    assert classify_in(message, "stalled_lift", PHONE) == "call_night_desk"


def test_a_broad_order_does_nothing_and_a_narrow_one_acts() -> None:
    options = options_in("stalled_lift", ())
    assert is_quantified("press every button") and not is_quantified("pull it all the way")
    assert is_broad("jab every button there is", options, "press_floor_buttons")
    assert classify("hit each button in turn", options) == NONE_ID  # not said which
    assert classify("hit all the floor buttons", options) == "press_floor_buttons"


def test_a_said_name_scores_as_calling_by_name_and_a_capital_verb_does_not() -> None:
    options = options_in("ghost_room", ("talk_to_ghost",))
    assert classify("I whisper 'Rosalind' to her", options) == "say_name"
    assert classify("Good evening, Lady Agatha", options) == "say_name"
    assert classify("Jiggle the cabinet handle", options) != "say_name"


def test_greetings_and_everyday_words_reach_the_right_option() -> None:
    room = options_in("ghost_room", ())
    assert classify("hi madam, can you hear me?", room) == "talk_to_ghost"
    assert classify("rummage through the hearth", room) == "search_fireplace"
    lift = options_in("stalled_lift", ())
    assert classify("crack open the phone compartment", lift) == "open_phone_door"
    assert classify("sound the alarm", lift) == "ring_alarm"


def test_the_engine_accepts_a_code_typed_in_words_or_apart() -> None:
    """The classifier reads "nineteen sixty two" as the keypad (phrasing.py); the engine's
    answer check must accept it too, or the player is told the code is wrong."""
    from parlour.games.escape.answers import answer_in_text, spoken_forms

    for said in ("type nineteen sixty two", "enter 1 9 6 2", "1-9-6-2", "one nine six two"):
        assert answer_in_text("1962", said), said
    for said in ("nineteen sixty three", "19 62", "press the red one", "1963"):
        assert not answer_in_text("1962", said), said
    assert answer_in_text("one", "press the red one")  # a word answer still matches as typed
    assert spoken_forms("press the red one") == ("press the red one",)
