"""What a game package exports so the runtime and CLI can use it without knowing its rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel

from parlour.core.game import Game
from parlour.core.policy import Policy
from parlour.core.prompting import Prompter


@dataclass(frozen=True)
class GameModule:
    game: type[Game]
    #: The scripted policy for any seat of this game (reads the seat's role from its view).
    policy: Policy
    #: Builds the layered prompt parts for LLM seats.
    prompter: Prompter
    #: ``make_config(players, overrides)`` → a validated config for ``game.new``.
    make_config: Callable[[int | None, dict[str, object]], BaseModel]
