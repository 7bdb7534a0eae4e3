"""``discussion: ask_all``: every living player but the last speaker is asked each turn,
one answer is posted (first non-empty: NEEDS TURN first, then seat order after the last
speaker), the rest are kept as engine-only ``unsaid`` events."""

from __future__ import annotations

import pytest

from parlour.core import Text, conformance
from parlour.games.werewolf import MODULE, WerewolfConfig, WerewolfGame
from parlour.games.werewolf.ask import SpeakAsk
from tests.support.conformance import conforms

from .helpers import events_of, new_game, pending, scripted

TALK = {"first_phase": "day", "messages_per_player": 2, "diaries": False, "discussion": "ask_all"}


def _game(seed: int = 1, **extra: object) -> WerewolfGame:
    return new_game(seed, players=6, **{**TALK, **extra})


def _answer(game: WerewolfGame, texts: dict[str, str], order: list[str] | None = None) -> None:
    """Answer every open speak decision (missing seats pass), in ``order`` if given."""
    open_ = {d.seat: d for d in pending(game, "speak")}
    assert open_, "no speak decision is open"
    for seat in order or sorted(open_):
        game.apply(open_[seat].id, Text(text=texts.get(seat, "")))


def test_everyone_but_the_last_speaker_is_asked_at_once() -> None:
    game = _game()
    speak = pending(game, "speak")
    assert [d.id for d in speak] == [f"d1:speak:p{i}:1" for i in range(1, 7)]
    assert not pending(game, "route")  # no router in this mode
    d = speak[0]
    assert d.kind == "free_text" and d.allow_empty and d.max_length == 400
    assert "only one message is posted" in d.prompt and "turn 1 of 12" in d.prompt
    assert [SpeakAsk.of(x).needs_turn for x in speak] == [True] * 3 + [False] * 3
    _answer(game, {"p2": "Hello all."})
    assert [e.speaker for e in events_of(game, "speech")] == ["p2"]
    # p2 spoke last: the next turn asks everyone else
    assert [d.seat for d in pending(game, "speak")] == ["p1", "p3", "p4", "p5", "p6"]
    assert {d.id.rsplit(":", 1)[1] for d in pending(game, "speak")} == {"2"}


def test_posting_rule_needs_turn_first_then_seat_order_after_the_last_speaker() -> None:
    game = _game()
    _answer(game, {"p2": "I start."})  # turn 1: p1 passed, so p2 is the first non-empty
    # turn 2: candidates p1 p3 p4 p5 p6; NEEDS TURN (fewest turns, then seat): p1 p3 p4;
    # seat order after p2 is p3 p4 p5 p6 p1, so the priority is p3 p4 p1, then p5 p6.
    assert game.state.discussion is not None
    assert game.state.discussion.asked == ["p3", "p4", "p1", "p5", "p6"]
    _answer(game, {"p1": "Kenji here.", "p5": "Tomas here.", "p6": "Priya here."})
    speeches = events_of(game, "speech")
    assert [(e.speaker, e.text) for e in speeches] == [("p2", "I start."), ("p1", "Kenji here.")]
    unsaid = events_of(game, "unsaid")
    assert [(e.speaker, e.text) for e in unsaid] == [("p5", "Tomas here."), ("p6", "Priya here.")]
    assert all(e.audience.kind == "nobody" for e in unsaid)
    floor = events_of(game, "floor")[-1]
    assert floor.audience.kind == "nobody"
    assert floor.data == {
        "asked": ["p3", "p4", "p1", "p5", "p6"],
        "needs_turn": ["p1", "p3", "p4"],  # least active first (here: seat order)
        "posted": "p1",
    }


def test_the_log_does_not_depend_on_the_order_answers_arrive() -> None:
    texts = {"p1": "a", "p3": "b", "p6": "c"}
    logs = []
    for order in (["p1", "p2", "p3", "p4", "p5", "p6"], ["p6", "p4", "p3", "p5", "p1", "p2"]):
        game = _game()
        _answer(game, texts, order)
        logs.append([e.model_dump_json() for e in game.events])
    assert logs[0] == logs[1]


