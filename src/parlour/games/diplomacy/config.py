"""The Diplomacy config: every rule variant of a parlour game is a field here."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from parlour.core.errors import ParlourError
from parlour.games.diplomacy.map import GameMap, available_maps, load_map


class DiplomacyConfig(BaseModel):
    """Rules of one game. Defaults: the standard map, no press, a draw after 1910."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    map: str = Field(default="standard", description="map data file (data/<map>.yaml)")
    end_year: int = Field(
        default=1910,
        description="after this year's Winter adjustments the game ends in a draw "
        "(a solo victory ends it sooner)",
    )
    victory_centres: int | None = Field(
        default=None, ge=1, description="centres for a solo victory (default: the map's, 18)"
    )
    press_rounds: int = Field(
        default=0, ge=0, le=10, description="rounds of press before each movement phase's orders"
    )
    press_max_messages: int = Field(
        default=3, ge=1, le=20, description="messages a power may send per press round"
    )
    press_max_length: int = Field(default=400, ge=10, le=4000, description="characters a message")
    plant_markers: bool = Field(default=False, description="plant leak markers in secrets")

    @model_validator(mode="after")
    def _playable(self) -> DiplomacyConfig:
        if self.map not in available_maps():
            raise ValueError(f"no map '{self.map}'; maps: {', '.join(available_maps())}")
        start = self.game_map().start_year
        if self.end_year < start:
            raise ValueError(f"end_year must be {start} or later, got {self.end_year}")
        return self

    def game_map(self) -> GameMap:
        return load_map(self.map)


def make_config(players: int | None, overrides: dict[str, object]) -> DiplomacyConfig:
    """Validated config. Diplomacy is played by exactly the map's powers (7 on standard)."""
    try:
        config = DiplomacyConfig.model_validate(dict(overrides))
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            message = "unknown setting; known: " + ", ".join(DiplomacyConfig.model_fields)
        prefix = f"{where}: " if where else ""
        raise ParlourError(f"diplomacy config: {prefix}{message}") from None
    powers = len(config.game_map().powers)
    if players is not None and players != powers:
        raise ParlourError(
            f"diplomacy is played by exactly {powers} powers, got --players {players}; "
            "drop --players (bots play the powers nobody takes)"
        )
    return config
