"""Check our hand-written standard map against the `diplomacy` package's map.

The reference package is a dev-only dependency used purely as a test oracle;
parlour's own code never imports it.
"""

from __future__ import annotations

import pytest

from parlour.games.diplomacy.map import Location, ProvinceKind, UnitType, load_map

diplomacy = pytest.importorskip("diplomacy")

OURS = load_map("standard")


@pytest.fixture(scope="module")
def ref() -> object:
    return diplomacy.Map("standard")


def _our_locations() -> list[Location]:
    locs: list[Location] = []
    for abbrev, prov in OURS.provinces.items():
        if prov.coasts:
            locs.extend(Location(abbrev, c) for c in prov.coasts)
        locs.append(Location(abbrev))
    return locs


def test_same_provinces_types_and_centres(ref: object) -> None:
    ref_types = {loc: t for loc, t in ref.loc_type.items() if loc.isupper() and t != "SHUT"}  # type: ignore[attr-defined]
    ours: dict[str, str] = {}
    kind_name = {ProvinceKind.LAND: "LAND", ProvinceKind.SEA: "WATER", ProvinceKind.COAST: "COAST"}
    for abbrev, prov in OURS.provinces.items():
        if prov.coasts:
            for c in prov.coasts:
                ours[f"{abbrev}/{c}"] = "COAST"
        else:
            ours[abbrev] = kind_name[prov.kind]
    assert ours == ref_types
    assert sorted(OURS.supply_centres) == sorted(ref.scs)  # type: ignore[attr-defined]
    for prov in OURS.provinces.values():
        assert prov.name.upper() in ref.loc_name  # type: ignore[attr-defined]
        assert ref.loc_name[prov.name.upper()] == prov.abbrev  # type: ignore[attr-defined]


def test_same_homes_and_starting_units(ref: object) -> None:
    for power in OURS.powers:
        assert sorted(OURS.home_centres[power]) == sorted(ref.homes[power])  # type: ignore[attr-defined]
    ours = {(su.power, f"{su.unit_type} {su.location}") for su in OURS.starting_units}
    theirs = {(p, u) for p, units in ref.units.items() for u in units}  # type: ignore[attr-defined]
    assert ours == theirs
    assert OURS.start_year == ref.first_year  # type: ignore[attr-defined]


@pytest.mark.parametrize("unit_type", [UnitType.ARMY, UnitType.FLEET])
def test_move_adjacency_matches(ref: object, unit_type: UnitType) -> None:
    mismatches = []
    locs = _our_locations()
    for a in locs:
        if not OURS.can_occupy(unit_type, a):
            continue
        for b in locs:
            if b.province == a.province:
                continue
            if unit_type is UnitType.FLEET and OURS.province(b.province).coasts and not b.coast:
                continue  # fleets always name the coast of a split province
            theirs = bool(ref.abuts(unit_type.value, str(a), "-", str(b)))  # type: ignore[attr-defined]
            ours = OURS.can_move(unit_type, a, b)
            if ours != theirs:
                mismatches.append((str(a), str(b), ours, theirs))
    assert mismatches == []


@pytest.mark.parametrize("unit_type", [UnitType.ARMY, UnitType.FLEET])
def test_support_reach_matches(ref: object, unit_type: UnitType) -> None:
    mismatches = []
    for a in _our_locations():
        if not OURS.can_occupy(unit_type, a):
            continue
        reach = OURS.reachable_provinces(unit_type, a)
        for prov in OURS.provinces:
            if prov == a.province:
                continue
            theirs = bool(ref.abuts(unit_type.value, str(a), "S", prov))  # type: ignore[attr-defined]
            if (prov in reach) != theirs:
                mismatches.append((str(a), prov, prov in reach, theirs))
    assert mismatches == []


def test_convoy_routes_match_reference_paths(ref: object) -> None:
    """With every sea occupied, our minimal convoy routes equal the reference's path table."""
    seas = frozenset(p for p, v in OURS.provinces.items() if v.kind is ProvinceKind.SEA)
    theirs: dict[tuple[str, str], set[str]] = {}
    for bucket in ref.convoy_paths.values():  # type: ignore[attr-defined]
        for start, fleets, dests in bucket:
            for d in dests:
                theirs.setdefault((start, d), set()).update(fleets)
    ours: dict[tuple[str, str], set[str]] = {}
    for origin, prov in OURS.provinces.items():
        if prov.kind is not ProvinceKind.COAST:
            continue
        for dest, fleets in OURS.convoy_routes(origin, seas).items():
            ours[(origin, dest)] = set(fleets)
    assert ours == theirs
