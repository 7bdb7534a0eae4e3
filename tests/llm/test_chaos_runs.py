"""Misbehaving models never stall a game or leak a secret.

Every LLM seat plays ``chaos(rate=0.5)`` over a replay of the recorded game in
order-only mode: half the answers are injected faults (malformed JSON, illegal options,
empty answers, timeouts, errors) and the rest are real recorded answers that usually do
not fit the new game. Every game must finish, every stored action must be legal, and no
stored prompt may hold a secret its seat is not entitled to.
"""

from __future__ import annotations

import asyncio

import pytest

from parlour.games.registry import load
from parlour.runtime import session as sessions
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.seating import SeatPlan

from .conftest import Recorded

SMALL = {"messages_per_player": 1, "wolf_chat_messages": 1, "diaries": True}


def _chaos_game(rec: Recorded, seed: int, options: dict[str, object]) -> str:
    spec = f"chaos(rate=0.5,seed={seed}):replay(strict=false):{rec.game_id}"
    plan = SeatPlan(default=spec, system_default=spec, overrides={})
    session = sessions.start(
        rec.store,
        "werewolf",
        players=5 + seed % 5,
        seed=seed,
        options=dict(options),
        plan=plan,
        llm_factory=LlmFactory(store=rec.store, retries=1),
    )
    result = asyncio.run(session.run())
    assert result is not None, f"seed {seed}: no result"
    return session.game_id


@pytest.mark.slow  # a hundred chaotic games
def test_a_hundred_chaotic_games_all_finish_legally(recorded: Recorded) -> None:
    module = load("werewolf")
    outcomes: set[str] = set()
    for seed in range(100):
        gid = _chaos_game(recorded, seed, SMALL)
        row = recorded.store.get_game(gid)
        assert row.status == "finished"
        # No illegal state: the stored actions replay through the rules from scratch.
        config = module.game.config_model.model_validate_json(row.config)
        game = module.game.new(config, row.seed)
        for act in recorded.store.actions(gid):
            game.apply(act.decision_id, act.action)
        assert game.is_terminal()
        assert len(game.events) == len(recorded.store.events(gid))
        outcomes |= {c.outcome for c in recorded.store.calls(gid)}
    assert {"valid", "invalid", "error", "fallback"} <= outcomes


def test_no_stored_prompt_holds_a_secret_its_seat_may_not_know(recorded: Recorded) -> None:
    module = load("werewolf")
    scanned = 0
    for seed in range(20):
        gid = _chaos_game(recorded, 1000 + seed, {**SMALL, "plant_markers": True})
        row = recorded.store.get_game(gid)
        game = module.game.new(module.game.config_model.model_validate_json(row.config), row.seed)
        markers: dict[str, frozenset[str]] = {}
        calls = recorded.store.calls(gid)
        for act in recorded.store.actions(gid):
            game.apply(act.decision_id, act.action)
            markers.update(game.secret_markers())
        assert markers
        for call in calls:
            prompt = "".join(m["content"] for m in call.messages)
            scanned += 1
            for marker, allowed in markers.items():
                assert call.seat in allowed or marker not in prompt, (
                    f"seed {seed}: {call.seat} was shown {marker} (allowed {sorted(allowed)})"
                )
    assert scanned > 500
