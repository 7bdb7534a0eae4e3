"""Issue 12 (second pass): what rendered talk says must be true and read like a person.

Each test pins a defect seen in a real embedded-model game (seed 426109, 7 players, and
the recorded fixture): retry feedback said aloud, one wording of a reason in half the
speeches, "has said nothing today" as the day's first line, defending a player the
speaker accused minutes before, asking a player who just named a suspect whom they
suspect, speaking of oneself in the third person, the router giving the floor to every
player a defence mentions, and a wolf's kill contradicting its own pack chat.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from parlour.core.actions import Choice, Text
from parlour.core.decisions import DecisionKind
from parlour.core.rng import Rng
from parlour.games.werewolf import MODULE
from parlour.games.werewolf.discussion import addressed_by_last
from parlour.games.werewolf.game import WerewolfGame
from parlour.games.werewolf.playstyles import Playstyle
from parlour.games.werewolf.prompts import PROMPTER
from parlour.games.werewolf.speech_acts import QUIET_AFTER, legal_moves
from parlour.games.werewolf.speech_voice import QUESTIONS, REASONS, wordings
from parlour.models.messages import ModelRequest, ModelResponse
from tests.replay_seat import kept_seat
from tests.werewolf.helpers import acts_day, events_of, new_game, say
from tests.werewolf.test_werewolf_speech_acts import first_speak, play_scripted


def _ids(game: WerewolfGame, seat: str) -> set[str]:
    return {m.id for m in legal_moves(game.state, seat)}


def _speech(game: WerewolfGame) -> list[str]:
    return [e.text for e in events_of(game, "speech")]


# -- 1. retry feedback is part of the prompt -------------------------------------------------


class Sequence_:
    """A backend answering free text from a list, one answer per call."""

    name = "seq"
    model_id = "seq:test"

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.requests: list[ModelRequest] = []

    @property
    def capabilities(self) -> Any:
        from parlour.models.base import Capabilities

        return Capabilities()

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        return ModelResponse(text=self.answers[len(self.requests) - 1], model_id=self.model_id)


def test_an_answer_that_says_its_retry_feedback_aloud_is_a_prompt_copy() -> None:
    game = new_game(2, speech="free", first_phase="day")
    d = first_speak(game)
    assert d.kind is DecisionKind.FREE_TEXT and "prompt_copy" in d.checks
    first = f"Well. {d.prompt}"  # copies the question: rejected, with feedback

    class Echo(Sequence_):
        async def complete(self, request: ModelRequest) -> ModelResponse:
            self.requests.append(request)
            if len(self.requests) == 2:
                # What the fixture's seat did on its retry: it said the feedback aloud.
                feedback = request.messages[-1].content
                said = feedback.removeprefix("Invalid answer: ").split("\n")[0]
                return ModelResponse(text=said[0].upper() + said[1:], model_id=self.model_id)
            return ModelResponse(text=self.answers[len(self.requests) - 1], model_id="seq:test")

    clean = "I watched Kenji all morning and he dodges every question."
    backend = Echo([first, "", clean])
    llm, sink = kept_seat(
        backend, PROMPTER, MODULE.fallback_policy, seat_id=d.seat, seed=1, cache_key="k"
    )
    action = asyncio.run(llm.decide(game.view(d.seat), d))
    assert [a.outcome for a in sink.items] == ["invalid", "invalid", "valid"]
    assert action == Text(text=clean)
    # the second answer was the feedback, refused as a copy of the prompt it was in
    assert sink.items[1].error.startswith(
        'it copies your instructions ("you copied part of your instructions'
    )
    assert "copied part of your instructions" in backend.requests[1].messages[-1].content


def test_a_phrase_copying_its_feedback_is_dropped() -> None:
    """Choose-one phrases are guarded with the same instructions, feedback included."""
    game = new_game(2, speech="acts", first_phase="day", speech_phrase_words=12)
    d = first_speak(game)
    label = next(o.label for o in d.options if o.id.startswith("accuse:"))

    class Two(Sequence_):
        async def complete(self, request: ModelRequest) -> ModelResponse:
            self.requests.append(request)
            if len(self.requests) == 1:  # not an option: one retry with feedback
                a = {"choice": "nobody at all", "why": ""}
            else:  # the phrase recites the start of that feedback
                a = {"choice": label, "why": " ".join(request.messages[-1].content.split()[:9])}
            return ModelResponse(text=str(a), parsed=a, model_id=self.model_id)

    backend = Two([])
    llm, sink = kept_seat(
        backend, PROMPTER, MODULE.fallback_policy, seat_id=d.seat, seed=1, cache_key="k"
    )
    action = asyncio.run(llm.decide(game.view(d.seat), d))
    assert backend.requests[1].messages[-1].content.startswith("Invalid answer: 'nobody at all'")
    assert isinstance(action, Choice) and action.option.startswith("accuse:")
    assert action.reason == ""
    assert "phrase dropped: it copies your instructions" in sink.items[-1].error


# -- 2. reason wordings ----------------------------------------------------------------------


def test_every_reason_kind_has_several_wordings_in_every_voice() -> None:
    from parlour.games.werewolf.speech_acts import Move

    for style in Playstyle:
        for kind in REASONS:
            move = Move("accuse", "p1", "r", "x", kind=kind, about="p2", detail="a villager")
            texts = [t for _, t in wordings(move, {"p1": "Kenji", "p2": "Aiko"}, style)]
            assert len(set(texts)) >= 4, (style, kind)
        for kind in QUESTIONS:
            move = Move("question", "p1", "r", "x", kind=kind, about="p2")
            assert len({t for _, t in wordings(move, {"p1": "Kenji", "p2": "Aiko"}, style)}) >= 5


def test_no_speaker_uses_one_reason_wording_twice_in_a_row_and_none_dominates() -> None:
    """Scripted 7-player act games (the policies pick the acts; the engine words them)."""
    counts: Counter[str] = Counter()
    lines = 0
    for seed in range(8):
        game = new_game(seed, speech="acts", players=7, messages_per_player=3)
        play_scripted(game)
        last: dict[str, str] = {}
        for e in events_of(game, "speech"):
            key = str(e.data.get("wording", ""))
            if not key:
                continue
            lines += 1
            counts[key] += 1
            assert last.get(e.speaker) != key, (seed, e.text)
            last[e.speaker] = key
    assert lines >= 100
    # the fixture's defence wording was 15 of 29 lines; no wording is near that now
    top, n = counts.most_common(1)[0]
    assert n / lines < 0.15, (top, n, lines)


# -- 3. reasons are true facts of the seat's view --------------------------------------------


def test_a_question_is_not_an_accusation_and_silence_needs_a_talk_to_be_silent_in() -> None:
    game = acts_day()
    a, b, c, d = "p1", "p2", "p3", "p4"
    # Day start: nobody has spoken, so nobody "has said nothing today" yet.
    assert not any(i.endswith(":quiet") for i in _ids(game, a))
    say(game, a, f"question:{b}:read")
    assert f"accuse:{a}:accused_me" not in _ids(game, b)  # asked, not accused
    say(game, c, f"accuse:{d}:hunch")
    say(game, a, f"accuse:{c}:hunch")
    # three lines spoken: now a player who said nothing may be called quiet
    assert QUIET_AFTER == 3 and f"accuse:{b}:quiet" in _ids(game, d)
    assert f"accuse:{c}:accused_me" in _ids(game, d)  # c really accused d


def test_no_turning_on_a_player_you_stood_up_for_and_no_saying_the_same_twice() -> None:
    game = acts_day()
    say(game, "p1", "accuse:p2:hunch")
    say(game, "p3", "accuse:p1:hunch")
    mine = _ids(game, "p1")
    assert not any(i.startswith("defend:p2") for i in mine)  # p1 accused p2 today
    assert "accuse:p2:hunch" not in mine  # said already
    assert "defend:p1:accused" in _ids(game, "p4")
    say(game, "p4", "defend:p1:accused")
    assert not any(i.startswith("accuse:p1") for i in _ids(game, "p4"))


def test_a_question_after_an_accusation_asks_why_and_says_me_for_the_speaker() -> None:
    game = acts_day()
    kenji, aiko = game.state.name("p1"), game.state.name("p2")
    say(game, "p2", "accuse:p1:hunch")
    say(game, "p1", "question:p2:accusation")
    said = _speech(game)[-1]
    assert aiko in said and kenji not in said  # not "you accused Kenji" from Kenji
    assert " me" in said  # "why me?", "your case against me", ...
    assert not said.endswith(("Whom do you suspect?", "Who is it?"))  # Aiko named one
    say(game, "p3", "question:p2:accusation")
    assert kenji in _speech(game)[-1]  # a third player names the accused


def test_a_defence_says_what_the_accusation_rested_on() -> None:
    game = acts_day()
    say(game, "p1", "accuse:p2:hunch")
    say(game, "p2", "accuse:p1:accused_me")
    moves = {m.id: m for m in legal_moves(game.state, "p3")}
    assert moves["defend:p2:accused"].kind == "accused_hunch"
    assert moves["defend:p1:accused"].kind == "accused_payback"
    say(game, "p3", "defend:p1:accused")
    assert "without proof" not in _speech(game)[-1]


def test_the_router_calls_on_the_accused_not_on_everyone_a_defence_names() -> None:
    game = acts_day()
    say(game, "p1", "accuse:p2:hunch")
    assert addressed_by_last(game.state) == ["p2"]
    say(game, "p3", "defend:p2:accused")  # "... was accused by Kenji ..."
    assert addressed_by_last(game.state) == []


def test_seed_426109_day_one_reads_like_people() -> None:
    """The brief's game, scripted seats on the same seed: no flip-flop, no day-start
    silence blame, no third-person self-reference in any act game of that seed."""
    for players in (6, 7):
        game = new_game(426109, speech="acts", players=players, messages_per_player=3)
        play_scripted(game)
        stance: dict[tuple[str, str, str], str] = {}
        first_of_day: set[str] = set()
        for e in events_of(game, "speech"):
            act, target = e.data.get("act"), e.data.get("target")
            day = e.phase
            if day not in first_of_day:
                first_of_day.add(day)
                assert e.data.get("reason") != "quiet", e.text
            if act in ("accuse", "defend") and target:
                before = stance.get((day, e.speaker, str(target)))
                assert before in (None, act), e.text
                stance[(day, e.speaker, str(target))] = str(act)
            assert game.state.name(e.speaker) not in e.text, e.text


# -- 4. a wolf's kill follows its own pack chat ----------------------------------------------


def test_a_wolf_that_named_a_victim_in_chat_proposes_that_victim_without_a_call() -> None:
    from parlour.seats.llm import only_answer

    game = new_game(6, speech="acts", wolf_chat_messages=1, players=7)
    rng = Rng(1)
    named: dict[str, str] = {}
    while True:
        d = game.pending()[0]
        if d.purpose == "wolf_chat":
            option = next(o.id for o in d.options if o.id.startswith("propose:"))
            named[d.seat] = option.split(":")[1]
            game.apply(d.id, Choice(option=option))
            continue
        if d.purpose == "wolf_kill":
            break
        game.apply(d.id, MODULE.policy(game.view(d.seat), d, rng))
    kills = [x for x in game.pending() if x.purpose == "wolf_kill"]
    assert kills and {k.seat for k in kills} == set(named)
    for k in kills:
        assert k.option_ids == (named[k.seat],)
        assert only_answer(k) == Choice(option=named[k.seat])
    # free-speech wolves keep the whole choice
    free = new_game(6, speech="free", wolf_chat_messages=0, players=7)
    kill = next(x for x in free.pending() if x.purpose == "wolf_kill")
    assert len(kill.options) > 1


def test_reasons_never_blame_the_speakers_own_vote_or_claim_a_silent_player_talked() -> None:
    """Scripted 7-player act games: every offered vote-record accusation cites a ballot
    the speaker did not cast too; questions about a player who has not spoken today
    never say that player talked."""
    from parlour.games.werewolf.speech_acts import seat_facts

    cited = asked_open = 0
    for seed in range(10):
        game = new_game(seed, speech="acts", players=7, messages_per_player=3)
        rng = Rng(3)
        while not game.is_terminal():
            d = game.pending()[0]
            if d.purpose == "speak":
                f = seat_facts(game.state, d.seat)
                for m in legal_moves(game.state, d.seat):
                    if m.kind == "vote_dead":
                        cited += 1
                        day = int(m.reason.removeprefix("vote"))
                        assert (day, d.seat, m.about) not in f.votes, (seed, m)
                    if m.act == "question" and m.target not in f.spoke_today:
                        assert m.kind in ("q_open", "q_quiet"), (seed, m)
                        asked_open += m.kind == "q_open"
            game.apply(d.id, MODULE.policy(game.view(d.seat), d, rng))
    assert cited > 0 and asked_open > 0
