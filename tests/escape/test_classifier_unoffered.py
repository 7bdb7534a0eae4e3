"""The twelfth step: the classifier is told the actions the room does not offer now.

Before it, the classifier saw only the options offered now, so words fitting an action not
offered yet read as the one that is (blind14's "open the door" at the start of the lift
opened the little phone door; blind9's "tell the ghost her name is Marguerite" before a
name could be said talked to her). Now the unoffered actions travel in the classifier's
view (``seat_requests.ClassifierPrivate``), and the ask-vs-none rule of ``labels.py``
covers them: a message that says nothing telling the winner from one of them is ``none``.
"""

from __future__ import annotations

import pytest

from parlour.core.actions import Choice, Text
from parlour.core.rng import Rng
from parlour.games.escape import EscapeGame, load_scenario
from parlour.games.escape.keyword_classifier import classify
from parlour.games.escape.policies import SolverPlayer, escape_policy, policy_with_player
from parlour.games.escape.prompts import classifier_parts
from parlour.games.escape.scenario import NONE_ID

from .helpers import (
    PANEL,
    PHONE,
    SHIPPED,
    classified_in_rooms,
    config,
    options_in,
    unoffered_in,
)

BRAKE = (*PANEL, "release_brake")
KEY = ("read_note", "open_drawer")


test_a_message_that_fits_an_unoffered_action_as_well_does_not_say_which = classified_in_rooms(
    [
        # The lift's doors and the little phone door are both doors; nothing says which.
        ("stalled_lift", (), "open the door", NONE_ID),
        ("stalled_lift", (), "try the door", NONE_ID),
        # Near misses: a word of the phone door's own says which.
        ("stalled_lift", (), "open the little door", "open_phone_door"),
        ("stalled_lift", (), "open the phone door", "open_phone_door"),
        ("stalled_lift", (), "open the emergency phone door", "open_phone_door"),
        # The phone is the same thing in both (its door, calling on it): no other thing.
        ("stalled_lift", (), "pick up the emergency phone", "open_phone_door"),
        # Once the doors can be forced, their plural says which; the phone door is done.
        ("stalled_lift", BRAKE, "open the doors", "force_doors"),
        ("stalled_lift", BRAKE, "pull the doors open", "force_doors"),
        # A name before saying one is offered: the ghost is both actions', the name only
        # the saying's (blind9's wrong advance, once a special rule, now this one).
        ("ghost_room", (), "tell the ghost her name is Marguerite", NONE_ID),
        ("ghost_room", (), "I call her Rosalind", NONE_ID),
        # Near misses: talking is the winner's own deed, said of the same ghost; and once
        # talking is done, saying her name is offered.
        ("ghost_room", (), "talk to the ghost", "talk_to_ghost"),
        ("ghost_room", (), "speak to the ghost", "talk_to_ghost"),
        ("ghost_room", ("talk_to_ghost",), "tell the ghost her name is Marguerite", "say_name"),
    ]
)


def test_without_the_unoffered_actions_the_classifier_could_not_know() -> None:
    # What the classifier answered before the twelfth step, shown only the offered options.
    assert classify("open the door", options_in("stalled_lift")) == "open_phone_door"
    assert classify("open the door", [], unoffered=unoffered_in("stalled_lift")) == NONE_ID


def test_open_the_door_at_the_start_of_the_lift_does_nothing_and_asks_nothing() -> None:
    """Through the real game and the real classifier seat's policy."""
    game = EscapeGame.new(config("stalled_lift"), 1)
    game.apply("t1:act", Text(text="open the door"))
    (decision,) = game.pending()
    view = game.view("classifier")
    # The options are still exactly the available actions, look, ask and none.
    available = [a.id for a in load_scenario("stalled_lift").actions if not a.needs]
    assert decision.option_ids == (*available, "look", "ask", "none")
    assert {u.id for u in view.private.unoffered} == {
        a.id for a in load_scenario("stalled_lift").actions if a.needs
    }
    answer = escape_policy(view, decision, Rng(0))
    assert answer == Choice(option=NONE_ID)
    events = game.apply(decision.id, answer)
    assert game.done == ()
    (outcome,) = [e for e in events if e.kind == "outcome"]
    assert outcome.data["kind"] == "no_effect" and outcome.data["action"] is None
    (narrate,) = game.pending()
    assert narrate.purpose == "narrate"  # no "which did you mean?" clarify step
    shown = "\n".join(e.text for e in game.view("player").events)
    assert "Which did you mean" not in shown and "lift doors" not in shown


