"""The clock and the chat rules: typing time, texts of at most 160 characters (a turn may
send several), story-card marks, searches costing clock time, one searcher per place, a
person's message taking the next slot, no ending before the final card."""

from __future__ import annotations

import pytest

from parlour.core.actions import Choice, Text
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction
from parlour.games.missing import MissingGame
from parlour.games.missing.clock import mmss, typing_seconds
from tests.missing.helpers import full, scripted, small


def _secs(clock: str) -> int:
    minutes, seconds = clock.split(":")
    return int(minutes) * 60 + int(seconds)


def test_typing_time_formula() -> None:
    assert typing_seconds("") == 6.0
    assert typing_seconds("ok") == pytest.approx(6 + 2 / 3)
    assert typing_seconds("x" * 160) == pytest.approx(6 + 160 / 3)
    assert typing_seconds("x" * 30, base_seconds=0, chars_per_second=10) == 3.0
    assert mmss(5400) == "90:00" and mmss(61.2) == "01:02" and mmss(0) == "00:00"


def _to_the_message(game: MissingGame) -> Decision:
    """Every AI seat asks to speak; the referee's pick is asked for its message."""
    while not any(d.purpose == "message" for d in game.pending()):
        d = game.pending()[0]
        game.apply(d.id, Choice(option="speak3"))
    return next(d for d in game.pending() if d.purpose == "message")


def test_messages_cost_their_typing_time() -> None:
    game = scripted(small(), 5, until="chat")
    say = _to_the_message(game)
    before = game.seconds_left
    game.apply(say.id, Text(text="Anyone at the bus stop?"))
    assert before - game.seconds_left == pytest.approx(typing_seconds("Anyone at the bus stop?"))
    # Each text of a turn costs its own typing time.
    say = _to_the_message(game)
    before = game.seconds_left
    game.apply(say.id, Text(text="On my way.\nCall me."))
    spent = typing_seconds("On my way.") + typing_seconds("Call me.")
    assert before - game.seconds_left == pytest.approx(spent)


def test_a_search_costs_the_clock_its_search_cost() -> None:
    for cost, config in ((60.0, small()), (150.0, small(search_cost=150))):
        game = scripted(config, 4, until="chat")
        turn = next(d for d in game.pending() if d.purpose == "turn")
        before = game.seconds_left
        game.apply(turn.id, Choice(option="search:cinema"))
        assert before - game.seconds_left == pytest.approx(cost)
        assert game.state.town.search_cost == 60.0


def test_a_long_answer_goes_out_as_texts_of_at_most_160_characters() -> None:
    game = scripted(small(), 1, until="chat")
    say = _to_the_message(game)
    assert say.max_length == 3 * 160
    with pytest.raises(IllegalAction, match="at most 480"):
        game.apply(say.id, Text(text="x" * 481))
    words = " ".join(f"word{n}" for n in range(70))  # 419 characters, no sentence end
    start = len(game.events)
    game.apply(say.id, Text(text=words))
    texts = [e for e in game.events[start:] if e.kind == "message"]
    assert len(texts) == 3 and all(len(e.text) <= 160 for e in texts)
    assert " ".join(e.text for e in texts) == words  # cut between words, nothing lost
    assert [e.data["part"] for e in texts] == [1, 2, 3]


@pytest.mark.parametrize("seed", range(25))
def test_story_cards_fire_at_their_marks_within_one_message(seed: int) -> None:
    config = small() if seed % 2 else full()
    game = scripted(config, seed)
    cards = config.town.story_cards
    fired = [e for e in game.events if e.kind == "story_card"]
    assert len(fired) == len(cards)
    step = max(config.silence_seconds, config.town.search_cost)
    longest = typing_seconds("x" * config.message_limit) + step
    for event in fired:
        mark = cards[event.data["card"]].at * 60
        left = _secs(event.data["clock"])
        assert mark - longest - 1 <= left <= mark, (event.data, mark)
        # the addressee's next turn answers it (a card may fire between two texts of a turn)
        nxt = next(
            (
                e
                for e in game.events[event.seq :]
                if e.kind == "message" and e.speaker == event.to[0] and e.data.get("part", 1) == 1
            ),
            None,
        )
        if nxt is not None:
            assert nxt.data.get("answers_card") == event.data["card"]


@pytest.mark.parametrize("seed", range(25))
def test_nobody_finds_the_friend_before_the_final_card(seed: int) -> None:
    config = small() if seed % 2 else full(players=4)
    game = scripted(config, seed)
    final = next(e for e in game.events if e.kind == "story_card" and e.data["final"])
    endings = [e for e in game.events if e.kind == "ending"]
    assert len(endings) == 1 and endings[0].seq > final.seq
    assert _secs(endings[0].data["clock"]) <= config.town.final_card.at * 60
    assert all(
        config.town.friend.name not in e.text for e in game.events[: final.seq] if e.kind == "found"
    )


def test_only_one_player_at_a_place_and_the_refusal_names_who_is_there() -> None:
    game = scripted(small(people=["p3"]), 2, until="chat")
    first = next(d for d in game.pending() if d.seat == "p1")
    game.apply(first.id, Choice(option="search:cinema"))
    who = game.view("p1").seat_name
    second = next(d for d in game.pending() if d.seat == "p2")
    assert "search:cinema" not in second.option_ids
    with pytest.raises(IllegalAction, match=f"{who} is at the cinema"):
        second.check(Choice(option="search:cinema"))
    person = next(d for d in game.pending() if d.seat == "p3")
    game.apply(person.id, Text(text="/search cinema"))
    reply = game.events[-1]
    assert reply.kind == "reply" and reply.to == ("p3",) and f"{who} is at the cinema" in reply.text
    found = [e for e in game.events if e.kind == "found"]
    assert found and all(e.to == ("p1",) for e in found)


def test_a_persons_message_takes_the_next_slot_and_withdraws_the_round() -> None:
    game = scripted(small(people=["p1"]), 3, until="chat")
    before = {d.id for d in game.pending()}
    person = next(d for d in game.pending() if d.seat == "p1")
    assert person.batch == "as_arrived" and person.deadline is not None
    game.apply(person.id, Text(text="/time"))
    assert game.events[-1].text.endswith("left on the clock.")
    person = next(d for d in game.pending() if d.seat == "p1")
    game.apply(person.id, Text(text="Has anyone checked the bus stop?"))
    assert game.events[-1].kind == "message" and game.events[-1].speaker == "p1"
    after = {d.id for d in game.pending()}
    assert not (before & after)  # the AI seats' open questions were withdrawn


def test_the_referee_caps_messages_in_a_row() -> None:
    game = scripted(full(max_in_a_row=2), 11)
    speakers = [
        e.speaker for e in game.events if e.kind == "message" and e.data.get("part", 1) == 1
    ]
    assert all(
        not (a == b == c) for a, b, c in zip(speakers, speakers[1:], speakers[2:], strict=False)
    )
    assert isinstance(game, MissingGame)
