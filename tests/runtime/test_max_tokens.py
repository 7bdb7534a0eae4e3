"""Games say how much room their answers need (``Decision.max_tokens``); the runtime has
no table of game purposes. The values are the ones the old runtime table gave, so
recorded games replay with the same settings."""

from __future__ import annotations

from parlour.core.rng import Rng, hash_seed
from parlour.games.registry import load
from parlour.seats.llm import LlmSeatConfig

# The old runtime table; every other purpose got the LLM seat's default (160).
WAS = {
    "speak": 70,
    "interject": 70,
    "wolf_chat": 50,
    "diary": 160,
    "debrief": 80,
    "narrate": 200,
    "act": 60,
    "classify": 40,
    "vote": 60,
    "route": 60,
    "orders": 600,
    "retreats": 200,
    "builds": 200,
    "removals": 200,
    "press": 400,
}
#: Purposes added since that table, with the room their decisions ask for.
NEW = {"plan": 40}


def _room(game_name: str, options: dict[str, object], seed: int, limit: int) -> dict[str, int]:
    module = load(game_name)
    game = module.game.new(module.make_config(None, options), seed)
    seen: dict[str, int] = {}
    for _ in range(limit):
        if game.is_terminal():
            break
        for decision in game.pending():
            room = decision.max_tokens or LlmSeatConfig().default_max_tokens
            assert seen.setdefault(decision.purpose, room) == room, decision.purpose
            rng = Rng(hash_seed(seed, decision.id))
            game.apply(decision.id, module.policy(game.view(decision.seat), decision, rng))
    return seen


def test_each_purpose_gets_the_room_it_had() -> None:
    seen: dict[str, int] = {}
    seen |= _room("werewolf", {"players": 7, "debrief": True, "open_mic": ["p1"]}, 3, 2000)
    seen |= _room("escape", {}, 1, 200)
    seen |= _room("diplomacy", {"end_year": 1902, "press_rounds": 1}, 1, 40)
    expected = {purpose: NEW.get(purpose, WAS.get(purpose, 160)) for purpose in seen}
    assert seen == expected
    assert {"speak", "interject", "wolf_chat", "diary", "vote", "route", "narrate"} <= set(seen)
    assert {"classify", "act", "orders", "press", "debrief"} <= set(seen)