def test_the_model_prompt_lists_unoffered_actions_after_the_stable_prefix() -> None:
    game = EscapeGame.new(config("stalled_lift"), 1)
    game.apply("t1:act", Text(text="open the door"))
    (decision,) = game.pending()
    parts = classifier_parts(game.view("classifier"), decision)
    command = parts.command
    assert command.startswith(decision.prompt)  # the instruction first, as before
    actions, rest = command.split("Not possible now", 1)
    assert "- force the lift doors apart (not possible now)" in rest
    assert "force_doors" not in command  # no id to answer with
    assert "open_phone_door: open the little emergency phone door" in actions
    assert rest.index("(not possible now)") < rest.index("<player_message>")
    # Consequences, hints and answers of locked actions are never in it.
    for action in load_scenario("stalled_lift").actions:
        assert action.consequence not in command
        assert not action.answer or action.answer not in command


@pytest.mark.parametrize("name", SHIPPED)
def test_locked_descriptions_reach_only_the_classifier(name: str) -> None:
    """Every step of a solver game: the descriptions of actions still locked (needs not
    met, not done) are in the classifier's view and in no view or decision of the player
    or the narrator, nor in a spectator's view or any event. The classifier is an
    engine-side seat, so its view holding them is no leak; the player learns of an action
    only from the story."""
    scenario = load_scenario(name)
    by_id = {a.id: a for a in scenario.actions}
    game = EscapeGame.new(config(name), 3)
    policy = policy_with_player(SolverPlayer(scenario))
    rng = Rng(3)
    seen_in_classifier = 0
    for _ in range(500):
        if game.is_terminal():
            break
        done = set(game.done)
        locked = [
            by_id[a].description
            for a in by_id
            if a not in done and not all(n in done for n in by_id[a].needs)
        ]
        for seat in ("player", "narrator"):
            given = game.view(seat).model_dump_json() + "".join(
                d.model_dump_json() for d in game.pending() if d.seat == seat
            )
            leaked = [text for text in locked if text in given]
            assert not leaked, (seat, leaked)
        # What a spectator, `parlour show` (also --reveal) and the web app render.
        shown = "".join(
            [
                game.spectator_view(True).model_dump_json(),
                game.spectator_view(False).model_dump_json(),
                *(e.model_dump_json() for e in game.events),
            ]
        )
        assert not [text for text in locked if text in shown]
        classifier = game.view("classifier")
        if classifier.phase == "classify":
            held = {u.description for u in classifier.private.unoffered}
            assert set(locked) <= held
            seen_in_classifier += bool(locked)
        decision = game.pending()[0]
        game.apply(decision.id, policy(game.view(decision.seat), decision, rng))
    assert game.is_terminal() and seen_in_classifier > 0


OPEN_PANEL = ("read_newspaper", "open_service_panel")


test_kinds_blind13_to_15_showed = classified_in_rooms(
    [
        # Time words open a sentence like fillers; "one more time" is "again".
        ("ghost_room", (), "now finally open the drawer", "open_drawer"),
        ("ghost_room", (), "ok now lets search the fireplace", "search_fireplace"),
        ("stalled_lift", (), "press the alarm bell once more", "ring_alarm"),
        ("stalled_lift", (), "ring the alarm one last time", "ring_alarm"),
        # Getting a longer thing going is using it.
        ("stalled_lift", (), "get the torch on my mobile working", "use_torch"),
        # Asking for help with a handset taken up is calling on it, once the phone works.
        ("stalled_lift", PHONE, "lift the receiver and ask for help", "call_night_desk"),
        ("stalled_lift", (), "lift the receiver and ask for help", NONE_ID),
        # Wishing a thing works is trying it.
        ("stalled_lift", (), "i wonder if the emergency phone still works", "open_phone_door"),
        # "perhaps X fits Y" is trying X on Y, once Y is offered.
        ("ghost_room", KEY, "perhaps the little iron key fits the glass cabinet", "unlock_cabinet"),
        ("ghost_room", (), "perhaps the key fits the cabinet", NONE_ID),
        # Ringing through to someone is a call; calling down may be a shout: not said.
        ("stalled_lift", PHONE, "ring through to whoever is there", "call_night_desk"),
        ("stalled_lift", (), "ring through to whoever is there", NONE_ID),
        ("stalled_lift", PHONE, "call down to someone", NONE_ID),
        # Hitting a switch flips it; hitting buttons still presses them.
        ("stalled_lift", OPEN_PANEL, "hit the red switch", "flip_isolator"),
        ("stalled_lift", OPEN_PANEL, "hit the floor buttons", "press_floor_buttons"),
        ("stalled_lift", OPEN_PANEL, "hit the alarm", "ring_alarm"),
        # Hands run through a thing search it; through one's own hair they do not.
        ("ghost_room", (), "push my fingers into the ashes", "search_fireplace"),
        ("ghost_room", (), "run my hand through my hair", NONE_ID),
    ]
)
