"""The fifth step (issue 12, after blind4 was scored): addressing someone, wishes, a pronoun
with one antecedent, a negation's reach, direction verbs, calling someone, putting a thing
back into another, musing over a deed. Messages here are written for the rules, not taken
from any label set."""

from __future__ import annotations

from parlour.games.escape.keyword_classifier import acting_part
from parlour.games.escape.keyword_classifier.pronouns import it_resolved
from parlour.games.escape.scenario import NONE_ID

from .helpers import DOWN, LOOKED, PHONE, TALKED, classified_in_rooms, options_in

test_fifth_step_rules = classified_in_rooms(
    [
        # Calling someone by what they are is talking to them; a question about them is not.
        ("ghost_room", (), "excuse me? miss? are you alright", "talk_to_ghost"),
        ("ghost_room", (), "spirit, can you speak", "talk_to_ghost"),
        ("ghost_room", (), "who is the woman by the window?", NONE_ID),
        # A wish is an order.
        ("ghost_room", LOOKED, "I would love to open that drawer", "open_drawer"),
        ("ghost_room", LOOKED, "I want to search the fireplace", "search_fireplace"),
        # A pronoun with one antecedent stands for it; with two, it stays a pronoun.
        ("ghost_room", TALKED, "the drawer looks stuck so I'll pull it open", "open_drawer"),
        # A negation reaches to the next comma or "but", not past it.
        ("ghost_room", TALKED, "I know I shouldn't, but press green", "press_green"),
        ("ghost_room", TALKED, "don't press the green button, press the red one", "press_red"),
        ("ghost_room", TALKED, "press red, no, don't", NONE_ID),
        ("ghost_room", TALKED, "don't open the drawer and search the fireplace", NONE_ID),
        # Direction verbs name the climb that goes that way; another direction does not.
        ("ghost_room", DOWN, "descend", "climb_down"),
        ("ghost_room", DOWN, "head down", "climb_down"),
        ("stalled_lift", ("force_doors",), "go up", "climb_handrail"),
        # Ringing / getting someone is calling; the phone decides which option.
        ("stalled_lift", PHONE, "ring somebody on the emergency phone", "call_night_desk"),
        ("stalled_lift", PHONE, "use the phone to reach someone", "call_night_desk"),
        # Putting a thing back into another is plugging it in.
        ("stalled_lift", ("open_phone_door",), "stick the loose wire back in", "plug_phone"),
        # Musing whether a deed would work is the deed; asking what it does is a question.
        (
            "stalled_lift",
            PHONE,
            "I wonder whether anyone answers if I dial them on the phone",
            "call_night_desk",
        ),
        ("ghost_room", TALKED, "what happens if I press the red button?", NONE_ID),
    ]
)


def test_a_negation_covers_its_own_part_of_the_message() -> None:
    assert acting_part("I don't open the drawer") == ""
    assert acting_part("they said not to, but open the drawer") == "open the drawer."


def test_a_pronoun_stands_for_its_only_antecedent() -> None:
    options = options_in("ghost_room", TALKED)
    assert it_resolved("she looked at the trapdoor so open it", options).endswith("open trapdoor")
    two = "the drawer and the trapdoor, open it"
    assert it_resolved(two, options) == two  # two things before it: it stays "it"
    assert it_resolved("open it", options) == "open it"  # nothing before it
