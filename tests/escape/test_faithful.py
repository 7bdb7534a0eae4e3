"""Faithful narration: the engine checks the narrator's text before anyone reads it.

The failing example is issue 12's: after ``crank-shutter`` was applied, the embedded model
narrated "This has no effect on the story. Use only the facts below and the brief. …".
It is pinned through the LLM seat with replayed model calls (``ReplayBackend``).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from parlour.core.actions import Choice, Text
from parlour.games.escape import MODULE, EscapeConfig, EscapeGame
from parlour.games.escape.commands import look_text
from parlour.games.escape.faithful import META_WHY, content_words, meta_ban
from parlour.games.escape.loader import load_scenario
from parlour.games.escape.resolve import NO_EFFECT, NO_EFFECT_LINES, Outcome, brief_for
from parlour.seats.llm import Attempt
from tests.replay_seat import replay_seat

from .helpers import SHIPPED, last_narration, scenario_from

WORKSHOP = """
title: The Workshop
intro: You are in a dark workshop. A crank sits beside a steel shutter on the east wall.
world:
  - The shutter is rolled down to the floor.
actions:
  - id: crank-shutter
    description: turn the crank
    consequence: >-
      The crank turns stiffly and the shutter rattles up. Grey daylight shows a door
      stencilled 417.
  - id: open-door
    description: open the stencilled door
    needs: [crank-shutter]
    answer: "417"
    consequence: The door swings out onto a rainy courtyard. You are free.
    ends_game: true
    ending: out into the rain
    good: true
