"""Diplomacy map geography, loaded from a data file into frozen dataclasses.

A map is pure data (``data/<name>.yaml``): provinces, coasts, adjacency per unit
type, home centres and starting units. This module validates it and precomputes
the lookup tables the adjudicator and the legal-order enumerator need, so that
per-phase work is only dictionary lookups.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

import yaml


class MapDataError(ValueError):
    """The map data file is malformed or inconsistent."""


class UnitType(enum.StrEnum):
    ARMY = "A"
    FLEET = "F"

    @property
    def noun(self) -> str:
        return "Army" if self is UnitType.ARMY else "Fleet"


class ProvinceKind(enum.StrEnum):
    LAND = "land"  # inland: armies only
    SEA = "sea"  # water: fleets only
    COAST = "coast"  # coastal: both


class Location(NamedTuple):
    """A province, plus a coast for fleets in split-coast provinces ("" otherwise).

    An immutable value (a NamedTuple rather than a dataclass so hashing and
    comparison run at C speed: locations key most of the hot lookup tables).
    """

    province: str
    coast: str = ""

    def __str__(self) -> str:
        return f"{self.province}/{self.coast}" if self.coast else self.province

    @classmethod
    def parse(cls, text: str) -> Location:
        """Parse ``STP/SC``, ``STP(SC)``, ``stp/sc`` or ``PAR`` (syntax only, no map check)."""
        raw = text.strip().upper()
        if raw.endswith(")") and "(" in raw:
            prov, _, coast = raw[:-1].partition("(")
        else:
            prov, _, coast = raw.partition("/")
        prov, coast = prov.strip(), coast.strip()
        if not prov.isalpha() or (coast and not coast.isalpha()):
            raise ValueError(f"not a location: {text!r}")
        return cls(prov, coast)


@dataclass(frozen=True, slots=True)
class Province:
    abbrev: str
    name: str
    kind: ProvinceKind
    supply_centre: bool
    home_power: str | None
    coasts: tuple[str, ...]  # non-empty only for split-coast provinces


@dataclass(frozen=True, slots=True)
class StartingUnit:
    power: str
    unit_type: UnitType
    location: Location


_NO_ROUTES: Mapping[str, frozenset[str]] = MappingProxyType({})
_NO_SEAS: frozenset[str] = frozenset()


def _empty_cache() -> dict[tuple[str, frozenset[str]], Mapping[str, frozenset[str]]]:
    return {}


@dataclass(frozen=True, eq=False)
class GameMap:
    """Validated map geography with precomputed adjacency tables.

    Army adjacency is between provinces; fleet adjacency is between locations
    (coast-aware). Derived tables are filled in ``__post_init__``.
    """

    name: str
    start_year: int
    victory_centres: int
    powers: tuple[str, ...]
    adjectives: Mapping[str, str]
    provinces: Mapping[str, Province]
    coast_names: Mapping[str, str]
    army_adjacency: Mapping[str, frozenset[str]]
    fleet_adjacency: Mapping[Location, frozenset[Location]]
    home_centres: Mapping[str, tuple[str, ...]]
    starting_units: tuple[StartingUnit, ...]

    # Derived tables (not constructor arguments).
    supply_centres: tuple[str, ...] = field(init=False)
    fleet_locations: Mapping[str, tuple[Location, ...]] = field(init=False)
    army_targets: Mapping[str, tuple[Location, ...]] = field(init=False)
    fleet_targets: Mapping[Location, tuple[Location, ...]] = field(init=False)
    army_reach: Mapping[str, frozenset[str]] = field(init=False)
    fleet_reach: Mapping[Location, frozenset[str]] = field(init=False)
    province_neighbours: Mapping[str, frozenset[str]] = field(init=False)
    coast_seas: Mapping[str, frozenset[str]] = field(init=False)
    sea_seas: Mapping[str, frozenset[str]] = field(init=False)
    sea_coasts: Mapping[str, frozenset[str]] = field(init=False)
    sea_provinces: frozenset[str] = field(init=False)
    supply_centre_set: frozenset[str] = field(init=False)
    _route_cache: dict[tuple[str, frozenset[str]], Mapping[str, frozenset[str]]] = field(
        init=False, repr=False, default_factory=_empty_cache
    )

    def __post_init__(self) -> None:
        setv = object.__setattr__
        provs = self.provinces
        setv(
            self,
            "sea_provinces",
            frozenset(p for p, v in provs.items() if v.kind is ProvinceKind.SEA),
        )
        setv(
            self,
            "supply_centre_set",
            frozenset(p for p, v in provs.items() if v.supply_centre),
        )
        setv(self, "supply_centres", tuple(sorted(p for p, v in provs.items() if v.supply_centre)))
        fleet_locs: dict[str, tuple[Location, ...]] = {}
        for abbrev, prov in provs.items():
            if prov.kind is ProvinceKind.LAND:
                fleet_locs[abbrev] = ()
            elif prov.coasts:
                fleet_locs[abbrev] = tuple(Location(abbrev, c) for c in prov.coasts)
            else:
                fleet_locs[abbrev] = (Location(abbrev),)
        setv(self, "fleet_locations", fleet_locs)
        setv(
            self,
            "army_targets",
            {p: tuple(Location(q) for q in sorted(adj)) for p, adj in self.army_adjacency.items()},
        )
        setv(
            self,
            "fleet_targets",
            {loc: tuple(sorted(adj)) for loc, adj in self.fleet_adjacency.items()},
        )
        setv(self, "army_reach", dict(self.army_adjacency))
        setv(
            self,
            "fleet_reach",
            {loc: frozenset(t.province for t in adj) for loc, adj in self.fleet_adjacency.items()},
        )
        neighbours: dict[str, set[str]] = {p: set() for p in provs}
        for p, adj in self.army_adjacency.items():
            neighbours[p] |= adj
        for loc, fadj in self.fleet_adjacency.items():
            neighbours[loc.province] |= {t.province for t in fadj}
        setv(self, "province_neighbours", {p: frozenset(n) for p, n in neighbours.items()})
        # Province-level sea links, used for convoy routes (an army embarks from
        # any coast of its province).
        coast_seas: dict[str, set[str]] = {}
        sea_seas: dict[str, set[str]] = {}
        sea_coasts: dict[str, set[str]] = {}
        for loc, fadj in self.fleet_adjacency.items():
            src = provs[loc.province]
            for tgt in fadj:
                dst = provs[tgt.province]
                if src.kind is ProvinceKind.SEA and dst.kind is ProvinceKind.SEA:
                    sea_seas.setdefault(src.abbrev, set()).add(dst.abbrev)
                elif src.kind is ProvinceKind.SEA:
                    sea_coasts.setdefault(src.abbrev, set()).add(dst.abbrev)
                elif dst.kind is ProvinceKind.SEA:
                    coast_seas.setdefault(src.abbrev, set()).add(dst.abbrev)
        setv(self, "coast_seas", {p: frozenset(s) for p, s in coast_seas.items()})
        setv(self, "sea_seas", {p: frozenset(s) for p, s in sea_seas.items()})
        setv(self, "sea_coasts", {p: frozenset(s) for p, s in sea_coasts.items()})

    # --- simple queries ---------------------------------------------------

    def province(self, abbrev: str) -> Province:
        try:
            return self.provinces[abbrev]
        except KeyError:
            raise KeyError(f"unknown province {abbrev!r} on map {self.name!r}") from None

    def is_sea(self, province: str) -> bool:
        prov = self.provinces.get(province)
        return prov is not None and prov.kind is ProvinceKind.SEA

    def is_coastal(self, province: str) -> bool:
        prov = self.provinces.get(province)
        return prov is not None and prov.kind is ProvinceKind.COAST

    def coasts(self, province: str) -> tuple[str, ...]:
        return self.province(province).coasts

    def home_power(self, province: str) -> str | None:
        return self.province(province).home_power

    def can_occupy(self, unit_type: UnitType, loc: Location) -> bool:
        """Whether a unit of this type may stand at ``loc`` (coast given iff required)."""
        prov = self.provinces.get(loc.province)
        if prov is None:
            return False
        if unit_type is UnitType.ARMY:
            return prov.kind is not ProvinceKind.SEA and not loc.coast
        return loc in self.fleet_adjacency

    def can_move(self, unit_type: UnitType, from_loc: Location, to_loc: Location) -> bool:
        """Direct (non-convoyed) move adjacency; fleets are coast-sensitive."""
        if unit_type is UnitType.ARMY:
            adj = self.army_adjacency.get(from_loc.province)
            return adj is not None and not to_loc.coast and to_loc.province in adj
        fadj = self.fleet_adjacency.get(from_loc)
        return fadj is not None and to_loc in fadj

    def move_targets(self, unit_type: UnitType, loc: Location) -> tuple[Location, ...]:
        """Every location a unit at ``loc`` may move to directly, sorted."""
        if unit_type is UnitType.ARMY:
            return self.army_targets.get(loc.province, ())
        return self.fleet_targets.get(loc, ())

    def reachable_provinces(self, unit_type: UnitType, loc: Location) -> frozenset[str]:
        """Provinces a unit at ``loc`` could move to directly (any coast): its support reach."""
        if unit_type is UnitType.ARMY:
            return self.army_reach.get(loc.province, frozenset())
        return self.fleet_reach.get(loc, frozenset())

    def fleet_coasts_reachable(self, from_loc: Location, province: str) -> tuple[Location, ...]:
        """Locations in ``province`` a fleet at ``from_loc`` can move to."""
        return tuple(t for t in self.fleet_targets.get(from_loc, ()) if t.province == province)

    def location_name(self, loc: Location) -> str:
        name = self.province(loc.province).name
        if loc.coast:
            return f"{name} ({self.coast_names.get(loc.coast, loc.coast)})"
        return name

    def parse_location(self, text: str) -> Location:
        """Parse a location and check the province and coast exist on this map."""
        loc = Location.parse(text)
        prov = self.provinces.get(loc.province)
        if prov is None:
            raise ValueError(f"unknown province {loc.province!r}")
        if loc.coast and loc.coast not in prov.coasts:
            raise ValueError(f"{prov.name} has no coast {loc.coast!r}")
        return loc

    # --- convoys ----------------------------------------------------------

    def convoy_routes(self, origin: str, fleets: frozenset[str]) -> Mapping[str, frozenset[str]]:
        """Where an army in ``origin`` could be convoyed by fleets in the sea provinces ``fleets``.

        Returns destination province -> the fleets that lie on at least one
        *minimal* route there (a route none of whose fleets can be dropped).
        A convoy order from a fleet outside every minimal route is illegal
        (DATC 4.E.1, 6.G.19). Minimal routes are exactly the induced paths
        through the sea graph whose only contact with the origin is the first
        fleet and with the destination the last fleet.
        """
        origin_seas = self.coast_seas.get(origin)
        if origin_seas is None or fleets.isdisjoint(origin_seas):
            return _NO_ROUTES
        # Only fleets connected to the origin matter: key the cache on those, so
        # fleets moving elsewhere on the board do not invalidate it.
        reachable = self._connected_fleets(origin_seas, fleets)
        key = (origin, reachable)
        cached = self._route_cache.get(key)
        if cached is not None:
            return cached
        fleets = reachable
        if len(self._route_cache) > 100_000:
            self._route_cache.clear()  # bound memory over very long runs
        result: dict[str, set[str]] = {}
        if self.is_coastal(origin):
            sea_seas, sea_coasts = self.sea_seas, self.sea_coasts
            empty: frozenset[str] = frozenset()
            path: list[str] = []

            def extend(
                sea: str, banned_coasts: frozenset[str], banned_seas: frozenset[str]
            ) -> None:
                # banned_*: neighbours of the fleets before ``sea`` on the path (and,
                # for seas, of the origin): touching them would make a shortcut.
                path.append(sea)
                coasts = sea_coasts.get(sea, empty)
                for dest in coasts:
                    if dest != origin and dest not in banned_coasts:
                        result.setdefault(dest, set()).update(path)
                seas = sea_seas.get(sea, empty)
                nxt_coasts = banned_coasts | coasts
                nxt_seas = banned_seas | seas
                for nxt in seas:
                    if nxt in fleets and nxt not in banned_seas and nxt not in path:
                        extend(nxt, nxt_coasts, nxt_seas)
                path.pop()

            for first in sorted(origin_seas & fleets):
                extend(first, empty, origin_seas)
        frozen = {d: frozenset(f) for d, f in result.items()}
        self._route_cache[key] = frozen
        return frozen

    def _connected_fleets(self, start: frozenset[str], fleets: frozenset[str]) -> frozenset[str]:
        """The fleets in ``fleets`` reachable through fleet-occupied seas from ``start``."""
        frontier = [f for f in start if f in fleets]
        seen = set(frontier)
        sea_seas = self.sea_seas
        while frontier:
            for n in sea_seas.get(frontier.pop(), _NO_SEAS):
                if n in fleets and n not in seen:
                    seen.add(n)
                    frontier.append(n)
        return fleets if len(seen) == len(fleets) else frozenset(seen)


# --- loading ----------------------------------------------------------------


def _str_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MapDataError(f"{where}: expected a list of strings")
    return [v.strip().upper() for v in value]


_Node = TypeVar("_Node", str, Location)


def _check_edges(
    edges: Mapping[_Node, set[_Node]],
    kind: str,
    node_kind: str,
    same_place: Callable[[_Node, _Node], bool],
    itself: str,
) -> None:
    """Every edge of one unit type joins two known nodes, is listed from both ends and
    leaves its own place (``same_place``)."""
    for a, adj in edges.items():
        for b in adj:
            if b not in edges:
                raise MapDataError(f"{kind} edge {a}-{b}: {b} is not {node_kind}")
            if a not in edges[b]:
                raise MapDataError(f"{kind} edge {a}-{b} is not listed from {b}")
            if same_place(a, b):
                raise MapDataError(f"{a} is adjacent to {itself}")


def map_from_dict(raw: Mapping[str, Any]) -> GameMap:
    """Build and validate a :class:`GameMap` from parsed map data."""
    try:
        name = str(raw["name"])
        start_year = int(raw["start_year"])
        victory = int(raw["victory_centres"])
        raw_powers = raw["powers"]
        raw_provs = raw["provinces"]
    except (KeyError, TypeError, ValueError) as exc:
        raise MapDataError(f"map data missing or bad top-level field: {exc}") from exc
    coast_names = {str(k).upper(): str(v) for k, v in (raw.get("coast_names") or {}).items()}

    homes: dict[str, tuple[str, ...]] = {}
    adjectives: dict[str, str] = {}
    home_of: dict[str, str] = {}
    unit_specs: list[tuple[str, str]] = []
    for power, spec in raw_powers.items():
        power = str(power).upper()
        homes[power] = tuple(sorted(_str_list(spec.get("home", []), f"{power}.home")))
        adjectives[power] = str(spec.get("adjective", power.title()))
        for h in homes[power]:
            if h in home_of:
                raise MapDataError(f"{h} is a home centre of both {home_of[h]} and {power}")
            home_of[h] = power
        unit_specs.extend((power, u) for u in _str_list(spec.get("units", []), f"{power}.units"))

    provinces: dict[str, Province] = {}
    army_edges: dict[str, set[str]] = {}
    fleet_edges: dict[Location, set[Location]] = {}
    for abbrev, spec in raw_provs.items():
        abbrev = str(abbrev).upper()
        try:
            kind = ProvinceKind(str(spec["type"]))
        except (KeyError, ValueError) as exc:
            raise MapDataError(f"{abbrev}: bad or missing type") from exc
        coasts_spec = spec.get("coasts") or {}
        coasts = tuple(sorted(str(c).upper() for c in coasts_spec))
        if coasts and kind is not ProvinceKind.COAST:
            raise MapDataError(f"{abbrev}: only coastal provinces can have split coasts")
        provinces[abbrev] = Province(
            abbrev=abbrev,
            name=str(spec.get("name", abbrev)),
            kind=kind,
            supply_centre=bool(spec.get("centre", False)),
            home_power=home_of.get(abbrev),
            coasts=coasts,
        )
        if kind is not ProvinceKind.SEA:
            army_edges[abbrev] = set(_str_list(spec.get("army", []), f"{abbrev}.army"))
        elif "army" in spec:
            raise MapDataError(f"{abbrev}: a sea has no army adjacency")
        if kind is ProvinceKind.LAND:
            if "fleet" in spec:
                raise MapDataError(f"{abbrev}: an inland province has no fleet adjacency")
        elif coasts:
            if "fleet" in spec:
                raise MapDataError(f"{abbrev}: split-coast province lists fleets per coast")
            for coast, targets in coasts_spec.items():
                loc = Location(abbrev, str(coast).upper())
                fleet_edges[loc] = {
                    Location.parse(t) for t in _str_list(targets, f"{abbrev}/{coast}")
                }
        else:
            fleet_edges[Location(abbrev)] = {
                Location.parse(t) for t in _str_list(spec.get("fleet", []), f"{abbrev}.fleet")
            }

    for h, power in home_of.items():
        if h not in provinces or not provinces[h].supply_centre:
            raise MapDataError(f"home centre {h} of {power} is not a supply centre")
    _check_edges(army_edges, "army", "a land or coastal province", operator.eq, "itself")
    _check_edges(
        fleet_edges,
        "fleet",
        "a fleet location",
        lambda a, b: a.province == b.province,
        "its own province",
    )

    starting: list[StartingUnit] = []
    occupied: set[str] = set()
    for power, text in unit_specs:
        utype_s, _, loc_s = text.partition(" ")
        try:
            utype = UnitType(utype_s)
            loc = Location.parse(loc_s)
        except ValueError as exc:
            raise MapDataError(f"bad starting unit {text!r} for {power}") from exc
        if loc.province in occupied:
            raise MapDataError(f"two starting units in {loc.province}")
        occupied.add(loc.province)
        starting.append(StartingUnit(power, utype, loc))

    game_map = GameMap(
        name=name,
        start_year=start_year,
        victory_centres=victory,
        powers=tuple(sorted(homes)),
        adjectives=adjectives,
        provinces=provinces,
        coast_names=coast_names,
        army_adjacency={p: frozenset(a) for p, a in army_edges.items()},
        fleet_adjacency={loc: frozenset(a) for loc, a in fleet_edges.items()},
        home_centres=homes,
        starting_units=tuple(starting),
    )
    for su in game_map.starting_units:
        if not game_map.can_occupy(su.unit_type, su.location):
            raise MapDataError(f"starting unit {su.unit_type} {su.location} cannot stand there")
    return game_map


def available_maps() -> tuple[str, ...]:
    folder = resources.files("parlour.games.diplomacy") / "data"
    names: Iterable[str] = (
        p.name[: -len(".yaml")] for p in folder.iterdir() if p.name.endswith(".yaml")
    )
    return tuple(sorted(names))


def load_map(name: str = "standard") -> GameMap:
    """Load (once per process) and validate the named map from ``data/<name>.yaml``.

    Always returns the same object for a name, so per-map caches are shared.
    """
    return _load_map(name)


@cache
def _load_map(name: str) -> GameMap:
    return map_from_dict(load_data_mapping(f"{name}.yaml", "map", name, MapDataError))


def load_data_mapping(
    file: str, what: str, name: str, error: type[ValueError]
) -> Mapping[str, Any]:
    """The mapping in the shipped data file ``data/<file>``; ``KeyError`` when there is no
    such file, ``error`` when its top level is not a mapping."""
    path = resources.files("parlour.games.diplomacy") / "data" / file
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise KeyError(f"no Diplomacy {what} named {name!r}") from None
    raw = yaml.safe_load(text)
    if not isinstance(raw, Mapping):
        raise error(f"{what} {name!r}: top level must be a mapping")
    return raw


def standard_map() -> GameMap:
    return load_map("standard")
