"""Immutable Diplomacy board state: phase, units, dislodged units, centre ownership.

A :class:`Board` is a value: the adjudicator returns a new one for each phase.
It round-trips through plain JSON-compatible dicts for event logs and snapshots.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .map import GameMap, Location, UnitType, load_map


class Season(enum.StrEnum):
    SPRING = "S"
    FALL = "F"
    WINTER = "W"


class PhaseType(enum.StrEnum):
    MOVEMENT = "M"
    RETREATS = "R"
    ADJUSTMENTS = "A"


_SEASON_NAMES = {Season.SPRING: "Spring", Season.FALL: "Fall", Season.WINTER: "Winter"}
_TYPE_NAMES = {
    PhaseType.MOVEMENT: "Movement",
    PhaseType.RETREATS: "Retreats",
    PhaseType.ADJUSTMENTS: "Adjustments",
}
COMPLETED = "COMPLETED"


@dataclass(frozen=True, slots=True)
class Phase:
    year: int
    season: Season
    type: PhaseType

    @property
    def name(self) -> str:
        """Short name in the usual notation, e.g. ``S1901M``, ``F1902R``, ``W1902A``."""
        return f"{self.season}{self.year}{self.type}"

    @property
    def long_name(self) -> str:
        return f"{_SEASON_NAMES[self.season]} {self.year} {_TYPE_NAMES[self.type]}"

    @classmethod
    def parse(cls, name: str) -> Phase:
        text = name.strip().upper()
        try:
            return cls(int(text[1:-1]), Season(text[0]), PhaseType(text[-1]))
        except (ValueError, IndexError):
            raise ValueError(f"not a phase name: {name!r}") from None

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Unit:
    power: str
    type: UnitType
    location: Location
    # "A PAR" / "F STP/SC", kept because order listing formats units constantly.
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"{self.type.value} {self.location}")

    @property
    def province(self) -> str:
        return self.location.province

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class DislodgedUnit:
    """A unit dislodged in the last movement phase, waiting to retreat or disband."""

    unit: Unit
    attacker_from: str  # province the dislodging unit came from
    via_convoy: bool  # the dislodging unit arrived by convoy
    retreats: tuple[Location, ...]  # legal retreat destinations, sorted

    @property
    def province(self) -> str:
        return self.unit.province


def _frozen_centres(centres: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(sorted(centres.items())))


@dataclass(frozen=True)
class Board:
    """The full game position at the start of ``phase``.

    ``centres`` maps each *owned* supply centre to its owner. ``finished`` is
    set once the game is over (solo victory or end year); ``winner`` names the
    soloist, if any.
    """

    game_map: GameMap = field(repr=False, compare=False)
    phase: Phase
    units: tuple[Unit, ...]
    centres: Mapping[str, str]
    dislodged: tuple[DislodgedUnit, ...] = ()
    finished: bool = False
    winner: str | None = None
    _unit_at: dict[str, Unit] = field(init=False, repr=False, compare=False)
    # Scratch space for data derived from this (immutable) board, e.g. legal-order
    # tables, so repeated queries on the same position are cheap.
    _derived: dict[str, object] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        units = tuple(sorted(self.units, key=_unit_key))
        index: dict[str, Unit] = {}
        for u in units:
            prov = u.location.province
            if prov in index:
                raise ValueError(f"two units in {prov}: {index[prov]} and {u}")
            index[prov] = u
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "dislodged", tuple(sorted(self.dislodged, key=_dislodged_key)))
        object.__setattr__(self, "centres", _frozen_centres(self.centres))
        object.__setattr__(self, "_unit_at", index)
        object.__setattr__(self, "_derived", {})

    # --- queries ----------------------------------------------------------

    @property
    def phase_name(self) -> str:
        """``S1901M``-style name, or ``COMPLETED`` once the game is over."""
        return COMPLETED if self.finished else self.phase.name

    def unit_at(self, province: str) -> Unit | None:
        return self._unit_at.get(province)

    def units_of(self, power: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.power == power)

    def dislodged_of(self, power: str) -> tuple[DislodgedUnit, ...]:
        return tuple(d for d in self.dislodged if d.unit.power == power)

    def dislodged_at(self, province: str) -> DislodgedUnit | None:
        for d in self.dislodged:
            if d.province == province:
                return d
        return None

    def centres_of(self, power: str) -> tuple[str, ...]:
        by_power = self._derived.get("centres_by_power")
        if not isinstance(by_power, dict):
            lists: dict[str, list[str]] = {}
            for c, p in self.centres.items():
                lists.setdefault(p, []).append(c)
            by_power = {p: tuple(cs) for p, cs in lists.items()}
            self._derived["centres_by_power"] = by_power
        found: tuple[str, ...] = by_power.get(power, ())
        return found

    def centre_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(self.game_map.powers, 0)
        for owner in self.centres.values():
            counts[owner] = counts.get(owner, 0) + 1
        return counts

    def adjustment_delta(self, power: str) -> int:
        """Centres minus units: >0 builds owed (before the home-centre limit), <0 removals."""
        return len(self.centres_of(power)) - len(self.units_of(power))

    def is_eliminated(self, power: str) -> bool:
        return not self.units_of(power) and not self.centres_of(power)

    # --- serialisation ----------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-compatible snapshot (maps are referred to by name)."""
        powers = self.game_map.powers
        return {
            "map": self.game_map.name,
            "phase": self.phase.name,
            "units": {p: [str(u) for u in self.units if u.power == p] for p in powers},
            "centres": {p: [c for c, o in self.centres.items() if o == p] for p in powers},
            "dislodged": [
                {
                    "power": d.unit.power,
                    "unit": str(d.unit),
                    "attacker_from": d.attacker_from,
                    "via_convoy": d.via_convoy,
                    "retreats": [str(r) for r in d.retreats],
                }
                for d in self.dislodged
            ],
            "finished": self.finished,
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], game_map: GameMap | None = None) -> Board:
        gm = game_map if game_map is not None else load_map(str(data.get("map", "standard")))
        units = [
            _parse_unit(power, text, gm)
            for power, texts in dict(data.get("units", {})).items()
            for text in texts
        ]
        centres = {c: power for power, cs in dict(data.get("centres", {})).items() for c in cs}
        dislodged = [
            DislodgedUnit(
                unit=_parse_unit(str(d["power"]), str(d["unit"]), gm),
                attacker_from=str(d["attacker_from"]),
                via_convoy=bool(d.get("via_convoy", False)),
                retreats=tuple(gm.parse_location(r) for r in d.get("retreats", [])),
            )
            for d in data.get("dislodged", [])
        ]
        winner = data.get("winner")
        return cls(
            game_map=gm,
            phase=Phase.parse(str(data["phase"])),
            units=tuple(units),
            centres=centres,
            dislodged=tuple(dislodged),
            finished=bool(data.get("finished", False)),
            winner=None if winner is None else str(winner),
        )


