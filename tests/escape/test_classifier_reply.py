"""The answer to "which did you mean?" is read together with the asked message: a reply
that only names the thing ("the green one", "the red", "the second") picks among the two
actions offered; a reply naming neither asks again about the same two; a fresh order is
classified as any message. Played through the game with the scripted classifier seat."""

from __future__ import annotations

import pytest

from parlour.core.actions import Text
from parlour.core.events import Event
from parlour.core.rng import Rng
from parlour.games.escape import EscapeGame
from parlour.games.escape.policies import escape_policy

from .helpers import config


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


def _outcome(game: EscapeGame) -> Event:
    return next(e for e in reversed(game.events) if e.kind == "outcome")


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("the green one", "press_green"),
        ("the red", "press_red"),
        ("green please", "press_green"),
        ("the second one", None),  # by the question's order, read below
    ],
)
def test_a_reply_naming_the_thing_picks_among_the_offered(reply: str, expected: str | None) -> None:
    game = EscapeGame.new(config("ghost_room"), 7)
    _say(game, "press the button")
    question = _question(game)
    offered = list(question.data["candidates"])
    assert set(offered) == {"press_red", "press_green"} and game.done == ()
    _say(game, reply)
    classified = game.pending()[0]
    assert classified.purpose == "narrate"  # classified, no second question
    outcome = _outcome(game)
    want = expected or offered[1]
    assert outcome.data["choice"] == want
    assert outcome.data["action"] == want and want in game.done


def test_a_reply_naming_neither_asks_again_about_the_same_two() -> None:
    game = EscapeGame.new(config("ghost_room"), 7)
    _say(game, "press the button")
    first = _question(game)
    _say(game, "the blue one")
    again = _question(game)  # nothing offered was named: the same question, nothing done
    assert set(again.data["candidates"]) == set(first.data["candidates"])
    assert game.done == ()
    _say(game, "oh, the red one")
    assert _outcome(game).data["action"] == "press_red"


def test_a_fresh_order_as_the_reply_is_classified_as_any_message() -> None:
    game = EscapeGame.new(config("ghost_room"), 7)
    _say(game, "press the button")
    _question(game)
    _say(game, "never mind that, read the note on the desk")
    assert _outcome(game).data["action"] == "read_note"


def test_the_classify_decision_carries_the_asked_message_and_the_offer() -> None:
    game = EscapeGame.new(config("ghost_room"), 7)
    _say(game, "press the button")
    question = _question(game)
    (act,) = game.pending()
    game.apply(act.id, Text(text="the green one"))
    (classify,) = game.pending()
    assert classify.context["asked"] == "press the button"
    assert classify.context["offered"] == list(question.data["candidates"])
    assert "Which did you mean?" in classify.prompt
    # Once the reply acted, the next turn's message stands alone again.
    _system_step(game)
    game.apply(game.pending()[0].id, Text(text="The button clicks."))
    (act,) = game.pending()
    game.apply(act.id, Text(text="read the note"))
    assert "asked" not in game.pending()[0].context


def test_a_model_classifier_is_shown_the_asked_message() -> None:
    from parlour.games.escape.prompts import classifier_parts

    game = EscapeGame.new(config("ghost_room"), 7)
    _say(game, "press the button")
    _question(game)
    (act,) = game.pending()
    game.apply(act.id, Text(text="the green one"))
    (classify,) = game.pending()
    parts = classifier_parts(game.view("classifier"), classify)
    assert "the green one" in parts.command and "press the button" in parts.command
    assert (
        "press_red or press_green" in parts.command or "press_green or press_red" in parts.command
    )
