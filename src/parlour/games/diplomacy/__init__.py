"""Diplomacy: map data, board state, orders, legal-order enumeration and adjudication,
and the kernel game (``MODULE``) with press, DumbBot and civil-disorder seats."""

from collections.abc import Mapping

from parlour.core.evaluation import EvalTools
from parlour.core.game import Game
from parlour.core.module import GameModule
from parlour.core.surface_hooks import FlagContext, FlagEffect, PlayFlag
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


def seat_returned(game: Game, power: str) -> dict[str, object]:
    """``resume --seat POWER=human`` after the bot took POWER over (``takeover_after``):
    the person plays again from the next movement phase (the bot finishes this one)."""
    assert isinstance(game, DiplomacyGame)
    if power not in game.state.taken:
        return {}
    return {"handed_back": {power: next_bot_phase(game.board.phase.name)}}


def evaluation(tools: EvalTools) -> object:
    """``parlour eval diplomacy``: the harness's command (imported only when asked for, so the
    rules never import the engine)."""
    from parlour.games.diplomacy.surface.eval_cli import eval_app

    return eval_app(tools)


def _pictures(game: Game) -> Mapping[int, str]:
    """The board per phase as SVG (the renderer is imported only when a board is drawn)."""
    from parlour.games.diplomacy.phase_pictures import phase_pictures

    return phase_pictures(game)


def _picture_now(game: Game) -> str:
    from parlour.games.diplomacy.phase_pictures import board_now

    return board_now(game)


def _apply_flags(values: Mapping[str, str], context: FlagContext) -> FlagEffect:
    """``--pictures DIR``: an SVG and a PNG of the board per phase, written as it runs."""
    from parlour.games.diplomacy.pictures import PicturesObserver

    folder = values.get("pictures")
    return FlagEffect(observers=(PicturesObserver(folder),) if folder is not None else ())


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
    seat_returned=seat_returned,
    chat_purposes=CHAT_PURPOSES,
    metrics=METRICS,
    evaluation=evaluation,
    flags=(
        PlayFlag(
            "pictures",
            "diplomacy: write an SVG+PNG per phase here",
            "PATH",
            commands=frozenset({"watch"}),
        ),
    ),
    apply_flags=_apply_flags,
    pictures=_pictures,
    picture_now=_picture_now,
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
