"""The shared guards on the text a model writes inside structured answers, through the LLM
seat: a field that copies its instructions, loops or echoes is refused with the reason
naming the field, the retry sees that reason, and a clean retry is accepted as written.
Model answers come from recorded calls (``ReplayBackend``), one per attempt."""

from __future__ import annotations

import asyncio
from typing import Any

from parlour.core.actions import Action, Structured, Text
from parlour.core.decisions import Decision
from parlour.core.module import GameModule
from parlour.core.rng import Rng, hash_seed
from parlour.core.view import AnyView
from parlour.games.campaign import MODULE as CAMPAIGN
from parlour.games.campaign import CampaignGame, make_config
from parlour.games.campaign.requests import SCENE_PROMPT
from parlour.games.diplomacy import MODULE as DIPLOMACY
from parlour.games.diplomacy.config import DiplomacyConfig
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.games.missing import MODULE as MISSING
from parlour.games.missing import MissingGame
from parlour.games.werewolf.casting import CastBuilder, CastingPrompter, casting_fallback
from parlour.seats.llm import Attempt
from tests.replay_seat import replay_seat

from ..missing.helpers import small


def _answer(
    module: GameModule, view: AnyView, decision: Decision, answers: list[Any]
) -> tuple[Action, list[Attempt]]:
    """The seat answers ``decision`` from recorded calls, one per attempt, in order."""
    seat, sink = replay_seat(
        module.prompter,
        module.policy,
        answers,
        seat_id=decision.seat,
        purpose=decision.purpose,
        seed=3,
    )
    return asyncio.run(seat.decide(view, decision)), sink.items


def _campaign_until(purpose: str) -> tuple[CampaignGame, Decision]:
    """A campaign played by the scripted seats up to a scene-director decision of
    ``purpose`` (``scene``: the narration; ``line``: one NPC's line), after the player has
    spoken."""
    game = CampaignGame(make_config(None, {}), 1)
    rng = Rng(2)
    while True:
        decision = game.pending()[0]
        if decision.purpose == purpose and any(e.kind == "message" for e in game.events):
            return game, decision
        game.apply(decision.id, CAMPAIGN.policy(game.view(decision.seat), decision, rng))


def test_a_looping_npc_line_is_refused_and_the_retry_is_accepted() -> None:
    game, decision = _campaign_until("line")
    loop = "She is the one who is always with her lab, and she is the one who is always there."
    action, attempts = _answer(CAMPAIGN, game.view(decision.seat), decision, [loop, "Ready?"])
    assert [a.outcome for a in attempts] == ["invalid", "valid"]
    assert attempts[0].error == 'it repeats itself ("she is the one" twice); say each thing once'
    assert attempts[0].error in attempts[1].messages[-1].content  # fed back on the retry
    assert action == Text(text="Ready?")


def test_a_narration_copying_the_prompt_and_a_line_echoing_the_player_are_refused() -> None:
    game, decision = _campaign_until("scene")
    bad = {"narration": SCENE_PROMPT}
    action, attempts = _answer(CAMPAIGN, game.view(decision.seat), decision, [bad] * 3)
    assert [a.outcome for a in attempts] == ["invalid", "invalid", "invalid", "fallback"]
    assert attempts[0].error.startswith('narration: it copies your instructions ("narrate the')
    # the game's own policy answered after the budget: the copy never reached anyone
    assert isinstance(action, Structured) and action.value["narration"] != SCENE_PROMPT
    game.apply(decision.id, action)
    line = game.pending()[0]
    assert line.purpose == "line"
    said = [e.text for e in game.events if e.kind == "message"][-1]
    _, attempts = _answer(CAMPAIGN, game.view(line.seat), line, [said] * 3)
    pc = game.campaign.pc.name  # the player's line, as the scene director saw it quoted
    assert attempts[0].error == f"it repeats {pc}'s last line; say something of your own"


def test_one_press_text_sent_twice_is_refused_then_accepted() -> None:
    config = DiplomacyConfig(press_rounds=1)
    game = DiplomacyGame.new(config, 5)
    decision = next(d for d in game.pending() if d.purpose == "press")
    assert decision.checked_fields == ("messages[].text",)
    text = "I will hold in Munich this spring if you keep out of Burgundy."
    twice = {"messages": [{"to": "ALL", "text": text}, {"to": "ALL", "text": text}]}
    once = {"messages": [{"to": "ALL", "text": text}]}
    view = game.view(decision.seat)
    action, attempts = _answer(DIPLOMACY, view, decision, [twice, once])
    assert [a.outcome for a in attempts] == ["invalid", "valid"]
    assert attempts[0].error == (
        "messages[1].text: it is the same line your messages[0].text just said; "
        "say something of your own"
    )
    assert action == Structured(value=once)


def test_missing_refuses_a_message_that_is_another_players_last_line() -> None:
    game = MissingGame(small(), 4)
    while True:
        decision = game.pending()[0]
        if decision.purpose == "message" and decision.seat != "p1":
            parts = MISSING.prompter.parts(game.view(decision.seat), decision)
            others = [u for u in parts.transcript if not u.own and u.kind == "speech"]
            if others:
                break
        rng = Rng(hash_seed(4, decision.id))
        game.apply(decision.id, MISSING.policy(game.view(decision.seat), decision, rng))
    last = others[-1]
    rules = decision.text_rules
    words = " ".join(rules.words[:1]) if rules is not None else ""
    own = f"Checking the back lane now, will text soon {words}".strip()
    action, attempts = _answer(MISSING, game.view(decision.seat), decision, [last.text, own])
    assert [a.outcome for a in attempts] == ["invalid", "valid"]
    assert f"it is the same line {last.speaker} just said" in attempts[0].error
    assert action == Text(text=own)


def test_casting_refuses_a_story_copied_from_its_worked_example() -> None:
    builder = CastBuilder("a pirate ship", 5, seed=3)
    names = builder.next()
    assert names is not None
    builder.answer(names, Structured(value={"names": ["Anne", "Jack", "Mary", "Tom", "Ned"]}))
    genders = builder.next()
    assert genders is not None
    builder.answer(genders, Structured(value={"genders": ["female", "male"] * 2 + ["male"]}))
    scene = builder.next()
    assert scene is not None and scene.checks == ("prompt_copy", "repetition")
    copied = "The crew of the Grey Gull is becalmed far from any port."  # the system's example
    own = "Fog rolls over the Black Swan. One sailor is gone each morning."
    seat, sink = replay_seat(
        CastingPrompter(),
        casting_fallback,
        (copied, own),
        seat_id="casting",
        purpose=scene.purpose,
        seed=3,
        cache_key="c",
    )
    action = asyncio.run(seat.decide(builder.view(), scene))
    assert [a.outcome for a in sink.items] == ["invalid", "valid"]
    assert sink.items[0].error.startswith('it copies your instructions ("the crew of the grey')
    builder.answer(scene, action)
    assert builder.scene == own and "scene" not in builder.fallbacks