def _unit_key(u: Unit) -> Location:
    return u.location


def _dislodged_key(d: DislodgedUnit) -> tuple[str, str]:
    return (d.unit.location.province, d.unit.location.coast)


def _parse_unit(power: str, text: str, game_map: GameMap) -> Unit:
    type_s, _, loc_s = text.strip().partition(" ")
    unit_type = UnitType(type_s.upper())
    loc = game_map.parse_location(loc_s)
    if not game_map.can_occupy(unit_type, loc):
        raise ValueError(f"{text!r} cannot stand there")
    if power not in game_map.powers:
        raise ValueError(f"unknown power {power!r}")
    return Unit(power, unit_type, loc)


def make_board(
    game_map: GameMap,
    phase: Phase | str,
    units: Mapping[str, Iterable[str]],
    centres: Mapping[str, Iterable[str]] | None = None,
) -> Board:
    """Build a board from ``{"FRANCE": ["A PAR", "F BRE"]}``-style data (tests, puzzles)."""
    ph = Phase.parse(phase) if isinstance(phase, str) else phase
    unit_list = [_parse_unit(p, t, game_map) for p, texts in units.items() for t in texts]
    owned = {c: p for p, cs in (centres or {}).items() for c in cs}
    return Board(game_map=game_map, phase=ph, units=tuple(unit_list), centres=owned)


def initial_board(game_map: GameMap | None = None) -> Board:
    """The starting position: Spring of the map's first year, home centres owned."""
    gm = game_map if game_map is not None else load_map("standard")
    units = tuple(Unit(su.power, su.unit_type, su.location) for su in gm.starting_units)
    centres = {c: p for p, homes in gm.home_centres.items() for c in homes}
    return Board(
        game_map=gm,
        phase=Phase(gm.start_year, Season.SPRING, PhaseType.MOVEMENT),
        units=units,
        centres=centres,
    )
