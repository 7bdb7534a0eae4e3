"""What a description is about (deed and head nouns), and the wrong advances it prevents."""

from __future__ import annotations

from parlour.games.escape.keyword_classifier import classify
from parlour.games.escape.roles import plural_of, roles
from parlour.games.escape.scenario import NONE_ID

from .helpers import classified_in, options_in

AFTER_PLUG = ("open_phone_door", "plug_phone")


def test_roles_name_the_deed_and_the_objects_not_the_of_phrase() -> None:
    torch = roles("use_torch", "switch on the torch of your mobile phone")
    assert torch.deeds == {"switch", "use"} and torch.objects == {"torch"}
    call = roles("call_night_desk", "call the night desk on the emergency phone")
    assert call.deeds == {"call"} and {"desk", "phon"} <= call.objects
    door = roles("open_phone_door", "open the little emergency phone door")
    assert door.singular == {"door"} and plural_of("doors", "door")
    # "and" starts a second deed; "force open" is forcing and opening
    bang = roles("bang_door", "bang on the door and shout for help")
    assert bang.deeds == {"bang", "shout"} and bang.objects == {"door"}
    assert "open" in roles("force_grate", "force open the iron grate").deeds
    assert roles("shout_for_help", "shout for help").objects == frozenset()


test_head_nouns_stop_the_wrong_advances = classified_in(
    "stalled_lift",
    [
        # the lift's doors are not the phone's door: plural against singular
        ((), "pry open the doors", NONE_ID),
        # a weak match on a shared word whose object the option does not have: nothing,
        # not "which did you mean?" (the lift doors are no option yet)
        (AFTER_PLUG, "pry open the doors", NONE_ID),
        # "phone" as the verb is a call, and "help" after "for" is not the deed
        (AFTER_PLUG, "phone for help", "call_night_desk"),
        (AFTER_PLUG, "pick up the phone and call for help", "call_night_desk"),
        # "use" + the phone the description is about, not the phone the torch belongs to
        (AFTER_PLUG, "use the emergency phone", "call_night_desk"),
        (AFTER_PLUG, "shout for help", "shout_for_help"),
        # a number that is no code entry does not open the keypad
        ((), "call 999 on my mobile", NONE_ID),
        ((), "enter 1962", "open_service_panel"),
    ],
)


def test_trap_door_typed_apart_is_the_hatch_not_the_phone_door() -> None:
    options = options_in("stalled_lift", ("climb_handrail",))
    assert classify("open the trap door in the roof", options) == "push_hatch"
