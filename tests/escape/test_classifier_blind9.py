"""The tenth step (issue 12, after blind9 was scored): kinds of English blind9 showed, each
written as a rule and tested here on messages written for the rule (a few blind9 messages
too, marked), not only the ones of the set."""

from __future__ import annotations

import pytest

from parlour.games.escape.keyword_classifier import classify
from parlour.games.escape.scenario import NONE_ID

from .helpers import TALKED
from .test_classifier_senses import _options

LIT = (*TALKED, "say_name", "open_drawer", "unlock_cabinet", "light_lantern")


@pytest.mark.parametrize(
    ("message", "expected"),
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
def test_negation_counts_only_in_the_clause_it_is_said_in(message: str, expected: str) -> None:
    assert classify(message, _options("ghost_room", LIT)) == expected
