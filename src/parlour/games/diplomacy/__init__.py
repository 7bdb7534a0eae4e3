"""Diplomacy: map data, board state, orders, legal-order enumeration and adjudication,
and the kernel game (``MODULE``) with press, DumbBot and civil-disorder seats."""

from parlour.core.evaluation import EvalTools
from parlour.core.game import Game
from parlour.core.module import GameModule
from parlour.games.diplomacy.bot_protocol import CHAT_PURPOSES
from parlour.games.diplomacy.config import (
    DiplomacyConfig,
    bot_options,
    make_config,
    next_bot_phase,
)
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.games.diplomacy.metrics import METRICS
from parlour.games.diplomacy.policies import POLICIES, dumbbot, hold
from parlour.games.diplomacy.prompts import PROMPTER, DiplomacyPrompter


def bot_takeover(game: Game, power: str, options: dict[str, str]) -> dict[str, object]:
    """``resume --seat POWER=bot:SPEC``: POWER plays the bot protocol from the next
    movement phase (this one's orders stay as they are); its journal is bootstrapped."""
    assert isinstance(game, DiplomacyGame)
    out = bot_options(power, options)
    config = game.config
    if power not in config.bots:
        out["bots_from"] = {power: next_bot_phase(game.board.phase.name)}
    return out


def evaluation(tools: EvalTools) -> object:
    """``parlour eval diplomacy``: the harness's command (imported only when asked for, so the
    rules never import the engine)."""
    from parlour.games.diplomacy.surface.eval_cli import eval_app

    return eval_app(tools)


MODULE = GameModule(
    game=DiplomacyGame,
    policy=dumbbot,
    prompter=PROMPTER,
    make_config=make_config,
    policies=POLICIES,
    # Civil disorder: a power whose seat crashes or gives up holds (and waives builds;
    # removals follow the rulebook's civil-disorder order).
    fallback=hold,
    human_options=lambda seat: {"humans": [seat]},
    bot_options=bot_options,
    bot_takeover=bot_takeover,
    chat_purposes=CHAT_PURPOSES,
    metrics=METRICS,
    evaluation=evaluation,
)

__all__ = [
    "MODULE",
    "DiplomacyConfig",
    "DiplomacyGame",
    "DiplomacyPrompter",
    "dumbbot",
    "hold",
    "make_config",
]
