"""The shared free-text guards and a game's TextRules, on hand-made texts."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.text_rules import TextRules
from parlour.seats.text_guard import copied_instructions, echoed_line, guard, repeated_ngram

SYSTEM = (
    "You are the narrator of a text adventure. Describe only what the facts and the brief "
    "contain; never invent exits, objects, clues, codes or solutions."
)


def test_prompt_copy_fires_on_eight_tokens_of_instructions() -> None:
    text = "Well. Describe only what the facts and the brief contain, friend."
    reason = copied_instructions(text, [SYSTEM])
    assert reason == (
        'it copies your instructions ("describe only what the facts and the brief"); '
        "write your own words, not the prompt's"
    )


def test_prompt_copy_does_not_fire_on_seven_tokens_or_on_facts() -> None:
    assert copied_instructions("Describe only what the facts and the moon say.", [SYSTEM]) is None
    assert copied_instructions("The shutter rattles up and grey light floods in.", [SYSTEM]) is None


def test_prompt_copy_fires_on_a_recited_short_reminder_line() -> None:
    # Seen in a missing game on the embedded model: a seat texted its clock reminder.
    reminders = "Story card to answer with your next message: the till.\n27:03 left on the clock."
    reason = copied_instructions("27:03 left on the clock.", [reminders])
    assert reason == (
        'it recites a line of your instructions ("27 03 left on the clock"); '
        "write your own words, not the prompt's"
    )
    # Part of a short line, or the same words with another time, is not a recital.
    assert copied_instructions("only 27 minutes left", [reminders]) is None
    assert copied_instructions("26:10 left on the clock.", [reminders]) is None


def test_repetition_fires_on_a_repeated_four_gram_only() -> None:
    loop = "Use only the facts below and the brief. Use only the facts below and the brief."
    assert repeated_ngram(loop) == (
        'it repeats itself ("use only the facts" twice); say each thing once'
    )
    assert repeated_ngram("the village of the village of the village") is not None
    assert repeated_ngram("The crank turns, the shutter rises, the light comes in.") is None


def test_echo_fires_on_another_speakers_last_line() -> None:
    last = {"Aiko": "I think Kenji is the wolf, he voted late.", "Omar": "Hello."}
    assert echoed_line("i think kenji is the WOLF he voted late", last) == (
        "it is the same line Aiko just said; say something of your own"
    )
    assert echoed_line("Yes. I think Kenji is the wolf, he voted late!", last) is not None
    assert echoed_line("Hello.", {"Omar": "Hello there, everyone, how are you today?"}) is None
    assert echoed_line("Kenji voted late, I agree with Aiko.", last) is None


def test_guard_joins_the_reasons_of_the_checks_asked_for() -> None:
    loop = "Describe only what the facts and the brief contain. Describe only what the facts."
    assert guard(loop, ()) is None
    assert guard(loop, ("repetition",)) == repeated_ngram(loop)
    both = guard(loop, ("prompt_copy", "repetition"), instructions=[SYSTEM])
    assert both is not None and both.count("; ") >= 1 and "copies your instructions" in both


def test_text_rules_require_carry_and_deny() -> None:
    rules = TextRules(
        subject="what happened",
        require=("417",),
        words=("crank", "shutter", "rises", "light"),
        min_words=3,
        deny=("no effect", "nothing happens"),
        deny_why="the action happened",
    )
    assert rules.problem("You turn the crank; the shutters rise and light shows 417.") is None
    problems = rules.problems("This has no effect on the story. The crank turns. 4170")
    assert problems == [
        "it says 'no effect', but the action happened",
        "it leaves out 417 from what happened; include it",
        "it carries too little of what happened: 1 of the words crank, shutter, rises, light "
        "(at least 3); use them",
    ]
    with pytest.raises(ValidationError, match="min_words exceeds"):
        TextRules(words=("a",), min_words=2)


def test_decisions_validate_their_checks() -> None:
    base = {"id": "d", "seat": "s", "purpose": "speak", "prompt": "say"}
    ok = Decision(kind=DecisionKind.FREE_TEXT, max_length=50, checks=("echo",), **base)
    assert ok.checks == ("echo",)
    with pytest.raises(ValidationError):
        Decision(kind=DecisionKind.FREE_TEXT, max_length=50, checks=("spelling",), **base)
    with pytest.raises(ValidationError, match="named twice"):
        Decision(kind=DecisionKind.FREE_TEXT, max_length=50, checks=("echo", "echo"), **base)
    with pytest.raises(ValidationError, match="or a structured decision that names"):
        Decision(
            kind=DecisionKind.CHOOSE_ONE,
            options=(Option(id="a", label="A"),),
            checks=("echo",),
            **base,
        )
    # a choose-one whose reason is a public phrase may guard that phrase
    phrased = Decision(
        kind=DecisionKind.CHOOSE_ONE,
        options=(Option(id="a", label="A"),),
        checks=("echo",),
        phrase_words=12,
        **base,
    )
    assert phrased.checks == ("echo",)
