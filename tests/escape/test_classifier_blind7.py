"""The eighth step (issue 12, after blind7 was scored): a message whose words fit two
available options equally never acts on one. Messages here are written for the rules, not
taken from any label set (blind7's one wrong advance was "call for help" with the phone
working; the others are guesses found by probing the classifier)."""

from __future__ import annotations

from parlour.games.escape.keyword_classifier import classify
from parlour.games.escape.scenario import ASK_ID, NONE_ID

from .helpers import DOWN, PANEL, PHONE, TALKED, classified_in_rooms, options_in

test_two_options_fitting_equally_never_act_on_one = classified_in_rooms(
    [
        # The verb is another available option's deed, the rest the winner's: ask.
        ("stalled_lift", PHONE, "call for help", ASK_ID),
        ("stalled_lift", PHONE, "call for some help please", ASK_ID),
        # Only the options the room offers now count: before the phone works, it shouts.
        ("stalled_lift", (), "call for help", "shout_for_help"),
        # Saying which one acts.
        ("stalled_lift", PHONE, "call the night desk for help", "call_night_desk"),
        ("stalled_lift", PHONE, "shout for help", "shout_for_help"),
        # A verb of looking on a thing is no deed on it; reading and searching still act.
        ("ghost_room", (), "examine the red button", NONE_ID),
        ("ghost_room", (), "inspect the green button", NONE_ID),
        ("stalled_lift", (), "look at the alarm bell", NONE_ID),
        ("stalled_lift", (), "examine the newspaper", "read_newspaper"),
        ("ghost_room", (), "inspect the oil painting", "examine_painting"),
        ("ghost_room", (), "check the ashes in the grate", "search_fireplace"),
        # Two options offered as choices: the player has not chosen; the game asks.
        ("ghost_room", (), "press the red button or the green button", ASK_ID),
        ("ghost_room", (), "press red or green", ASK_ID),
        # An option whose every word another strong option also has, with more, is not meant.
        ("ghost_room", (), "hit the door and the red button", "press_red"),
        # Still acted: a press on the one thing that is a switch flips it.
        ("stalled_lift", PANEL, "lift the flap and press the red switch", "flip_isolator"),
    ]
)


def test_without_ask_offered_a_message_fitting_two_options_is_none() -> None:
    options = [o for o in options_in("stalled_lift", PHONE) if o[0] != ASK_ID]
    assert classify("call for help", options) == NONE_ID
    assert classify("press red or green", options_in("ghost_room")[:-1]) == NONE_ID


test_kinds_of_miss_blind6_and_blind7_showed = classified_in_rooms(
    [
        # Calling out to anyone, in capitals, is shouting; a polite "can you" stays an order.
        ("stalled_lift", (), "CAN SOMEBODY HEAR ME", "shout_for_help"),
        ("stalled_lift", (), "can you open the phone door", "open_phone_door"),
        # Light asked for "in here" is switching a light on.
        ("stalled_lift", (), "we need more light in here", "use_torch"),
        # A tag "right?" without a comma is still a tag: saying a name.
        (
            "ghost_room",
            TALKED,
            "ur name is rosalind right?",
            "say_name",
        ),
        # A bare "d" is a text adventure's "down"; "u" inside a sentence stays "you".
        (
            "ghost_room",
            DOWN,
            "d",
            "climb_down",
        ),
        ("ghost_room", (), "u r kind", NONE_ID),
    ]
)