def test_unsaid_answers_reach_no_view() -> None:
    game = _game()
    _answer(game, {"p1": "posted words", "p4": "secret unsaid words"})
    for seat in game.seats():
        text = game.view(seat.id).model_dump_json()
        assert "posted words" in text and "secret unsaid words" not in text


def test_all_empty_is_a_pass_turn_that_spends_the_budget() -> None:
    game = _game()
    _answer(game, {})
    silence = events_of(game, "pass")[-1]
    assert silence.text == "Nobody speaks." and silence.audience.kind == "all"
    disc = game.state.discussion
    assert disc is not None and disc.total_turns == 1 and disc.last_speaker == ""
    assert not events_of(game, "speech")
    # nobody spoke last, so everyone is asked again
    assert len(pending(game, "speak")) == 6
    for _ in range(11):
        _answer(game, {})
    assert pending(game, "vote")  # 2 × 6 turns taken


def test_budget_is_messages_per_player_times_living() -> None:
    game = _game(messages_per_player=1)
    turns = 0
    while pending(game, "speak"):
        seat = pending(game, "speak")[0].seat
        _answer(game, {seat: f"turn {turns}"})
        turns += 1
    assert turns == 6 and pending(game, "vote")
    assert len(events_of(game, "speech")) == 6
    assert not events_of(game, "route")


def test_a_posted_slash_vote_calls_the_vote_and_an_unposted_one_is_unsaid() -> None:
    game = _game(vote_mode="simultaneous")
    _answer(game, {"p1": "I go first.", "p2": "/vote"})
    assert not events_of(game, "call_vote")
    assert events_of(game, "unsaid")[-1].text == "/vote"
    _answer(game, {"p3": "/VOTE"})  # p3: NEEDS TURN and first after p1
    assert events_of(game, "call_vote")[-1].text == "Hiroshi calls the vote."
    assert {d.purpose for d in game.pending()} == {"vote"}


def test_open_mic_is_not_needed_when_everyone_is_asked() -> None:
    game = _game(open_mic=("p1",))
    assert not pending(game, "interject")
    assert "p1" in {d.seat for d in pending(game, "speak")}


def test_routed_is_the_default() -> None:
    assert WerewolfConfig().discussion == "routed"
    assert [d.purpose for d in _game(discussion="routed").pending()] == ["route"]
    with pytest.raises(ValueError, match="discussion"):
        WerewolfConfig(discussion="everyone")  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(12))
def test_scripted_games_finish(seed: int) -> None:
    game = scripted(
        WerewolfGame.new(WerewolfConfig(players=5 + seed, discussion="ask_all"), seed), seed
    )
    assert game.result() is not None
    assert events_of(game, "speech") and not events_of(game, "route")


# -- the conformance suite, ask_all configs ---------------------------------------------------


def ask_all(seed: int) -> WerewolfConfig:
    return WerewolfConfig(
        players=5 + seed % 6,
        discussion="ask_all",
        maniac=seed % 3 == 0,
        first_phase="day" if seed % 2 else "night",
        vote_mode="sequential" if seed % 2 else "simultaneous",
        messages_per_player=1 + seed % 2,
        wolf_chat_messages=seed % 2,
        needs_turn_count=1 + seed % 3,
        allow_vote_call=seed % 3 != 1,
        diaries=seed % 2 == 0,
    )


@pytest.mark.slow  # conformance sweep: 40 games, 10 replays, 6 leak scans
def test_conformance() -> None:
    small = lambda seed: ask_all(seed).model_copy(update={"players": 5 + seed % 2})  # noqa: E731
    conforms(MODULE, ask_all, games=40, replays=10, leaks=6)
    # Decisions are probed on smaller tables (each probe copies the game).
    report = conformance.check(
        MODULE, configs=small, seeds=(), replay_seeds=(), leak_seeds=(), decision_seeds=range(3)
    )
    assert report.answers_tried > 0
