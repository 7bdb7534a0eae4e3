"""Werewolf: social deduction with a seer, a doctor, an optional maniac and routed talk."""

from collections.abc import Mapping
from typing import Any

from parlour.core.commands import command
from parlour.core.module import GameModule
from parlour.core.surface_hooks import FlagContext, FlagEffect, PlayFlag
from parlour.games.werewolf.config import WerewolfConfig, make_config
from parlour.games.werewolf.game import WerewolfGame
from parlour.games.werewolf.metrics import METRICS
from parlour.games.werewolf.policies import policy
from parlour.games.werewolf.prompts import PROMPTER, WerewolfPrompter
from parlour.games.werewolf.roles import Role, Team


def _commands() -> Any:
    """``parlour werewolf cast`` (imported only when the CLI mounts it)."""
    from parlour.games.werewolf.surface.cli import werewolf_app

    return werewolf_app


def _apply_flags(values: Mapping[str, str], context: FlagContext) -> FlagEffect:
    """``--theme``/``--cast``/``--speech`` (a themed cast is written by a model, so the
    work is done in ``surface/``)."""
    from parlour.games.werewolf.surface.flags import apply_flags

    return apply_flags(values, context)


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
    # Its day plan is the engine's pick from its own belief: asking it cost a model call
    # per seat per plan round (the README's game went past its 6 minutes), and its choice
    # came with reasons such as "suspect and vote Kenji" (docs/benchmarks.md).
    small_model_options=lambda seats: {
        "act_seats": list(seats),
        "speech_phrase_words": 0,
        "engine_plans": list(seats),
    },
    # A capable model writes its day plan (plans.written_schema): checked, asked again
    # with the error, the engine's ranked plan when it keeps failing.
    capable_model_options=lambda seats: {"written_plans": list(seats)},
    metrics=METRICS,
    flags=(
        PlayFlag(
            "theme",
            'werewolf: generate a cast for a setting, e.g. "a space station"',
            needs_seed=True,
        ),
        PlayFlag("cast", f"werewolf: a cast YAML file (see `{command('werewolf cast')}`)", "PATH"),
        PlayFlag(
            "speech",
            "werewolf: acts (structured speech acts put into words) or free (free text); "
            "default: acts for seats a small model plays",
        ),
    ),
    apply_flags=_apply_flags,
    commands=_commands,
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
