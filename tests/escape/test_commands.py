"""Commands a player can always use (/help, /hint, /look, /done) and "look around"."""

from __future__ import annotations

from itertools import pairwise

import pytest

from parlour.core.actions import Choice, Text
from parlour.core.rng import Rng
from parlour.evals.talk_quality import tokens
from parlour.games.escape import EscapeGame
from parlour.games.escape.commands import LOOK_BRIEF, MAX_PER_TURN, is_looking, parse
from parlour.games.escape.keyword_classifier import classify
from parlour.games.escape.policies import keyword_classifier, template_narrator
from parlour.games.escape.resolve import NO_EFFECT, NO_EFFECT_LINES

from .helpers import config, last_narration


def _game(**options: object) -> EscapeGame:
    return EscapeGame.new(config("ghost_room", **options), 1)


def _say(game: EscapeGame, text: str) -> list[str]:
    """Type ``text``; if it was played as an action, classify and narrate it with the
    scripted seats. Returns the texts of the events it caused."""
    decision = game.pending()[0]
    assert decision.purpose == "act"
    out = [e.text for e in game.apply(decision.id, Text(text=text))]
    while game.pending() and game.pending()[0].purpose != "act":
        d = game.pending()[0]
        seat = keyword_classifier if d.purpose == "classify" else template_narrator
        action = seat(game.view(d.seat), d, Rng(0))
        out += [e.text for e in game.apply(d.id, action)]
    return out


@pytest.mark.parametrize(
    ("typed", "command"),
    [
        ("/help", "help"),
        ("help", "help"),
        ("?", "help"),
        ("/hint", "hint"),
        ("Hint.", "hint"),
        ("/look", "look"),
        ("look around the room", "look"),
        ("I look around", "look"),
        ("/inventory", "done"),
        ("/done", "done"),
        ("open the drawer", None),
        ("look at the painting", None),
        ("help the ghost", None),
    ],
)
def test_commands_are_recognised(typed: str, command: str | None) -> None:
    assert parse(typed) == command


def test_help_look_and_done_cost_no_turn_and_answer_from_the_scenario() -> None:
    game = _game()
    scenario = game.scenario
    help_reply = _say(game, "/help")[-1]
    assert "/look" in help_reply and "/hint" in help_reply and "Turn 1 of" in help_reply
    look = _say(game, "look around the room")[-1]
    assert look.startswith(scenario.intro) and scenario.world[0] in look
    assert "Nothing has changed yet" in _say(game, "/done")[-1]
    assert game.pending()[0].id == "t1:act4"  # still turn 1, asked again under a new id
    assert not any(e.kind == "outcome" for e in game.events)  # nothing was classified
    _say(game, "open the drawer")
    done = _say(game, "/inventory")[-1]
    drawer = next(a for a in scenario.actions if a.id == "open_drawer")
    assert done == f"So far:\n- {drawer.consequence}"
    assert game.pending()[0].id == "t2:act2"


def test_hints_come_from_the_scenario_and_are_counted_in_the_result() -> None:
    game = _game(max_turns=2)
    hinted = {a.hint for a in game.scenario.actions if a.hint}
    first = _say(game, "/hint")[-1]
    assert first.startswith("Hint 1: ") and first.removeprefix("Hint 1: ") in hinted
    # Asked again with no progress: the same hint, said to be the same, not counted again.
    again = _say(game, "hint")[-1]
    assert again == first.replace("Hint 1: ", "Hint 1 still stands (not counted again): ")
    _say(game, "look at the painting above the fireplace")  # progress: a new hint is next
    second = _say(game, "/hint")[-1]
    assert second.startswith("Hint 2: ") and second.removeprefix("Hint 2: ") in hinted
    assert second.removeprefix("Hint 2: ") != first.removeprefix("Hint 1: ")
    _say(game, "sing a song")
    result = game.result()
    assert result is not None and result.summary.endswith("; 2 hints used")


def test_commands_per_turn_are_bounded_so_every_game_ends() -> None:
    game = _game(max_turns=1)
    for _ in range(MAX_PER_TURN):
        _say(game, "/help")
    _say(game, "/help")  # one too many: played as an action (and it has no effect)
    assert game.is_terminal()
    outcome = [e for e in game.events if e.kind == "outcome"]
    assert len(outcome) == 1 and outcome[0].data["kind"] == "no_effect"


def test_looking_around_in_a_sentence_is_narrated_as_looking_not_as_no_effect() -> None:
    game = _game()
    _say(game, "I look around the room for a way out")
    narration = last_narration(game)
    assert NO_EFFECT not in narration.text
    # The look brief is an instruction to the narrator ("Describe the place again"); the
    # game tells the place the player is in instead (its description, or without one the
    # intro), and accepts it as written.
    assert LOOK_BRIEF not in narration.text
    place = game.scenario.places[0].description if game.scenario.places else None
    assert narration.text.startswith((place or game.scenario.intro)[:40])
    assert "replaced" not in narration.data


def test_a_game_with_commands_replays_from_its_actions() -> None:
    typed = ["/help", "open the drawer", "/hint", "look around", "/done", "read the note"]
    game = _game()
    for text in typed:
        _say(game, text)
    actions = [(e.data["turn"], e.text) for e in game.events if e.kind in ("command", "message")]
    assert [t for _, t in actions] == typed
    replay = _game()
    for text in typed:
        _say(replay, text)
    assert [e.model_dump() for e in replay.events] == [e.model_dump() for e in game.events]
    assert replay.snapshot() == game.snapshot()


@pytest.mark.parametrize(
    "message", ["look around the room", "Look around.", "I look about the place"]
)
def test_the_keyword_classifier_treats_looking_around_as_none(message: str) -> None:
    options = [("search_room", "search the room for anything useful"), ("none", "none")]
    assert is_looking(message)
    assert classify(message, options) == "none"
    assert classify("search the room", options) == "search_room"


def test_classifier_options_are_unchanged_by_commands() -> None:
    game = _game()
    _say(game, "/look")
    decision = game.pending()[0]
    game.apply(decision.id, Text(text="open the drawer"))
    classify_decision = game.pending()[0]
    assert classify_decision.purpose == "classify"
    assert "open_drawer" in classify_decision.option_ids
    game.apply(classify_decision.id, Choice(option="open_drawer"))


def test_nothing_happening_is_told_in_words_that_vary_and_never_twice_running() -> None:
    game = _game(hint_after=0)
    said = [_say(game, text)[-1] for text in ("sing", "dance", "wait", "hum", "sit", "nap")]
    assert all(line.startswith(NO_EFFECT_LINES) for line in said), said
    assert all(a != b for a, b in pairwise(said)), said
    assert len(set(said)) >= 2
    # three words at most: told again and again, no such line repeats a 4-gram
    assert all(len(tokens(line)) <= 3 for line in NO_EFFECT_LINES)
