"""Day rules: routed discussion, the vote (both modes, both tie rules), diaries, debrief."""

from __future__ import annotations

import pytest

from parlour.core import Audience, Choice, Choices, IllegalAction, Text
from parlour.games.werewolf import Role, WerewolfGame
from parlour.games.werewolf.ask import RouteAsk, VoteAsk
from parlour.games.werewolf.views import SpeakingFacts

from .helpers import QUIET, decision, events_of, name, new_game, night, pending, scripted, vote_all

TALK = {"first_phase": "day", "messages_per_player": 2, "diaries": False}


def _talk(seed: int = 1, **extra: object) -> WerewolfGame:
    return new_game(seed, players=6, **{**TALK, **extra})


def _speak(game: WerewolfGame, text: str = "") -> str:
    (d,) = pending(game, "speak")
    game.apply(d.id, Text(text=text))
    return d.seat


def _kill_a_villager(game: WerewolfGame) -> str:
    villager = next(p.id for p in game.state.players if p.role is Role.VILLAGER)
    doctor = next(p.id for p in game.state.players if p.role is Role.DOCTOR)
    night(game, kill=villager, protect=doctor)
    return villager


# -- router --------------------------------------------------------------------------------


def test_router_decision_shape() -> None:
    game = _talk()
    (d,) = game.pending()
    assert d.id == "d1:route:1" and d.seat == "router" and d.purpose == "route"
    assert d.kind == "choose_many" and d.min_choices == 1 and d.max_choices == 3
    assert d.option_ids == ("p1", "p2", "p3", "p4", "p5", "p6")
    # the three least active (all silent: seat order) are flagged, in the label too
    ask = RouteAsk.of(d)
    assert ask.needs_turn == ["Kenji", "Aiko", "Hiroshi"]
    assert d.label_of("p1") == "Kenji (NEEDS TURN)" and d.label_of("p4") == "Maya"
    assert [r.needs_turn for r in ask.players] == [True] * 3 + [False] * 3
    assert {r.messages_today for r in ask.players} == {0}
    assert ask.last_speaker == "" and ask.turns_left == 12
    router = next(s for s in game.seats() if s.id == "router")
    assert router.system


def test_router_batch_must_include_a_needs_turn_player() -> None:
    game = _talk()
    before = len(game.events)
    (route,) = game.pending()
    assert route.required_any == ("p1", "p2", "p3")
    with pytest.raises(
        IllegalAction,
        match=r"include at least one of: Kenji \(NEEDS TURN\), Aiko \(NEEDS TURN\), Hiroshi",
    ):
        game.apply("d1:route:1", Choices(options=("p5", "p6")))
    assert len(game.events) == before and game.pending()[0].id == "d1:route:1"
    game.apply("d1:route:1", Choices(options=("p5", "p1")))
    assert [d.seat for d in game.pending()] == ["p5"]
    _speak(game, "hello")
    assert [d.seat for d in game.pending()] == ["p1"]


def test_router_repair_mode_puts_the_quietest_player_first() -> None:
    game = _talk(router_rule="repair")
    game.apply("d1:route:1", Choices(options=("p5", "p6", "p4")))
    route = events_of(game, "route")[-1]
    assert route.audience.kind == "nobody"
    assert route.data == {
        "batch": ["p1", "p5", "p6"],
        "repaired": True,
        "needs_turn": ["p1", "p2", "p3"],
    }
    assert [d.seat for d in game.pending()] == ["p1"]


def test_no_one_speaks_twice_in_a_row() -> None:
    game = _talk()
    game.apply("d1:route:1", Choices(options=("p1",)))
    _speak(game, "Maya, are you a wolf?")
    (d,) = game.pending()
    assert d.id == "d1:route:2" and "p1" not in d.option_ids
    assert RouteAsk.of(d).last_speaker == "Kenji"
    with pytest.raises(IllegalAction, match="Kenji spoke last; no one speaks twice in a row"):
        game.apply(d.id, Choices(options=("p1", "p2")))
    # the router sees who was addressed, and p1 is no longer among the least active
    assert RouteAsk.of(d).addressed_in_last_message == ["Maya"]
    rows = {r.id: r for r in RouteAsk.of(d).players}
    assert rows["p4"].addressed and not rows["p2"].addressed
    assert RouteAsk.of(d).needs_turn == ["Aiko", "Hiroshi", "Maya"]


