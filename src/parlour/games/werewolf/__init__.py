"""Werewolf: social deduction with a seer, a doctor, an optional maniac and routed talk."""

from parlour.core.module import GameModule
from parlour.games.werewolf.config import WerewolfConfig, make_config
from parlour.games.werewolf.game import WerewolfGame
from parlour.games.werewolf.metrics import METRICS
from parlour.games.werewolf.policies import policy
from parlour.games.werewolf.prompts import PROMPTER, WerewolfPrompter
from parlour.games.werewolf.roles import Role, Team

MODULE = GameModule(
    game=WerewolfGame,
    policy=policy,
    prompter=PROMPTER,
    make_config=make_config,
    # The router is deterministic unless asked for (`--router llm`).
    scripted_system_seats=frozenset({"router"}),
    # A human may speak whenever the discussion pauses, not only when routed.
    human_options=lambda seat: {"open_mic": [seat]},
    # A small model speaks in speech acts the game puts into words (speech_acts.py); its
    # free phrases were mostly noise when measured (docs/benchmarks.md), so none by default.
    small_model_options=lambda seats: {"act_seats": list(seats), "speech_phrase_words": 0},
    metrics=METRICS,
)

__all__ = [
    "MODULE",
    "Role",
    "Team",
    "WerewolfConfig",
    "WerewolfGame",
    "WerewolfPrompter",
    "make_config",
    "policy",
]
