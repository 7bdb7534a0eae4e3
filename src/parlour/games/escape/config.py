"""Escape's config. It embeds the parsed scenario, so a stored game replays exactly even if
the scenario file is later edited or deleted; ``make_config`` does the (only) file read."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from parlour.core.game_config import content_config
from parlour.games.escape.loader import load_scenario
from parlour.games.escape.scenario import Scenario

DEFAULT_SCENARIO = "ghost_room"
PlayerStrategy = Literal["solver", "explorer"]


class EscapeConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    scenario: Scenario
    max_turns: int = Field(default=40, ge=1, le=1000)
    #: Turns without progress before the narrator's brief carries a hint (0: never).
    hint_after: int = Field(default=3, ge=0)
    #: Player messages and narrations the narrator sees (its recent transcript).
    transcript_window: int = Field(default=12, ge=0)
    act_max_length: int = Field(default=300, ge=20)
    narrate_max_length: int = Field(default=800, ge=80)
    #: How the scripted player plays: a walkthrough bot or a random explorer.
    scripted_player: PlayerStrategy = "solver"
    plant_markers: bool = False


def make_config(players: int | None, overrides: dict[str, object]) -> EscapeConfig:
    """``--set scenario=NAME_OR_PATH`` plus any config field; reads the scenario file."""
    return content_config(
        EscapeConfig,
        players,
        overrides,
        game="escape",
        key="scenario",
        default=DEFAULT_SCENARIO,
        content=Scenario,
        load=load_scenario,
    )