def test_only_living_players_speak() -> None:
    game = new_game(4, players=7, messages_per_player=1, wolf_chat_messages=0, diaries=False)
    _kill_a_villager(game)
    dead = [p for p in game.state.players if not p.alive]
    assert len(dead) == 1
    (route,) = game.pending()
    assert route.purpose == "route"
    assert not {p.id for p in dead} & set(route.option_ids)
    with pytest.raises(IllegalAction, match=f"{dead[0].name} is dead and cannot speak"):
        game.apply(route.id, Choices(options=(dead[0].id,)))
    # speak decisions go only to the living, and the vote ends the talk
    while pending(game, "route") or pending(game, "speak"):
        d = game.pending()[0]
        if d.purpose == "route":
            needs = [p for p in d.option_ids if "NEEDS TURN" in d.label_of(p)]
            game.apply(d.id, Choices(options=(needs[0],)))
        else:
            assert game.state.player(d.seat).alive
            game.apply(d.id, Text(text=""))
    assert pending(game, "vote")


def test_speech_pass_and_budget() -> None:
    game = _talk(messages_per_player=1)
    game.apply("d1:route:1", Choices(options=("p1", "p2", "p3")))
    d = decision(game, "d1:speak:p1:1")
    assert d.max_length == 400 and d.allow_empty and d.purpose == "speak"
    game.apply(d.id, Text(text="  I suspect Aiko.  "))
    game.apply("d1:speak:p2:2", Text(text=""))
    speech, silence = events_of(game, "speech")[-1], events_of(game, "pass")[-1]
    assert (
        speech.speaker == "p1"
        and speech.text == "I suspect Aiko."
        and speech.audience.kind == "all"
    )
    assert silence.text == "Aiko says nothing."
    game.apply("d1:speak:p3:3", Text(text="hm"))
    stats = game.view("p4").public.speaking_today or {}
    assert stats["Kenji"] == SpeakingFacts(messages=1, passes=0)
    assert stats["Aiko"] == SpeakingFacts(messages=0, passes=1)
    # budget: 1 × 6 living players = 6 turns; 3 left, so the router may pick at most 3
    (route,) = game.pending()
    assert route.max_choices == 3 and RouteAsk.of(route).turns_left == 3
    game.apply(route.id, Choices(options=("p4", "p5", "p6")))
    for _ in range(3):
        _speak(game, "")
    assert pending(game, "vote")


def test_slash_vote_calls_the_vote_at_once() -> None:
    game = _talk(vote_mode="simultaneous")
    game.apply("d1:route:1", Choices(options=("p2", "p3")))
    _speak(game, "/VOTE ")
    call = events_of(game, "call_vote")[-1]
    assert call.text == "Aiko calls the vote." and call.audience.kind == "all"
    assert {d.purpose for d in game.pending()} == {"vote"}
    vote_all(game, "p6")
    assert game.view("p1").public.days[0].called_by == "Aiko"


def test_slash_vote_is_plain_speech_when_disabled() -> None:
    game = _talk(allow_vote_call=False)
    game.apply("d1:route:1", Choices(options=("p2",)))
    _speak(game, "/vote")
    assert events_of(game, "speech")[-1].text == "/vote"
    assert pending(game, "route")


# -- vote ----------------------------------------------------------------------------------


def _to_vote(seed: int = 1, players: int = 6, **extra: object) -> WerewolfGame:
    return new_game(
        seed, players=players, first_phase="day", messages_per_player=0, diaries=False, **extra
    )


def test_self_vote_is_rejected_with_a_clear_message() -> None:
    game = _to_vote(vote_mode="simultaneous")
    d = decision(game, "d1:vote:p3")
    assert d.option_ids == ("p1", "p2", "p4", "p5", "p6")
    assert [o.label for o in d.options] == ["Kenji", "Aiko", "Maya", "Tomas", "Priya"]
    with pytest.raises(IllegalAction) as err:
        game.apply(d.id, Choice(option="Hiroshi"))
    assert str(err.value) == (
        "Invalid vote target: Hiroshi — you cannot vote for yourself; "
        "eligible: Kenji, Aiko, Maya, Tomas, Priya"
    )
    with pytest.raises(IllegalAction, match="Invalid vote target: p3 — you cannot vote"):
        game.apply(d.id, Choice(option="p3"))


