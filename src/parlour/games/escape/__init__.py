"""Escape: a causal-graph text adventure where spoilers are impossible by construction.

A designer writes actions with prerequisites (``needs``) and secret consequences; the player
types anything; a classifier maps it to an available action; the engine decides what
happened; a narrator tells only what has been unlocked.
"""

from typing import Any

from parlour.core.evaluation import EvalTools
from parlour.core.module import GameModule
from parlour.core.surface_hooks import ContentKind
from parlour.games.escape.config import EscapeConfig, make_config
from parlour.games.escape.game import EscapeGame
from parlour.games.escape.loader import load_scenario, parse_scenario, shipped_names
from parlour.games.escape.metrics import METRICS
from parlour.games.escape.policies import escape_policy
from parlour.games.escape.prompts import EscapePrompter
from parlour.games.escape.scenario import Scenario, ScenarioAction, ScenarioError
from parlour.games.escape.validate import Problem, validate


def evaluation(tools: EvalTools) -> object:
    """``parlour eval escape``: the harness's command (imported only when asked for, so the
    rules never import the engine)."""
    from parlour.games.escape.surface.eval_cli import eval_app

    return eval_app(tools)


def _commands() -> Any:
    """``parlour escape validate|graph`` (imported only when the CLI mounts them)."""
    from parlour.games.escape.surface.cli import escape_app

    return escape_app


MODULE = GameModule(
    game=EscapeGame,
    policy=escape_policy,
    prompter=EscapePrompter(),
    make_config=make_config,
    metrics=METRICS,
    evaluation=evaluation,
    content=(
        ContentKind(
            flag="scenario",
            key="scenario",
            help="escape: a shipped scenario name or a scenario YAML file",
            shipped=shipped_names,
            lobby_label="Escape scenario",
        ),
    ),
    commands=_commands,
)

__all__ = [
    "MODULE",
    "EscapeConfig",
    "EscapeGame",
    "Problem",
    "Scenario",
    "ScenarioAction",
    "ScenarioError",
    "load_scenario",
    "make_config",
    "parse_scenario",
    "shipped_names",
    "validate",
]
