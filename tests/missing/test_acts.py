"""Act seats (``act_seats``): every free-text question becomes a choice among lines the
game words from the seat's own view; the chosen line is what the table reads, and the
talk measure sees it as the game's words, not the model's."""

from __future__ import annotations

import pytest

from parlour.core.actions import Choice, Text
from parlour.core.decisions import DecisionKind
from parlour.core.errors import ParlourError
from parlour.core.rng import Rng, hash_seed
from parlour.games.missing import MODULE, MissingGame
from parlour.games.missing.asks import MissingAsk
from parlour.games.missing.talk_lines import talk_lines
from tests.missing.helpers import full, scripted


def test_an_act_seat_is_asked_choices_whose_lines_it_then_says() -> None:
    config = full(4, act_seats=("p1", "p2"))
    game = MissingGame(config, 3)
    said: dict[str, list[str]] = {"p1": [], "p2": []}
    chosen = 0
    while not game.is_terminal():
        decision = game.pending()[0]
        ask = MissingAsk.of(decision)
        act_seat = decision.seat in config.act_seats and not ask.standing
        if act_seat and decision.purpose != "turn" and decision.purpose != "pick":
            assert decision.kind is DecisionKind.CHOOSE_ONE, decision.id
            assert len(ask.lines) == len(decision.options) >= 1
            assert all(o.label for o in decision.options)
            pick = decision.options[chosen % len(decision.options)]
            chosen += 1
            events = game.apply(decision.id, Choice(option=pick.id))
            line = ask.lines[decision.options.index(pick)]
            if decision.purpose not in ("background", "secret"):
                spoken = [e for e in events if e.speaker == decision.seat and e.text]
                assert spoken and " ".join(e.text for e in spoken) == line
                assert all(e.data.get("act") == decision.id for e in spoken)
                said[decision.seat].append(line)
            continue
        if decision.seat in config.act_seats:
            assert decision.kind is not DecisionKind.FREE_TEXT, decision.id
        rng = Rng(hash_seed(3, decision.id))
        game.apply(decision.id, MODULE.policy(game.view(decision.seat), decision, rng))
    assert all(len(lines) >= 5 for lines in said.values()), said
    # Every line an act seat wrote is marked as the game's words; the others' are not.
    lines = talk_lines(game.events)
    assert {line.seat for line in lines if line.rendered_from} == {"p1", "p2"}
    assert all(line.rendered_from for line in lines if line.seat in ("p1", "p2"))


def test_a_seat_that_is_not_an_act_seat_still_writes_its_own_words() -> None:
    game = MissingGame(full(3, act_seats=("p2",)), 1)
    first = game.pending()
    by_seat = {d.seat: d for d in first}
    assert by_seat["p1"].kind is DecisionKind.FREE_TEXT
    assert by_seat["p2"].kind is DecisionKind.CHOOSE_ONE
    assert by_seat["p2"].prompt.endswith("Choose your answer.")
    # A free text answer is refused where a choice is asked.
    with pytest.raises(ParlourError):
        game.apply(by_seat["p2"].id, Text(text="You were there."))


def test_the_fallback_takes_the_fittest_act_and_setup_lines_differ_by_seat() -> None:
    game = scripted(full(4, act_seats=("p1", "p2", "p3", "p4")), 5)
    intros = [e.text for e in game.events if e.kind == "introduction"]
    relations = [e.text.split(",", 1)[-1] for e in game.events if e.kind == "relationship"]
    assert len(intros) == 4 and len(relations) == 4
    # Four seats, three wordings each: the seeds' orders do not give every seat the same.
    assert len(set(relations)) > 1
    assert game.result() is not None


def test_engine_turns_are_never_asked_and_replay_alike() -> None:
    config = full(4, act_seats=("p1", "p2", "p3", "p4"), engine_turns=("p1", "p2", "p3"))
    first = MissingGame(config, 9)
    asked: list[str] = []
    actions = []
    while not first.is_terminal():
        decision = first.pending()[0]
        asked.append(decision.id)
        assert not (decision.purpose == "turn" and decision.seat in config.engine_turns)
        action = MODULE.policy(first.view(decision.seat), decision, Rng(hash_seed(9, decision.id)))
        actions.append((decision.id, action))
        first.apply(decision.id, action)
    assert first.result() is not None
    assert any(d.startswith("r") and d.endswith(":p4") for d in asked)  # p4 still chooses
    # The same answers replay to the same game: the engine's choices are seeded.
    again = MissingGame(config, 9)
    for decision_id, action in actions:
        again.apply(decision_id, action)
    assert [e.text for e in again.events] == [e.text for e in first.events]
    # The engine's choices search too, not only speak.
    assert {e.data.get("seat") for e in first.events if e.kind == "search"} & {"p1", "p2", "p3"}


def test_act_seats_must_be_seats_of_the_game() -> None:
    with pytest.raises(ParlourError, match="act_seats must be seat ids among p1, p2, p3"):
        MODULE.make_config(3, {"act_seats": "p1,p9"})
    with pytest.raises(ParlourError, match="a person's seat speaks for itself"):
        MODULE.make_config(3, {"engine_turns": "p1", "people": ("p1",)})