def test_votes_for_the_dead_are_rejected() -> None:
    game = new_game(2, players=7, **QUIET)
    dead = game.state.player(_kill_a_villager(game))
    d = pending(game, "vote")[0]
    with pytest.raises(IllegalAction, match=f"{dead.name} is dead"):
        game.apply(d.id, Choice(option=dead.name))


def test_sequential_vote_gives_position_and_earlier_votes() -> None:
    game = _to_vote(players=5)
    first = game.pending()
    assert len(first) == 1 and first[0].id == "d1:vote:p1"
    ask = VoteAsk.of(first[0])
    assert ask.position_text == "1 of 5" and ask.earlier_votes == []
    game.apply("d1:vote:p1", Choice(option="p3", reason="quiet all day"))
    vote = events_of(game, "vote")[-1]
    assert vote.text == "1. Kenji → Hiroshi" and vote.audience.kind == "all"
    assert vote.data["order"] == 1 and "reason" not in vote.data
    # The ballot's reason is the voter's note, not part of the public ballot (issue 10, F8).
    (note,) = events_of(game, "vote_reason")
    assert note.audience == Audience.only("p1") and note.data["reason"] == "quiet all day"
    assert note in game.view("p1").events
    assert all(note not in game.view(s).events for s in ("p2", "p3", "p4", "p5", "router"))
    assert note in game.spectator_view(True).events
    assert note not in game.spectator_view(False).events
    (second,) = game.pending()
    assert second.id == "d1:vote:p2"
    ask = VoteAsk.of(second)
    assert ask.position == 2 and ask.voters == 5
    assert ask.earlier_votes == ["1. Kenji → Hiroshi"]
    assert "2 of 5" in second.prompt


def test_sequential_order_rotates_by_day() -> None:
    roles = {"werewolf": 1, "seer": 1, "doctor": 1, "villager": 4}
    game = new_game(1, players=7, roles=roles, first_phase="day", **QUIET)
    villager = next(p.id for p in game.state.players if p.role == "villager")
    vote_all(game, villager)
    night(game)
    assert not game.is_terminal() and game.state.day == 2
    living = [p.id for p in game.state.living()]
    assert game.pending()[0].seat == living[1]
    assert VoteAsk.of(game.pending()[0]).position_text == f"1 of {len(living)}"


def test_simultaneous_votes_are_revealed_together() -> None:
    game = _to_vote(players=5, vote_mode="simultaneous")
    assert [d.id for d in game.pending()] == [f"d1:vote:p{i}" for i in range(1, 6)]
    ask = VoteAsk.of(game.pending()[0])
    assert ask.mode == "simultaneous" and ask.position is None
    for i, target in zip(range(1, 5), ["p2", "p1", "p1", "p1"], strict=True):
        game.apply(f"d1:vote:p{i}", Choice(option=target))
        assert not events_of(game, "vote")
    game.apply("d1:vote:p5", Choice(option="p2"))
    assert [e.text for e in events_of(game, "vote")] == [
        "1. Kenji → Aiko",
        "2. Aiko → Kenji",
        "3. Hiroshi → Kenji",
        "4. Maya → Kenji",
        "5. Tomas → Aiko",
    ]
    assert not game.state.player("p1").alive
    day = game.view("p2").public.days[0]
    assert day.tally == {"Kenji": 3, "Aiko": 2} and day.eliminated == "Kenji"
    assert day.votes[0] == "1. Kenji → Aiko"


TIE = {"p1": "p4", "p2": "p4", "p3": "p4", "p4": "p1", "p5": "p1", "p6": "p1"}


def test_tie_without_elimination() -> None:
    game = _to_vote(tie_rule="no_elimination")
    vote_all(game, lambda voter: TIE[voter])
    if game.is_terminal():  # pragma: no cover - a tie kills nobody, so never
        raise AssertionError("a tie ended the game")
    assert all(p.alive for p in game.state.players)
    day = game.view("p2").public.days[0]
    assert day.result == "Tie between Kenji, Maya; nobody is eliminated."
    assert day.eliminated is None


