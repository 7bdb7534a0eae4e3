"""The narrator's wording varies: hints told again as pointers, wrong answers told again
in short lines, and no sentence told more than twice a game (``wording.py``)."""

from __future__ import annotations

from collections import Counter

from parlour.core.actions import Text
from parlour.core.rng import Rng
from parlour.evals.talk_quality import repeated_in_game
from parlour.games.escape import EscapeGame, load_scenario, wording
from parlour.games.escape.policies import escape_policy
from parlour.games.escape.resolve import WRONG_LINES
from parlour.games.escape.validate import validate

from .helpers import config, scenario_from


def _play(game: EscapeGame, messages: list[str]) -> list[str]:
    """Type each message; the scripted seats classify and narrate. The narrations."""
    lines = [e.text for e in game.events if e.kind == "narration"]
    for text in messages:
        events = list(game.apply(game.pending()[0].id, Text(text=text)))
        while game.pending() and game.pending()[0].purpose != "act":
            d = game.pending()[0]
            events += game.apply(d.id, escape_policy(game.view(d.seat), d, Rng(0)))
        assert not any(e.data.get("replaced") for e in events if e.kind == "narration")
        lines += [e.text for e in events if e.kind == "narration"]
    return lines


def test_a_hint_names_its_thing_by_the_first_name_it_says() -> None:
    room = load_scenario("ghost_room")
    things = (*room.objects, *room.places)
    pale = "The pale figure by the window seems to want something from you."
    assert wording.hint_thing(pale, things) == "figure"
    assert wording.hint_thing("The small iron key must fit something.", things) == "iron key"
    assert wording.hint_thing("Nothing here is named.", things) is None
    assert wording.pointers("Nothing here is named.", things) == []


def test_a_wrong_answer_tried_again_is_told_in_a_short_line() -> None:
    game = EscapeGame.new(config("ghost_room", hint_after=0), 1)
    _play(game, ["I speak to the ghost"])
    lines = _play(game, ["I call the ghost Mary"] * 4)[-4:]
    assert lines[0].startswith("You try to call the ghost by her name.")
    assert all(line in WRONG_LINES for line in lines[1:]), lines
    assert len(set(lines[1:])) == 3


def test_a_stuck_player_reads_few_repeats_and_no_sentence_more_than_twice() -> None:
    game = EscapeGame.new(config("ghost_room", hint_after=2, max_turns=40), 1)
    typed = ["I wait", "I sing", "set the dial to 1111", "I call her Mary", "I dance"] * 8
    lines = _play(game, typed)
    told = Counter(s for line in lines for s in wording.sentences(line))
    assert max(told.values()) <= wording.MOST, told.most_common(3)
    repeats = sum(r is not None for r in repeated_in_game(lines))
    assert repeats / len(lines) < 0.1, [
        (line, r) for line, r in zip(lines, repeated_in_game(lines), strict=True) if r
    ]


def test_a_scenario_may_word_a_hint_told_again_itself() -> None:
    room = load_scenario("ghost_room")
    again = "Marguerite's face is on the wall, if you know where to look."
    actions = tuple(
        a.model_copy(update={"hint_again": again}) if a.id == "examine_painting" else a
        for a in room.actions
    )
    assert not validate(room.model_copy(update={"actions": actions}), warnings=False)
    game = EscapeGame(
        config("ghost_room", hint_after=1).model_copy(
            update={"scenario": room.model_copy(update={"actions": actions})}
        ),
        1,
    )
    lines = _play(game, ["I wait", "I sing"])
    assert lines[1].endswith(f"(Perhaps: {room.action('examine_painting').hint})")
    assert lines[2].endswith(f"(Perhaps: {again})")


def test_the_hint_again_field_loads_from_a_scenario_file() -> None:
    room = scenario_from(
        """
        title: Box
        intro: A box.
        actions:
          - id: open_box
            description: open the box
            consequence: It opens. You are out.
            hint: The box has a lid.
            hint_again: Lids lift.
            ends_game: true
            good: true
        """
    )
    assert room.action("open_box").hint_again == "Lids lift."
