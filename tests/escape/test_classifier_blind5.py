"""The sixth step (issue 12, after blind5 was scored): the noun phrase of looking, musing
about what a place holds, a filler before calling someone, a name asked as a question, a
way said into the unknown, a request for light, an instrument that belongs to another
option, a light verb on a thing two options mention. Messages here are written for the
rules, not taken from any label set."""

from __future__ import annotations

from parlour.games.escape.scenario import ASK_ID, NONE_ID

from .helpers import DOWN, LOOKED, PHONE, TALKED, classified_in_rooms

test_sixth_step_rules = classified_in_rooms(
    [
        # "a (closer) look at X" is examining X, after a wish or alone.
        ("ghost_room", (), "I want a good look at the oil painting", "examine_painting"),
        ("ghost_room", (), "get a quick look at the painting", "examine_painting"),
        # Musing about what a place holds is looking in it; about what a text says, reading it.
        ("ghost_room", LOOKED, "i wonder what is inside the drawer", "open_drawer"),
        ("ghost_room", (), "I wonder what the folded note says", "read_note"),
        # A filler before calling someone keeps it talking to them.
        ("ghost_room", (), "erm, excuse me lady? hello", "talk_to_ghost"),
        # Asking whether she bears a name is saying it (the engine checks it); a state is not.
        ("ghost_room", TALKED, "Rosalind?", "say_name"),
        ("ghost_room", TALKED, "are you rosalind?", "say_name"),
        ("ghost_room", TALKED, "are you lonely?", NONE_ID),
        ("ghost_room", TALKED, "are you trapped here?", NONE_ID),
        ("ghost_room", TALKED, "is her name Rosalind?", NONE_ID),  # asked about her, not to her
        # A way said into the unknown names the deed that goes there.
        ("ghost_room", DOWN, "lantern in hand, I head down into the blackness", "climb_down"),
        ("ghost_room", DOWN, "gripping the rope I go down slowly", "climb_down"),
        # A request for light (a noun) is switching a light on.
        ("stalled_lift", (), "some light please", "use_torch"),
        ("stalled_lift", (), "light off my mobile", "use_torch"),
        # Another option's thing in the message: the goal words do not decide alone.
        # (Asking or begging for help with the handset taken up is calling on it, twelfth
        # step: blind14's "pick up the handset and ask for help" was labelled the call.)
        ("stalled_lift", PHONE, "pick up the receiver and hope for help", ASK_ID),
        ("stalled_lift", PHONE, "pick up the receiver and beg for help", "call_night_desk"),
        ("stalled_lift", PHONE, "yell for help", "shout_for_help"),
        # A light verb on a thing two options mention: not said which, nothing is done.
        ("stalled_lift", PHONE, "operate the phone", NONE_ID),
        ("stalled_lift", PHONE, "use the emergency phone", "call_night_desk"),
        ("ghost_room", ("open_drawer",), "use the key on the cabinet", "unlock_cabinet"),
    ]
)
