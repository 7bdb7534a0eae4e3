"""The answer to "which did you mean?" is read together with the asked message: a reply
that only names the thing ("the green one", "the red", "the second") picks among the two
actions offered; a reply naming neither asks again about the same two, unless it is a
question of its own or declines; a fresh order is classified as any message. Played
through the game with the scripted classifier seat."""

from __future__ import annotations

import pytest

from parlour.core.actions import Text
from parlour.core.events import Event
from parlour.core.rng import Rng
from parlour.games.escape import EscapeGame
from parlour.games.escape.ask import ClassifyAsk
from parlour.games.escape.policies import escape_policy

from .helpers import config

#: Says something of the painting and of the woman (the ghost): the classifier asks which.
#: ("press the button" says nothing that tells the two buttons apart: none, labels.py.)
ASKED = "go look at the woman in the painting"


def _system_step(game: EscapeGame) -> None:
    """One classifier (or clarifier) decision, taken by the scripted classifier seat."""
    (decision,) = game.pending()
    assert decision.seat == "classifier"
    game.apply(decision.id, escape_policy(game.view(decision.seat), decision, Rng(0)))


def _say(game: EscapeGame, text: str) -> None:
    (act,) = game.pending()
    assert act.purpose == "act"
    game.apply(act.id, Text(text=text))
    _system_step(game)  # classify


def _question(game: EscapeGame) -> Event:
    """After an ask: the clarify decision, then the game's question."""
    assert game.pending()[0].purpose == "clarify"
    _system_step(game)
    question = game.events[-1]
    assert question.kind == "reply" and question.data["command"] == "ask"
    return question


def _asked() -> tuple[EscapeGame, Event]:
    """A fresh ghost_room game that has just asked which of two actions ``ASKED`` meant."""
    game = EscapeGame.new(config("ghost_room"), 7)
    _say(game, ASKED)
    return game, _question(game)


def _outcome(game: EscapeGame) -> Event:
    return next(e for e in reversed(game.events) if e.kind == "outcome")


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("the painting", "examine_painting"),
        ("the painting please", "examine_painting"),
        ("the second one", None),  # by the question's order, read below
    ],
)
def test_a_reply_naming_the_thing_picks_among_the_offered(reply: str, expected: str | None) -> None:
    game, question = _asked()
    offered = list(question.data["candidates"])
    assert set(offered) == {"examine_painting", "talk_to_ghost"} and game.done == ()
    _say(game, reply)
    classified = game.pending()[0]
    assert classified.purpose == "narrate"  # classified, no second question
    outcome = _outcome(game)
    want = expected or offered[1]
    assert outcome.data["choice"] == want
    assert outcome.data["action"] == want and want in game.done


def test_a_reply_naming_neither_asks_again_about_the_same_two() -> None:
    game, first = _asked()
    _say(game, "the blue one")
    again = _question(game)  # nothing offered was named: the same question, nothing done
    assert set(again.data["candidates"]) == set(first.data["candidates"])
    assert game.done == ()
    _say(game, "the painting then")
    assert _outcome(game).data["action"] == "examine_painting"


@pytest.mark.parametrize(
    "reply", ["what is written on the note?", "never mind", "neither, actually", "Forget it."]
)
def test_a_question_of_its_own_or_a_refusal_ends_the_question(reply: str) -> None:
    """The player moved on: the reply is answered as any message (nothing happens, a
    turn passes and is narrated), not met with the same question again."""
    game, _ = _asked()
    _say(game, reply)
    assert game.pending()[0].purpose == "narrate"
    outcome = _outcome(game)
    assert outcome.data["choice"] == "none" and outcome.data["action"] is None
    assert game.done == ()


def test_a_question_naming_an_offered_thing_still_answers() -> None:
    game, _ = _asked()
    _say(game, "the painting?")
    assert _outcome(game).data["action"] == "examine_painting"


def test_a_fresh_order_as_the_reply_keeps_the_rule_for_what_is_not_offered() -> None:
    """Saying her name before naming is offered does nothing as a first message; as the
    reply to "which did you mean?" it must not talk to her either (it names the ghost of
    one offered action and the naming no action offers: the question stands)."""
    game, first = _asked()
    _say(game, "tell the ghost her name is Marguerite")
    assert not [e for e in game.events if e.kind == "outcome"] and game.done == ()
    assert _question(game).data["candidates"] == first.data["candidates"]


def test_a_fresh_order_as_the_reply_is_classified_as_any_message() -> None:
    game, _ = _asked()
    _say(game, "never mind that, read the note on the desk")
    assert _outcome(game).data["action"] == "read_note"


def test_the_classify_decision_carries_the_asked_message_and_the_offer() -> None:
    game, question = _asked()
    (act,) = game.pending()
    game.apply(act.id, Text(text="the painting"))
    (classify,) = game.pending()
    ask = ClassifyAsk.of(classify)
    assert ask.asked == ASKED
    assert ask.offered == list(question.data["candidates"])
    assert "Which did you mean?" in classify.prompt
    # Once the reply acted, the next turn's message stands alone again.
    _system_step(game)
    game.apply(game.pending()[0].id, Text(text="You look closer."))
    (act,) = game.pending()
    game.apply(act.id, Text(text="read the note"))
    assert ClassifyAsk.of(game.pending()[0]).asked is None


def test_a_model_classifier_is_shown_the_asked_message() -> None:
    from parlour.games.escape.prompts import classifier_parts

    game, _ = _asked()
    (act,) = game.pending()
    game.apply(act.id, Text(text="the painting"))
    (classify,) = game.pending()
    parts = classifier_parts(game.view("classifier"), classify)
    assert "the painting" in parts.command and ASKED in parts.command
    assert (
        "examine_painting or talk_to_ghost" in parts.command
        or "talk_to_ghost or examine_painting" in parts.command
    )
