"""Speech acts: legal moves from the seat's own facts, rendered in the character's voice,
chosen by default for seats a small model plays, guarded phrases."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from parlour.core.actions import Choice, Text
from parlour.core.decisions import Decision, DecisionKind, Option
from parlour.core.errors import IllegalAction
from parlour.core.rng import Rng
from parlour.games.werewolf import MODULE, WerewolfConfig
from parlour.games.werewolf.config import make_config
from parlour.games.werewolf.game import WerewolfGame
from parlour.games.werewolf.prompts import PROMPTER
from parlour.games.werewolf.speech_acts import legal_moves
from parlour.models.messages import ModelRequest, ModelResponse
from parlour.runtime import session as sessions
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.store import Store, db_url
from parlour.seats.llm import LlmSeat
from tests.support.cli import run_parlour
from tests.support.conformance import conforms
from tests.support.decisions import make_decision
from tests.werewolf.helpers import events_of, name, new_game


def play_scripted(game: WerewolfGame, stop: str | None = None) -> None:
    rng = Rng(3)
    while not game.is_terminal():
        d = game.pending()[0]
        if stop and d.purpose == stop:
            return
        game.apply(d.id, MODULE.policy(game.view(d.seat), d, rng))


def first_speak(game: WerewolfGame) -> Decision:
    """Answer (scripted) until a speak decision is open; return it."""
    rng = Rng(5)
    while not any(x.purpose == "speak" for x in game.pending()):
        d = game.pending()[0]
        game.apply(d.id, MODULE.policy(game.view(d.seat), d, rng))
    return next(x for x in game.pending() if x.purpose == "speak")


def test_acts_replace_free_text_for_act_seats_only() -> None:
    game = new_game(4, speech="auto", act_seats=("p1", "p2", "p3"), first_phase="day")
    play_scripted(game, stop=None)
    speeches = events_of(game, "speech")
    acted = [e for e in speeches if "act" in e.data]
    assert acted and all(e.speaker in ("p1", "p2", "p3") for e in acted)
    assert all("act" not in e.data for e in speeches if e.speaker not in ("p1", "p2", "p3"))
    # act seats write no diary: their memory holds the engine's records already
    assert {e.speaker for e in events_of(game, "diary")}.isdisjoint({"p1", "p2", "p3"})


def test_moves_name_only_living_others_and_reasons_come_from_seen_facts() -> None:
    game = new_game(5, speech="acts", first_phase="day")
    d = first_speak(game)
    assert d.kind is DecisionKind.CHOOSE_ONE and d.phrase_words == 12
    moves = legal_moves(game.state, d.seat)
    targets = {m.target for m in moves if m.act in ("accuse", "defend", "question")}
    living = {p.id for p in game.state.players if p.alive and p.id != d.seat}
    assert targets == living
    # Day 1, before any vote: no reason may cite a vote; every accusation has a reason.
    assert not any(m.reason.startswith("vote") for m in moves)
    assert all(m.because for m in moves if m.act in ("accuse", "question"))
    assert [m.act for m in moves][-1] == "quiet"


def test_vote_reasons_appear_after_a_vote_and_the_seer_may_reveal() -> None:
    for seed in range(30):
        game = new_game(seed, speech="acts", first_phase="day", players=6)
        play_scripted(game)
        texts = [e.text for e in events_of(game, "speech")]
        reasons = [e.data.get("reason", "") for e in events_of(game, "speech")]
        if any(r.startswith("vote") for r in reasons) and any(
            e.data.get("act") == "reveal" for e in events_of(game, "speech")
        ):
            break
    else:
        pytest.fail("no scripted game cited a vote and revealed a seer result")
    cited = next(t for t, r in zip(texts, reasons, strict=True) if r.startswith("vote"))
    assert "vote" in cited or "ballot" in cited  # the reason's wordings all say so
    reveal = next(e for e in events_of(game, "speech") if e.data.get("act") == "reveal")
    assert game.state.player(reveal.speaker).role.value == "seer"
    assert name(game, reveal.data["target"]) in reveal.text


def test_rendering_is_seeded_and_varied() -> None:
    one = new_game(8, speech="acts", first_phase="day")
    two = new_game(8, speech="acts", first_phase="day")
    play_scripted(one)
    play_scripted(two)
    lines_one = [e.text for e in events_of(one, "speech")]
    assert lines_one == [e.text for e in events_of(two, "speech")]
    # several seats, several voices: few identical lines between seats
    by_text: dict[str, set[str]] = {}
    for e in events_of(one, "speech"):
        by_text.setdefault(e.text, set()).add(e.speaker)
    assert sum(len(s) > 1 for s in by_text.values()) <= len(by_text) // 10


def test_phrase_is_rendered_and_bounded_by_the_decision() -> None:
    game = new_game(2, speech="acts", first_phase="day")
    d = first_speak(game)
    accuse = next(o for o in d.options if o.id.startswith("accuse:"))
    with pytest.raises(IllegalAction, match="at most 12"):
        d.check(Choice(option=accuse.id, reason=" ".join(["word"] * 13)))
    game.apply(d.id, Choice(option=accuse.id, reason="watch how fast they vote"))
    said = events_of(game, "speech")[-1]
    assert said.text.endswith("Watch how fast they vote.")
    assert said.data["act"] == "accuse" and said.data["phrase"] == "watch how fast they vote"


def test_checks_on_a_choice_need_phrase_words() -> None:
    with pytest.raises(ValueError, match="phrase_words"):
        make_decision(purpose="speak", checks=("repetition",))


class Fixed:
    """A backend that always answers the same choice and phrase (a stand-in for a model)."""

    name = "fixed"
    model_id = "fixed:test"

    def __init__(self, choice: str, why: str) -> None:
        self.answer = {"choice": choice, "why": why}
        self.calls = 0

    @property
    def capabilities(self) -> Any:
        from parlour.models.base import Capabilities

        return Capabilities()

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.calls += 1
        return ModelResponse(text=str(self.answer), parsed=self.answer, model_id=self.model_id)


@pytest.mark.parametrize(
    ("why", "kept"),
    [
        ("he voted far too fast", "he voted far too fast"),
        ("the wolf is here the wolf is here", ""),  # a loop: dropped, not retried
        ("Pick the act that helps your team most; every reason", ""),  # copies the prompt
        ("I am sure. And more words follow here that are cut off", "I am sure."),
        ("Accuse them: a hunch, no proof", ""),  # restates an option (a hunch at day start)
    ],
)
def test_llm_seat_keeps_a_clean_phrase_and_drops_a_bad_one(why: str, kept: str) -> None:
    game = new_game(2, speech="acts", first_phase="day")
    d = first_speak(game)
    label = next(o.label for o in d.options if o.id.startswith("accuse:"))
    backend = Fixed(label, why)
    llm = LlmSeat(backend, PROMPTER, MODULE.fallback_policy, seat_id=d.seat, seed=1, cache_key="k")
    action = asyncio.run(llm.decide(game.view(d.seat), d))
    assert isinstance(action, Choice) and action.option.startswith("accuse:")
    assert action.reason == kept and backend.calls == 1


def test_free_speech_and_text_guards_for_other_free_text() -> None:
    game = new_game(2, speech="free", first_phase="day")
    d = first_speak(game)
    assert d.kind is DecisionKind.FREE_TEXT and set(d.checks) == {
        "prompt_copy",
        "repetition",
        "echo",
    }
    game.apply(d.id, Text(text="Hello all."))
    assert "act" not in events_of(game, "speech")[-1].data
    night_game = new_game(2, speech="free")
    chat = next(x for x in night_game.pending() if x.purpose == "wolf_chat")
    assert "repetition" in chat.checks


def test_the_embedded_model_speaks_in_acts_by_default(tmp_path: Path) -> None:
    store = Store(db_url(str(tmp_path / "p.sqlite")))
    llm = LlmFactory(store=store)
    planned = sessions.plan(
        store, "werewolf", players=7, seed=1, model="local", llm=llm, probe=False
    )
    config = planned.config
    assert isinstance(config, WerewolfConfig)
    assert config.speech == "auto" and config.act_seats == tuple(f"p{i}" for i in range(1, 8))
    assert config.speech_phrase_words == 0  # the embedded model's phrases were noise
    mixed = sessions.plan(
        store,
        "werewolf",
        players=7,
        seed=1,
        model="local",
        seats=["p2=scripted", "p3=local:/tmp/big.gguf"],
        llm=llm,
        probe=False,
    )
    assert isinstance(mixed.config, WerewolfConfig)
    assert "p2" not in mixed.config.act_seats and "p3" not in mixed.config.act_seats
    forced = sessions.plan(
        store,
        "werewolf",
        players=7,
        seed=1,
        model="local",
        options={"speech": "free"},
        llm=llm,
        probe=False,
    )
    assert isinstance(forced.config, WerewolfConfig) and forced.config.speech == "free"


def test_config_rejects_unknown_act_seats() -> None:
    with pytest.raises(Exception, match="act_seats: unknown seats p9"):
        make_config(5, {"act_seats": ["p9"]})


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["werewolf", "--speech", "loud"], "unknown --speech 'loud'; use acts or free"),
        (["escape", "--speech", "acts"], "--speech is a werewolf option"),
    ],
)
def test_cli_speech_flag_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    proc = run_parlour(
        "watch",
        *args,
        "--model",
        "scripted",
        "--quiet",
        "--db",
        str(tmp_path / "c.sqlite"),
        timeout=600,
    )
    assert proc.returncode != 0
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_cli_speech_acts_with_scripted_seats(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite"
    proc = run_parlour(
        "watch",
        "werewolf",
        "--players",
        "6",
        "--seed",
        "4",
        "--model",
        "scripted",
        "--speech",
        "acts",
        "--db",
        str(db),
    )
    assert proc.returncode == 0, proc.stderr
    store = Store(db_url(str(db)))
    (row,) = store.list_games()
    assert '"speech":"acts"' in store.get_game(row.id).config.replace(" ", "")


def acts_config(seed: int) -> WerewolfConfig:
    return WerewolfConfig(
        players=5 + seed % 3,
        speech="acts",
        first_phase="day" if seed % 2 else "night",
        messages_per_player=1 + seed % 2,
        wolf_chat_messages=seed % 2,
        diaries=seed % 2 == 0,
        speech_phrase_words=seed % 2 * 12,
    )


def test_conformance_with_speech_acts() -> None:
    conforms(MODULE, acts_config, games=20, replays=5, leaks=4, decisions=2)


def test_pack_chat_in_acts_proposes_and_agrees() -> None:
    game = new_game(6, speech="acts", wolf_chat_messages=1)
    first = next(x for x in game.pending() if x.purpose == "wolf_chat")
    assert first.kind is DecisionKind.CHOOSE_ONE
    assert all(not game.state.player(o.id.split(":")[1]).is_wolf for o in first.options[:-1])
    victim = first.options[0].id
    game.apply(first.id, Choice(option=victim))
    second = next(x for x in game.pending() if x.purpose == "wolf_chat")
    target = victim.split(":")[1]
    assert f"agree:{target}" in second.option_ids
    game.apply(second.id, Choice(option=f"agree:{target}"))
    chat = events_of(game, "wolf_chat")
    assert [e.data["act"] for e in chat] == ["propose", "agree"]
    assert all(name(game, target) in e.text for e in chat)


def test_reveals_name_only_living_players() -> None:
    offered = 0
    for seed in range(30):
        game = new_game(seed, speech="acts", first_phase="day", players=6)
        rng = Rng(3)
        while not game.is_terminal():
            d = game.pending()[0]
            if d.purpose == "speak" and d.kind is DecisionKind.CHOOSE_ONE:
                alive = {p.id for p in game.state.players if p.alive}
                reveals = [m for m in legal_moves(game.state, d.seat) if m.act == "reveal"]
                offered += len(reveals)
                assert all(m.target in alive for m in reveals), seed
            game.apply(d.id, MODULE.policy(game.view(d.seat), d, rng))
    assert offered > 0  # the check ran on real reveal menus


def test_rendered_lines_never_repeat_in_a_game() -> None:
    for seed in range(6):
        game = new_game(seed, speech="acts", players=7)
        play_scripted(game)
        for kind in ("speech", "wolf_chat"):
            texts = [e.text for e in events_of(game, kind)]
            assert len(texts) == len(set(texts)), (seed, kind)


def test_a_single_legal_option_is_answered_without_a_model_call() -> None:
    """A seer with one player left to investigate (a real position: scripted 7-player
    game, seed 1..20) gets no model call; the runner stores ``by="engine"``."""
    from parlour.seats.base import answered_by
    from parlour.seats.llm import ENGINE, only_answer

    forced: Decision | None = None
    for seed in range(1, 21):
        game = new_game(seed, speech="acts", players=7)
        rng = Rng(3)
        while not game.is_terminal() and forced is None:
            d = game.pending()[0]
            if only_answer(d) is not None:
                forced = d
                break
            game.apply(d.id, MODULE.policy(game.view(d.seat), d, rng))
        if forced is not None:
            break
    assert forced is not None and len(forced.options) == 1
    backend = Fixed("anything", "")
    llm = LlmSeat(
        backend, PROMPTER, MODULE.fallback_policy, seat_id=forced.seat, seed=1, cache_key="k"
    )
    action = asyncio.run(llm.decide(game.view(forced.seat), forced))
    assert action == Choice(option=forced.options[0].id) and backend.calls == 0
    assert answered_by(llm, forced.id) == ENGINE
    # two options (or a refused one) still ask the model
    two = forced.model_copy(update={"options": (*forced.options, Option(id="x", label="X"))})
    assert only_answer(two) is None
    refused = forced.model_copy(update={"not_allowed": {forced.options[0].id: "no"}})
    assert only_answer(refused) is None