def test_tie_drawn_by_lot_uses_the_state_rng() -> None:
    outcomes = set()
    for seed in range(12):
        game = _to_vote(seed, tie_rule="random")
        vote_all(game, lambda voter: TIE[voter])
        dead = {p.id for p in game.state.players if not p.alive}
        assert dead in ({"p1"}, {"p4"})
        assert "drawn by lot" in events_of(game, "elimination")[-1].text
        again = _to_vote(seed, tie_rule="random")
        vote_all(again, lambda voter: TIE[voter])
        assert {p.id for p in again.state.players if not p.alive} == dead
        outcomes |= dead
    assert outcomes == {"p1", "p4"}


def test_elimination_reveals_the_role_unless_configured() -> None:
    shown = _to_vote(players=5)
    vote_all(shown, "p2")
    role = shown.state.player("p2").role
    article = "the" if role in (Role.SEER, Role.DOCTOR, Role.MANIAC) else "a"
    assert events_of(shown, "elimination")[-1].text.startswith(
        f"Aiko is eliminated; they were {article} {role.value}"
    )
    hidden = _to_vote(players=5, reveal_roles=False)
    vote_all(hidden, "p2")
    text = events_of(hidden, "elimination")[-1].text
    if not hidden.is_terminal():
        assert (
            text == "Aiko is eliminated."
            and events_of(hidden, "elimination")[-1].data["role"] is None
        )


# -- diaries and debrief -------------------------------------------------------------------


def test_diaries_are_concurrent_and_private() -> None:
    game = new_game(3, players=7, first_phase="day", messages_per_player=0)
    villagers = [p.id for p in game.state.players if p.role == "villager"]
    vote_all(game, villagers[0])
    diaries = game.pending()
    living = [p.id for p in game.state.living()]
    assert [d.id for d in diaries] == [f"d1:diary:{s}" for s in living]
    assert all(d.purpose == "diary" and d.max_length == 1200 for d in diaries)
    author = diaries[0].seat
    game.apply(diaries[0].id, Text(text="Allies: nobody. Secret plan."))
    entry = events_of(game, "diary")[-1]
    assert entry.audience.seats == (author,) and entry.speaker == author
    assert entry.seq in {e.seq for e in game.view(author).events}
    for s in game.seats():
        if s.id != author:
            assert "Secret plan" not in game.view(s.id).model_dump_json()
    for d in diaries[1:]:
        game.apply(d.id, Text(text=""))
    assert game.state.night == 1 or game.is_terminal()


def test_debrief_happens_after_the_win_and_before_the_end() -> None:
    game = new_game(
        2,
        players=5,
        roles={"werewolf": 1, "seer": 1, "doctor": 1, "villager": 2},
        first_phase="day",
        messages_per_player=0,
        debrief=True,
    )
    wolf = next(p.id for p in game.state.players if p.role == "werewolf")
    vote_all(game, wolf)
    assert not game.is_terminal() and game.result() is None
    debriefs = game.pending()
    assert [d.id for d in debriefs] == [f"end:debrief:p{i}" for i in range(1, 6)]
    assert "every role is now revealed" in debriefs[0].prompt.lower()
    final = events_of(game, "result")[-1]
    assert "The village wins" in final.text and "werewolf" in final.text
    for d in debriefs:
        game.apply(d.id, Text(text=f"gg from {d.seat}"))
    assert game.is_terminal()
    result = game.result()
    assert result is not None and wolf not in result.winners
    assert len(events_of(game, "debrief")) == 5
    assert all(e.audience.kind == "all" for e in events_of(game, "debrief"))
    assert name(game, wolf) in game.view("p1").public.dead


def test_no_seat_sees_another_voters_reason_in_a_whole_game() -> None:
    # Simultaneous ballots are published together at the tally; reasons never are.
    game = scripted(new_game(4, players=7, vote_mode="simultaneous"), 4)
    notes = events_of(game, "vote_reason")
    assert notes, "the scripted voters gave no reasons"
    assert all("reason" not in e.data for e in events_of(game, "vote"))
    voters = {e.speaker for e in notes}
    for p in game.state.players:
        seen = [e for e in game.view(p.id).events if e.kind == "vote_reason"]
        assert all(e.speaker == p.id and e.to == (p.id,) for e in seen)
        assert bool(seen) == (p.id in voters)
