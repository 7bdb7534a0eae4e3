"""Missing: a group-chat mystery where players text each other against a simulated clock,
search places, answer timed story cards and keep their secrets."""

from typing import Any

from parlour.core.metrics import GameMetrics, generic_facts
from parlour.core.module import GameModule
from parlour.games.missing.claims import claim_options
from parlour.games.missing.config import MissingConfig, make_config
from parlour.games.missing.game import MissingGame
from parlour.games.missing.loader import load_town, parse_town, shipped_names
from parlour.games.missing.policies import missing_policy
from parlour.games.missing.prompts import MissingPrompter
from parlour.games.missing.talk_lines import talk_lines
from parlour.games.missing.validate import Problem, validate, validate_file


def _commands() -> Any:
    """``parlour missing validate`` (imported only when the CLI mounts it)."""
    from parlour.games.missing.surface.cli import missing_app

    return missing_app


MODULE = GameModule(
    game=MissingGame,
    policy=missing_policy,
    prompter=MissingPrompter(),
    make_config=make_config,
    human_options=lambda seat: {"people": [seat]},
    # A small model answers in acts the game words (acts.py): asked for free text, the
    # embedded model's messages fell back a third of the time (docs/benchmarks.md).
    # Its round choices are the engine's (the scripted rule from its own view): a call
    # per seat per round, mostly "stay silent", was most of a person's wait.
    small_model_options=lambda seats: {"act_seats": list(seats), "engine_turns": list(seats)},
    as_options=claim_options,
    commands=_commands,
    metrics=GameMetrics(generic_facts, talk=talk_lines),
)

__all__ = [
    "MODULE",
    "MissingConfig",
    "MissingGame",
    "Problem",
    "load_town",
    "make_config",
    "missing_policy",
    "parse_town",
    "shipped_names",
    "validate",
    "validate_file",
]
