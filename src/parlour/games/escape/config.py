"""Escape's config. It embeds the parsed scenario, so a stored game replays exactly even if
the scenario file is later edited or deleted; ``make_config`` does the (only) file read."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from parlour.core.errors import ParlourError
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
    if players not in (None, 1):
        raise ParlourError(f"escape is played by one player, not {players}; drop --players")
    options = dict(overrides)
    source = options.pop("scenario", DEFAULT_SCENARIO)
    if isinstance(source, Scenario):
        scenario = source
    elif isinstance(source, str):
        scenario = load_scenario(source)
    else:
        raise ParlourError("--set scenario= takes a shipped scenario name or a path to a .yaml")
    unknown = sorted(set(options) - set(EscapeConfig.model_fields))
    if unknown:
        allowed = ", ".join(sorted(EscapeConfig.model_fields))
        raise ParlourError(f"unknown escape option(s) {', '.join(unknown)}; options: {allowed}")
    try:
        return EscapeConfig.model_validate({**options, "scenario": scenario})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ParlourError(f"bad escape option {where}: {first['msg']}") from err