"""

#: Issue 12's narration, repeated to the length cap as the model did.
FAILING = (
    "This has no effect on the story. Use only the facts below and the brief. "
    "Use only the facts below and the brief. Use only the facts below and the brief."
)
FAITHFUL = "You turn the crank; the shutter rattles up and grey daylight shows a door marked 417."
#: The faithful narration behind a preamble about the task: refused for the preamble alone.
FAITHFUL_WITH_PREAMBLE = f"Here is a summary, as the brief asks: {FAITHFUL}"


def _game() -> EscapeGame:
    return EscapeGame.new(EscapeConfig(scenario=scenario_from(WORKSHOP)), 7)


def _cranked() -> EscapeGame:
    """The workshop after turn 1 cranked the shutter: the narration of it is due."""
    game = _game()
    game.apply("t1:act", Text(text="I turn the crank"))
    game.apply("t1:classify", Choice(option="crank-shutter"))
    return game


def _narrate(game: EscapeGame, answers: list[str]) -> tuple[Text, list[Attempt]]:
    """The narrator seat answers from recorded calls (in order; one per attempt)."""
    seat, sink = replay_seat(
        MODULE.prompter,
        MODULE.policy,
        answers,
        seat_id="narrator",
        purpose="narrate",
        seed=7,
        cache_key="narrator",
    )
    decision = game.pending()[0]
    action = asyncio.run(seat.decide(game.view("narrator"), decision))
    assert isinstance(action, Text)
    game.apply(decision.id, action)
    return action, sink.items


def test_the_issue_example_is_rejected_with_its_reasons_then_replaced_by_the_consequence() -> None:
    game = _cranked()
    action, attempts = _narrate(game, [FAILING] * 3)
    assert [a.outcome for a in attempts] == ["invalid", "invalid", "invalid", "fallback"]
    error = attempts[0].error
    assert error.startswith(
        "it says 'no effect', but the action happened; tell what it did; "
        "it leaves out 417 from what happened; include it; "
        "it carries too little of what happened: 0 of the words crank, turns, stiffly, "
        "shutter, rattles, grey, daylight, shows, door, stencilled (at least 6); use them; "
    )
    assert 'it repeats itself ("use only the facts" twice)' in error
    assert f"it says 'the brief', 'the facts', 'facts below', 'use only', but {META_WHY}" in error
    # The retry sees the exact reason on its throwaway branch.
    assert error in attempts[1].messages[-1].content
    consequence = game.scenario.action("crank-shutter").consequence
    assert action.text == consequence
    shown = last_narration(game)
    assert shown.text == consequence and "no effect" not in shown.text


def test_a_faithful_retry_is_accepted_and_shown_as_written() -> None:
    game = _cranked()
    action, attempts = _narrate(game, [FAILING, FAITHFUL])
    assert [a.outcome for a in attempts] == ["invalid", "valid"]
    assert action.text == FAITHFUL
    shown = last_narration(game)
    assert shown.text == FAITHFUL and "replaced" not in shown.data


def test_the_game_replaces_an_unfaithful_narration_whoever_wrote_it() -> None:
    game = _cranked()
    game.apply("t1:narrate", Text(text="Nothing happens. The crank is stuck."))
    shown = last_narration(game)
    assert shown.text == game.scenario.action("crank-shutter").consequence
    assert shown.data["written"] == "Nothing happens. The crank is stuck."
    assert shown.data["replaced"].startswith("it says 'nothing happens', but the action happened")


def test_when_nothing_happened_progress_and_locked_words_are_refused() -> None:
    game = _game()
    game.apply("t1:act", Text(text="I sing a song"))
    game.apply("t1:classify", Choice(option="none"))
    # "courtyard" is only in the locked ending's consequence: the narrator never saw it.
    assert game.narration_problem("You sing and the shutter opens; you walk out.") == (
        "it says 'opens', but nothing changed this turn; do not describe progress"
    )
    assert game.narration_problem("You sing; somewhere a courtyard drips.") == (
        "it mentions something the player has not found out"
    )
    assert game.narration_problem("You sing. The shutter stays down; the dark stays.") is None
    # Off the subject: neither the deed (sing, song) nor the brief (the game's no-effect
    # line, "nothing", ...) is named.
    brief = str(game.view("narrator").private.brief)  # type: ignore[union-attr]
    assert brief in NO_EFFECT_LINES
    problem = game.narration_problem("I've just returned from a long journey to a planet.")
    assert problem is not None
    assert problem.startswith(
        "it carries too little of what the player did or the brief: 0 of the words sing, song,"
    )
    assert "nothing" in problem and problem.endswith("(at least 1); use them")
    assert game.narration_problem("You've succeeded. I'll see you next time, singer.") == (
        "it says 'succeeded', but nothing changed this turn; do not describe progress"
    )
    # The fallback (the brief as it stands) keeps the rule it is the fallback for, and so
    # does every line the game may pick as such a turn's brief: each carries a word of
    # its own for the rule to find.
    assert game.narration_problem(brief) is None
    for line in NO_EFFECT_LINES:
        assert content_words(line), line
    # The old brief named the story itself: a note about the game, not a narration.
    assert game.narration_problem("This has no effect on the story.") is not None


#: Issue 12's paraphrase of the instructions (the 50-game batch showed it on a no-effect
#: turn): it names the brief, so rule 3 let it through; rule 5 refuses it.
PARAPHRASE = (
    "Here is a summary of what happened. Use just what was mentioned in the brief and "
    "the facts you were given."
)
BATCH = json.loads((Path(__file__).parent / "accepted_narrations.json").read_text())


def test_a_paraphrase_of_the_instructions_is_refused_with_its_own_reason_then_retried() -> None:
    game = _cranked()
    action, attempts = _narrate(game, [FAITHFUL_WITH_PREAMBLE, FAITHFUL])
    assert [a.outcome for a in attempts] == ["invalid", "valid"]
    error = attempts[0].error
    assert error == f"it says 'the brief', 'summary', but {META_WHY}"
    assert error in attempts[1].messages[-1].content  # the retry is told why
    assert action.text == FAITHFUL


def test_a_paraphrase_on_a_turn_where_nothing_happened_is_refused() -> None:
    game = _game()
    game.apply("t1:act", Text(text="I wait for a while"))
    game.apply("t1:classify", Choice(option="none"))
    brief = str(game.view("narrator").private.brief)  # type: ignore[union-attr]
    text = f"{PARAPHRASE} {NO_EFFECT}"
    problem = game.narration_problem(text)
    assert problem == f"it says 'the brief', 'the facts', 'summary', 'use just', but {META_WHY}"
    game.apply("t1:narrate", Text(text=text))
    shown = last_narration(game)
    assert shown.text == brief  # the brief, as it stands (the game's no-effect line)
    assert brief in NO_EFFECT_LINES
    assert shown.data["written"] == text


def test_imperatives_to_the_writer_count_only_at_a_sentence_start() -> None:
    ban = meta_ban("")
    assert ban.found("Describe the room again. You see the shutter.") == ["describe"]
    assert ban.found("The shutter rattles up - do not invent an exit.") == ["do not invent"]
    assert ban.found("Don't mention the door; the crank turns.") == ["don't mention"]
    assert ban.found("You must describe only the crank.") == ["you must describe"]
    # The same verbs inside a sentence are the story's own.
    assert ban.found("The lantern's beam seems to describe a slow circle.") == []
    assert ban.found("You use the key; the shutter rattles up.") == []


def test_words_the_scenario_itself_uses_are_allowed() -> None:
    # A scenario with a machine whose "output" is part of the story.
    story = "The old printer's output tray holds a single sheet stamped 417."
    assert meta_ban("").found(story) == ["output"]
    assert meta_ban(f"Intro. {story}").found(story) == []


def test_the_stored_batch_story_narrations_pass_and_its_meta_talk_is_refused() -> None:
    """Every narration the engine accepted in the stored escape batches, as read and
    sorted by hand (tests/escape/accepted_narrations.json): the story ones all keep rule
    5 even without any scenario words allowed; the ones about the prompt all break it."""
    ban = meta_ban("")
    assert len(BATCH["story"]) >= 20 and len(BATCH["meta"]) >= 20
    assert [t for t in BATCH["story"] if ban.found(t)] == []
    assert [t for t in BATCH["meta"] if not ban.found(t)] == []


def test_the_fallbacks_keep_rule_5() -> None:
    """What the engine shows instead (a consequence, a wrong answer's brief, the place on
    a look turn, the no-effect brief) never trips the rule with only the scenario's intro
    allowed: the text itself is not counted as context, so a banned phrase in it is found."""
    for name in SHIPPED:
        scenario = load_scenario(name)
        actions = {a.id: a for a in scenario.actions}
        allowed = meta_ban(scenario.intro)
        for action in scenario.actions:
            assert allowed.found(action.consequence) == [], action.consequence
            if action.answer is not None:
                wrong = brief_for(Outcome(kind="wrong_answer", action_id=action.id), actions)
                assert allowed.found(wrong) == [], wrong
        look = look_text(scenario.intro, scenario.world)
        assert allowed.found(look) == [], look
    assert meta_ban("").found(NO_EFFECT) == []
