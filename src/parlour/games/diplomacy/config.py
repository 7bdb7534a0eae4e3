"""The Diplomacy config: every rule variant of a parlour game is a field here."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field, model_validator

from parlour.core.errors import ParlourError
from parlour.core.game_config import validated_config
from parlour.games.diplomacy.board import Phase
from parlour.games.diplomacy.map import GameMap, available_maps, load_map
from parlour.games.diplomacy.personas import PERSONAS


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
    # -- the negotiating bot protocol (docs/diplomacy-bot.md) -------------------------------
    bots: tuple[str, ...] = Field(
        default=(), description="powers played through the bot protocol (plan, talk, finalise)"
    )
    personas: dict[str, str] = Field(
        default_factory=dict,
        description="bot power -> persona (aggressive, cautious, loyal, opportunist, "
        "deceptive); absent: persona-free",
    )
    bots_from: dict[str, str] = Field(
        default_factory=dict,
        description="bot power -> first phase it plays as a bot (a takeover: its journal is "
        "bootstrapped from the public record and its press)",
    )
    humans: tuple[str, ...] = Field(
        default=(), description="powers played by people (bots initiate press only to them)"
    )
    deception: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="share of its own promises a bot may break "
        "(default: the persona's; persona-free 0.2)",
    )
    bot_channel_cap: int = Field(default=2, ge=0, description="bot messages per channel a phase")
    bot_phase_cap: int = Field(default=4, ge=0, description="bot messages per phase")
    bot_bot_replies: int = Field(
        default=1, ge=0, description="replies a bot gives other bots per phase"
    )
    mute: tuple[str, ...] = Field(
        default=(),
        description="bot powers whose talk is off: they open no conversation and answer none "
        "(seat option bot(talk=off):SPEC)",
    )
    bots_talk_to_bots: bool = Field(
        default=False, description="bots may open conversations with other bots"
    )
    window_seconds: float | None = Field(
        default=None, gt=0, description="wall seconds a negotiation window stays open for people"
    )
    takeover_after: int | None = Field(
        default=None,
        ge=1,
        description="a person's power that misses this many window deadlines (window_seconds) "
        "is played by the scripted bot, announced to all, until `resume --seat POWER=human`",
    )
    handed_back: dict[str, str] = Field(
        default_factory=dict,
        description="power -> first phase a person plays again after a takeover (set by "
        "`resume --seat POWER=human`)",
    )

    @model_validator(mode="after")
    def _playable(self) -> DiplomacyConfig:
        if self.map not in available_maps():
            raise ValueError(f"no map '{self.map}'; maps: {', '.join(available_maps())}")
        start = self.game_map().start_year
        if self.end_year < start:
            raise ValueError(f"end_year must be {start} or later, got {self.end_year}")
        powers = self.game_map().powers
        named = (*self.bots, *self.humans, *self.personas, *self.bots_from, *self.handed_back)
        for name in (*named, *self.mute):
            if name not in powers:
                raise ValueError(f"no power '{name}'; powers: {', '.join(powers)}")
        for power, first in (*self.bots_from.items(), *self.handed_back.items()):
            try:
                Phase.parse(first)
            except ValueError:
                raise ValueError(f"bots_from {power}: not a phase name: {first!r}") from None
        for power, persona in self.personas.items():
            if persona not in PERSONAS:
                raise ValueError(
                    f"{power}: no persona '{persona}'; personas: {', '.join(PERSONAS)}"
                )
        return self

    def deception_of(self, power: str) -> float:
        """How many of its own promises a bot may break (0: none, 1: all)."""
        if self.deception is not None:
            return self.deception
        persona = self.personas.get(power)
        return PERSONAS[persona].deception if persona else 0.2

    def breakable(self, power: str, promises: int) -> int:
        """The deception bound: of ``promises`` binding ``power`` in a phase, how many it
        may break (``deception`` × n, rounded half up)."""
        return math.floor(self.deception_of(power) * promises + 0.5)

    def is_bot(self, power: str, phase: str) -> bool:
        """Whether ``power`` plays the bot protocol in ``phase`` (e.g. ``S1903M``)."""
        if power not in self.bots:
            return False
        start = self.bots_from.get(power)
        return start is None or phase_order(start) <= phase_order(phase)

    def game_map(self) -> GameMap:
        return load_map(self.map)


_SEASONS = {"S": 0, "F": 1, "W": 2}
_TYPES = {"M": 0, "R": 1, "A": 2}


def phase_order(phase: str) -> tuple[int, int, int]:
    p = Phase.parse(phase)
    return (p.year, _SEASONS[p.season.value], _TYPES[p.type.value])


def make_config(players: int | None, overrides: dict[str, object]) -> DiplomacyConfig:
    """Validated config. Diplomacy is played by exactly the map's powers (7 on standard)."""
    config = validated_config(DiplomacyConfig, overrides, "diplomacy")
    powers = len(config.game_map().powers)
    if players is not None and players != powers:
        raise ParlourError(
            f"diplomacy is played by exactly {powers} powers, got --players {players}; "
            "drop --players (bots play the powers nobody takes)"
        )
    return config


def bot_options(power: str, options: dict[str, str]) -> dict[str, object]:
    """Config for a seat spec ``bot(persona=P):SPEC`` on ``power`` (docs/diplomacy-bot.md)."""
    unknown = sorted(set(options) - {"persona", "talk"})
    if unknown:
        raise ParlourError(
            f"bot option '{unknown[0]}' is unknown; bot(persona=P,talk=on|off,chat=N,orders=N):"
            f"SPEC with persona one of {', '.join(PERSONAS)}"
        )
    talk = str(options.get("talk", "on")).lower()  # the spec parser reads off as False
    if talk not in ("on", "off", "true", "false"):
        raise ParlourError(f"bot option talk={talk}: write talk=on or talk=off")
    out: dict[str, object] = {"bots": [power]}
    if talk in ("off", "false"):
        out["mute"] = [power]
    persona = options.get("persona")
    if persona is not None:
        out["personas"] = {power: persona}
    return out


def next_bot_phase(phase: str) -> str:
    """The first movement phase after ``phase``: where a takeover bot starts planning."""
    p = Phase.parse(phase)
    if p.season.value == "S":
        return f"F{p.year}M"
    return f"S{p.year + 1}M"
