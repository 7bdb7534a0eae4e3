"""Part-2 rules: a person picks a card at the table, calls whose answer the engine knows
are not made, the clock reminder cannot be texted, and scripted answers answer."""

from __future__ import annotations

from parlour.core.actions import Choice, Text
from parlour.core.rng import Rng, hash_seed
from parlour.games.missing import MODULE, asks
from parlour.games.missing.game import MissingGame
from parlour.games.missing.prompts import MissingPrompter
from parlour.seats.text_guard import copied_instructions
from tests.missing.helpers import full, scripted, small


def _play(game: MissingGame, seed: int) -> None:
    while not game.is_terminal():
        decision = game.pending()[0]
        rng = Rng(hash_seed(seed, decision.id))
        game.apply(decision.id, MODULE.policy(game.view(decision.seat), decision, rng))


def test_a_person_without_a_card_picks_one_of_the_free_cards() -> None:
    game = MissingGame(full(5, people=["p2"]), 4)
    pick = next(d for d in game.pending() if d.seat == "p2")
    assert pick.purpose == "pick"
    held = {game.view(s).private.name for s in ("p1", "p3", "p4", "p5")}
    town = game.config.town
    offered = [town.character(o).name for o in pick.option_ids]
    assert offered[0] == game.view("p2").private.name  # the dealt card comes first
    assert len(offered) == 1 + len(town.characters) - 5 and not held & set(offered)
    assert not any(d.seat == "p2" and d.purpose != "pick" for d in game.pending())
    chosen = pick.option_ids[-1]
    game.apply(pick.id, Choice(option=chosen))
    card = town.character(chosen)
    assert game.view("p2").private.name == card.name
    assert game.view("p2").private.drive in card.drives
    assert game.events[-1].kind == "card" and game.events[-1].to == ("p2",)
    assert card.name in game.events[-1].text
    asked = next(d for d in game.pending() if d.seat == "p2" and d.purpose == "background")
    assert card.worldbuilding in asked.prompt
    _play(game, 4)
    rel = [e for e in game.events if e.kind == "relationship"]
    first = card.name.split()[0]
    # Whoever answers a prompt about p2 is asked about the picked character, by name.
    about_p2 = [e for e in rel if e.data["about"] == "p2"]
    assert about_p2 and first in about_p2[0].data["prompt"]


def test_no_pick_when_cards_are_set_or_there_is_nothing_to_choose() -> None:
    named = MissingGame(full(5, people=["p1"], cards="ines,bram,caspar,hollis,maud"), 1)
    assert all(d.purpose != "pick" for d in named.pending())
    three = MissingGame(small(people=["p1"]), 1)  # three cards for three players
    assert all(d.purpose != "pick" for d in three.pending())


def test_a_seat_with_a_story_card_is_not_asked_whether_to_speak() -> None:
    game = scripted(small(), 5, until="chat")
    while not game.is_terminal() and game.view("p1").phase == "chat":
        holders = [s for s in ("p1", "p2", "p3") if game.view(s).private.card is not None]
        for decision in game.pending():
            if decision.purpose == "turn":
                assert decision.seat not in holders
        decision = game.pending()[0]
        rng = Rng(hash_seed(5, decision.id))
        game.apply(decision.id, MODULE.policy(game.view(decision.seat), decision, rng))
    cards = [e for e in game.events if e.kind == "story_card"]
    answers = [e for e in game.events if e.kind == "message" and "answers_card" in e.data]
    assert len(cards) == len(answers) == len(game.config.town.story_cards)


def test_the_clock_reminder_cannot_be_texted() -> None:
    game = scripted(small(), 2, until="chat")
    seat = "p1"
    decision = asks.say("x", seat, 160, (), "Your turn.")
    parts = MissingPrompter().parts(game.view(seat), decision)
    clock_line = parts.reminders.splitlines()[-1]
    assert clock_line.endswith("left on the clock.")
    assert copied_instructions(clock_line, [parts.reminders]) is not None
    assert decision.text_rules is not None
    assert decision.text_rules.problems("Only 12:00 left on the clock, hurry")
    card = asks.say("y", seat, 160, ("till",), "Your turn.")
    assert card.text_rules is not None and card.text_rules.problems("till. 9:00 left on the clock")
    assert not card.text_rules.problems("Hale counted the till twice and swore at it.")


def test_scripted_second_person_answers_answer_instead_of_restating() -> None:
    for seed in range(6):
        game = MissingGame(small(), seed)
        purposes: set[str] = set()
        while game.view("p1").phase == "characters":
            decision = game.pending()[0]
            purposes.add(decision.purpose)
            view = game.view(decision.seat)
            action = MODULE.policy(view, decision, Rng(hash_seed(seed, decision.id)))
            assert isinstance(action, Text) and action.text.startswith("You ")
            question = (
                view.private.worldbuilding
                if decision.purpose == "background"
                else (view.private.secret_question)
            )
            assert question.rstrip("?") not in action.text and "?" not in action.text
            assert len(action.text) <= decision.max_length
            again = MODULE.policy(view, decision, Rng(hash_seed(seed, decision.id)))
            assert again == action  # deterministic by seed
            game.apply(decision.id, action)
        assert purposes == {"background", "secret"}
