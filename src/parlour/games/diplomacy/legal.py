"""Legal orders: complete enumeration per unit, and validation with reasons.

"Legal" follows DATC 4.E.1: an order that, not knowing the other orders,
could be valid. So a move needing a convoy is legal when fleets at sea could
form a route (DATC 6.D.8/6.D.32), a convoy order is legal only from a fleet on
some minimal route (6.G.19), and a support is legal only if the supporter could
move to the destination and the supported unit could get there without using
the supporter as a convoying fleet (6.D.31, 6.D.34). Illegal orders are
rejected by :func:`validate_order` with an :class:`IllegalOrderError` naming the
reason; the adjudicator treats a rejected order as if no order was given.

Enumeration is precomputed-table driven and cached per (immutable) board, and
:class:`LegalOrder` objects are interned per map, so listing every power's
orders each phase stays cheap.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter

from .board import Board, DislodgedUnit, Phase, PhaseType, Unit
from .map import GameMap, Location, ProvinceKind, UnitType
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    OrderParseError,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    parse_order,
)


class IllegalOrderError(ValueError):
    """An order that cannot be given in this position; ``reason`` says why."""

    def __init__(self, order: str, reason: str) -> None:
        super().__init__(f"{order}: {reason}" if order else reason)
        self.order = order
        self.reason = reason


@dataclass(frozen=True)
class LegalOrder:
    """A legal order with its canonical text and (lazily built) human-readable label."""

    order: Order
    text: str  # canonical order string, e.g. "A PAR - BUR"
    game_map: GameMap = field(repr=False, compare=False)

    @cached_property
    def label(self) -> str:
        """Human-readable, e.g. "Army Paris moves to Burgundy"."""
        return describe_order(self.order, self.game_map)


@dataclass(frozen=True)
class PowerOptions:
    """Everything one power may order in the board's phase.

    Movement and retreat phases: ``units`` maps each orderable unit (``"A PAR"``)
    to its complete, sorted list of legal orders. Adjustment phase:
    ``adjustment_count`` is the number of builds allowed (>0) or removals
    required (<0), and ``adjustments`` lists the legal build/removal/waive
    orders to choose that many from.
    """

    power: str
    phase: Phase
    units: Mapping[str, tuple[LegalOrder, ...]]
    adjustments: tuple[LegalOrder, ...] = ()
    adjustment_count: int = 0

    @property
    def has_orders(self) -> bool:
        return bool(self.units) or self.adjustment_count != 0

    def texts(self) -> dict[str, list[str]]:
        """Plain ``{unit: [order text, ...]}`` view (adjustments under ``"ADJUST"``)."""
        out = {k: [lo.text for lo in v] for k, v in self.units.items()}
        if self.adjustments:
            out["ADJUST"] = [lo.text for lo in self.adjustments]
        return out


# --- labels ----------------------------------------------------------------


def describe_order(order: Order, game_map: GameMap) -> str:
    """A sentence for an order, e.g. 'Army Munich supports Army Paris moving to Burgundy'."""
    if isinstance(order, Waive):
        return "Waive a build"
    name = game_map.location_name
    who = f"{order.unit_type.noun} {name(order.location)}"
    if isinstance(order, Hold):
        return f"{who} holds"
    if isinstance(order, Move):
        how = ""
        if order.unit_type is UnitType.ARMY and not game_map.can_move(
            UnitType.ARMY, order.location, order.dest
        ):
            how = " by convoy"
        elif order.via_convoy:
            how = " via convoy"
        return f"{who} moves to {name(order.dest)}{how}"
    if isinstance(order, SupportHold):
        return f"{who} supports {order.target_type.noun} {name(Location(order.target))} to hold"
    if isinstance(order, SupportMove):
        return (
            f"{who} supports {order.target_type.noun} {name(Location(order.target))} "
            f"moving to {name(order.dest)}"
        )
    if isinstance(order, Convoy):
        return (
            f"{who} convoys Army {name(Location(order.army_from))} "
            f"to {name(Location(order.army_to))}"
        )
    if isinstance(order, Retreat):
        return f"{who} retreats to {name(order.dest)}"
    if isinstance(order, Disband):
        return f"{who} disbands"
    return f"Build {order.unit_type.noun} in {name(order.location)}"


class _Interned:
    """Per-map LegalOrder objects keyed by canonical text.

    Enumeration builds each candidate's text with one f-string and looks it up,
    so a phase costs a string build and a dict hit per legal order. On a miss
    the order is built from the parts at hand (no parsing) and the label waits
    until someone reads it.
    """

    def __init__(self, game_map: GameMap) -> None:
        self.gm = game_map
        self.by_text: dict[str, LegalOrder] = {}
        self.base: dict[str, tuple[LegalOrder, ...]] = {}
        self.reach: dict[str, tuple[str, ...]] = {}
        # supporter text -> province supported into -> target text -> order
        # (a target in that province means a hold support, elsewhere a move support)
        self.support: dict[str, dict[str, dict[str, LegalOrder]]] = {}

    def add(self, text: str, order: Order) -> LegalOrder:
        found = self.by_text.get(text)
        if found is None:
            found = self.by_text[text] = LegalOrder(order, text, self.gm)
        return found

    def unit_base(self, unit: Unit, key: str) -> tuple[LegalOrder, ...]:
        """Hold and every direct move: they depend on geography only."""
        found = self.base.get(key)
        if found is None:
            t, loc = unit.type, unit.location
            targets = self.gm.move_targets(t, loc)
            found = (
                self.add(f"{key} H", Hold(t, loc)),
                *(self.add(f"{key} - {d}", Move(t, loc, d)) for d in targets),
            )
            self.base[key] = found
            self.reach[key] = tuple(sorted(self.gm.reachable_provinces(t, loc)))
        return found


_UNIT_TYPE = {"A": UnitType.ARMY, "F": UnitType.FLEET}


# One table per map object (a map built from other data gets its own).
_INTERNED: dict[int, _Interned] = {}


def _interned(game_map: GameMap) -> _Interned:
    found = _INTERNED.get(id(game_map))
    if found is None or found.gm is not game_map:
        found = _INTERNED[id(game_map)] = _Interned(game_map)
    return found


# --- per-board analysis ------------------------------------------------------


class _Context:
    """Facts about one board that legality depends on, computed once per board."""

    def __init__(self, board: Board) -> None:
        gm = board.game_map
        self.board = board
        self.gm = gm
        self.unit_at: Mapping[str, Unit] = board._unit_at
        army = UnitType.ARMY
        sea = gm.sea_provinces
        self.fleets_at_sea = fleets = frozenset(
            u.location.province
            for u in board.units
            if u.type is not army and u.location.province in sea
        )
        # "A PAR" / "F STP/SC" (full) and "F STP" (as a support/convoy target).
        self.text: dict[str, str] = {}
        self.target_text: dict[str, str] = {}
        self._routes: dict[str, Mapping[str, frozenset[str]]] = {}
        self._routes_without: dict[tuple[str, str], Mapping[str, frozenset[str]]] = {}
        # province -> (target text, province, None or the fleets on its convoy routes)
        # of the units that could move there
        reachers: defaultdict[str, list[tuple[str, str, frozenset[str] | None]]] = defaultdict(list)
        # sea province of a fleet -> (army province, destination) it may legally convoy
        convoys: defaultdict[str, list[tuple[str, str]]] = defaultdict(list)
        army_reach, fleet_reach, coast_seas = gm.army_reach, gm.fleet_reach, gm.coast_seas
        empty: frozenset[str] = frozenset()
        for u in board.units:
            loc = u.location
            prov = loc.province
            utype = u.type
            text = self.text[prov] = u.text
            target = self.target_text[prov] = text[:5]  # "F STP/SC" -> "F STP"
            entry = (target, prov, None)
            if utype is army:
                for p in army_reach[prov]:
                    reachers[p].append(entry)
                if fleets and not fleets.isdisjoint(coast_seas.get(prov, empty)):
                    adj = army_reach[prov]
                    for d, via in self.routes(prov).items():
                        if d not in adj:
                            reachers[d].append((target, prov, via))
                        for f in via:
                            convoys[f].append((prov, d))
            else:
                for p in fleet_reach[loc]:
                    reachers[p].append(entry)
        self.reachers: Mapping[str, list[tuple[str, str, frozenset[str] | None]]] = reachers
        self.convoys: Mapping[str, list[tuple[str, str]]] = convoys

    def routes(self, origin: str) -> Mapping[str, frozenset[str]]:
        found = self._routes.get(origin)
        if found is None:
            found = self._routes[origin] = self.gm.convoy_routes(origin, self.fleets_at_sea)
        return found

    def army_can_reach(self, origin: str, dest: str, exclude_fleet: str | None = None) -> bool:
        """Army move possible by land or by some convoy route (optionally avoiding a fleet)."""
        if dest in self.gm.army_adjacency.get(origin, ()):
            return True
        return self.convoy_possible(origin, dest, exclude_fleet)

    def convoy_possible(self, origin: str, dest: str, exclude_fleet: str | None = None) -> bool:
        fleets = self.routes(origin).get(dest)
        if not fleets:
            return False
        if exclude_fleet is None or exclude_fleet not in fleets:
            return True
        # The excluded fleet is on some route: is there one without it?
        key = (origin, exclude_fleet)
        without = self._routes_without.get(key)
        if without is None:
            without = self.gm.convoy_routes(origin, self.fleets_at_sea - {exclude_fleet})
            self._routes_without[key] = without
        return dest in without


def _context(board: Board) -> _Context:
    ctx = board._derived.get("legal")
    if not isinstance(ctx, _Context):
        ctx = _Context(board)
        board._derived["legal"] = ctx
    return ctx


_BY_TEXT = attrgetter("text")


# --- enumeration -------------------------------------------------------------


def _movement_orders(ctx: _Context, unit: Unit, tables: _Interned) -> list[LegalOrder]:
    by_text, add = tables.by_text, tables.add
    t, loc = unit.type, unit.location
    prov = loc.province
    key = unit.text
    out = list(tables.unit_base(unit, key))
    fleet_at_sea = False
    if t is UnitType.ARMY:
        if ctx.fleets_at_sea and prov in ctx.gm.coast_seas:
            adj = ctx.gm.army_adjacency[prov]
            for d in ctx.routes(prov):
                # Adjacent destinations get an explicit "VIA" variant; others are convoy-only.
                via = d in adj
                text = f"{key} - {d} VIA" if via else f"{key} - {d}"
                out.append(by_text.get(text) or add(text, Move(t, loc, Location(d), via)))
    elif prov in ctx.fleets_at_sea:
        fleet_at_sea = True
        for src, dst in ctx.convoys.get(prov, ()):
            text = f"{key} C A {src} - {dst}"
            out.append(by_text.get(text) or add(text, Convoy(t, loc, src, dst)))
    table = tables.support.get(key)
    if table is None:
        table = tables.support[key] = {}
    target_text, reachers, unit_at = ctx.target_text, ctx.reachers, ctx.unit_at
    append = out.append
    for p in tables.reach[key]:
        by_target = table.get(p)
        if by_target is None:
            by_target = table[p] = {}
        occupant = target_text.get(p)
        if occupant is not None:
            found = by_target.get(occupant)
            if found is None:
                order: Order = SupportHold(t, loc, unit_at[p].type, p)
                found = by_target[occupant] = add(f"{key} S {occupant}", order)
            append(found)
        for text, rprov, via_fleets in reachers.get(p, ()):
            if rprov == prov:
                continue
            if (
                via_fleets is not None
                and fleet_at_sea
                and prov in via_fleets
                and not ctx.convoy_possible(rprov, p, prov)
            ):
                continue  # DATC 6.D.31: a fleet cannot both convoy and support the move
            found = by_target.get(text)
            if found is None:
                order = SupportMove(t, loc, _UNIT_TYPE[text[0]], rprov, Location(p))
                found = by_target[text] = add(f"{key} S {text} - {p}", order)
            append(found)
    out.sort(key=_BY_TEXT)
    return out


def build_sites(board: Board, power: str) -> tuple[str, ...]:
    """Owned, unoccupied home centres of ``power`` (where it could build)."""
    homes = board.game_map.home_centres.get(power, ())
    return tuple(h for h in homes if board.centres.get(h) == power and board.unit_at(h) is None)


def adjustment_count(board: Board, power: str) -> int:
    """Builds allowed (>0) or removals required (<0) for ``power`` this winter."""
    delta = board.adjustment_delta(power)
    if delta > 0:
        return min(delta, len(build_sites(board, power)))
    return delta


def legal_orders(board: Board, power: str) -> PowerOptions:
    """The complete, sorted legal orders for ``power`` in the board's phase."""
    cache = _options_cache(board)
    cached = cache.get(power)
    if cached is not None:
        return cached
    if power not in board.game_map.powers:
        raise ValueError(f"unknown power {power!r}")
    gm = board.game_map
    tables = _interned(gm)
    add = tables.add
    phase = board.phase
    units: dict[str, tuple[LegalOrder, ...]] = {}
    adjustments: tuple[LegalOrder, ...] = ()
    count = 0
    if board.finished:
        pass
    elif phase.type is PhaseType.MOVEMENT:
        ctx = _context(board)
        for u in board.units:
            if u.power == power:
                units[u.text] = tuple(_movement_orders(ctx, u, tables))
    elif phase.type is PhaseType.RETREATS:
        for d in board.dislodged:
            if d.unit.power == power:
                key = d.unit.text
                t, loc = d.unit.type, d.unit.location
                opts = [add(f"{key} R {r}", Retreat(t, loc, r)) for r in d.retreats]
                opts.append(add(f"{key} D", Disband(t, loc)))
                opts.sort(key=_BY_TEXT)
                units[key] = tuple(opts)
    else:
        count = adjustment_count(board, power)
        choices: list[LegalOrder] = []
        if count > 0:
            for site in build_sites(board, power):
                kind = gm.provinces[site].kind
                if kind is not ProvinceKind.SEA:
                    army_loc = Location(site)
                    choices.append(add(f"A {site} B", Build(UnitType.ARMY, army_loc)))
                if kind is ProvinceKind.COAST:
                    for floc in gm.fleet_locations[site]:
                        choices.append(add(f"F {floc} B", Build(UnitType.FLEET, floc)))
            choices.append(add("WAIVE", Waive()))
        elif count < 0:
            choices = [
                add(f"{u.text} D", Disband(u.type, u.location))
                for u in board.units
                if u.power == power
            ]
        choices.sort(key=_BY_TEXT)
        adjustments = tuple(choices)
    result = PowerOptions(power, phase, units, adjustments, count)
    cache[power] = result
    return result


def _options_cache(board: Board) -> dict[str, PowerOptions]:
    found = board._derived.get("options")
    if found is None:
        found = board._derived["options"] = {}
    assert isinstance(found, dict)
    return found


def all_legal_orders(board: Board) -> dict[str, PowerOptions]:
    return {p: legal_orders(board, p) for p in board.game_map.powers}


def orderable_powers(board: Board) -> tuple[str, ...]:
    """Powers that have something to order in this phase."""
    return tuple(p for p in board.game_map.powers if legal_orders(board, p).has_orders)


# --- validation --------------------------------------------------------------


def validate_order(board: Board, power: str, order: Order | str) -> Order:
    """Check ``order`` is legal for ``power`` now; return its normalised form.

    Normalisation: the ordered unit's real coast replaces a wrong or missing one
    (DATC 4.B.5), an army's destination coast is dropped (4.B.6), a fleet move
    to a split-coast province with one reachable coast gets that coast (4.B.2),
    and ``VIA`` is dropped where the destination is not adjacent anyway.
    Raises :class:`IllegalOrderError` (or :class:`OrderParseError` for bad text).
    """
    known = _known_legal(board, power, order)
    if known is not None:
        return known
    if isinstance(order, str):
        order = parse_order(order)
    if board.finished:
        raise IllegalOrderError(str(order), "the game is over")
    if power not in board.game_map.powers:
        raise IllegalOrderError(str(order), f"unknown power {power!r}")
    ptype = board.phase.type
    if ptype is PhaseType.MOVEMENT:
        return _validate_movement(_context(board), power, order)
    if ptype is PhaseType.RETREATS:
        return _validate_retreat(board, power, order)
    return _validate_adjustment(board, power, order)


def _known_legal(board: Board, power: str, order: Order | str) -> Order | None:
    """Fast path: ``order`` is one of the legal orders already listed for ``power``.

    Only used when :func:`legal_orders` has run on this board (the usual flow:
    list, choose, submit). Listed orders are interned, so identity (or their
    canonical text) recognises them without re-validating.
    """
    options = _options_cache(board).get(power)
    if options is None:
        return None
    if isinstance(order, str):
        found = _interned(board.game_map).by_text.get(order)
        if found is None:
            return None
        order = found.order
    units = options.units
    if units:
        if isinstance(order, Waive):
            return None
        prov = order.location.province
        if board.phase.type is PhaseType.RETREATS:
            d = board.dislodged_at(prov)
            unit = None if d is None else d.unit
        else:
            unit = board._unit_at.get(prov)
        if unit is None:
            return None
        candidates = units.get(unit.text, ())
    else:
        candidates = options.adjustments
    for lo in candidates:
        if lo.order is order:
            return order
    return None


def _name(gm: GameMap, province: str) -> str:
    prov = gm.provinces.get(province)
    return prov.name if prov is not None else province


def _illegal(order: Order, reason: str) -> IllegalOrderError:
    return IllegalOrderError(str(order), reason)


def _check_province(gm: GameMap, order: Order, loc: Location) -> None:
    prov = gm.provinces.get(loc.province)
    if prov is None:
        raise _illegal(order, f"there is no province {loc.province!r} on this map")
    if loc.coast and loc.coast not in prov.coasts:
        raise _illegal(order, f"{prov.name} has no coast {loc.coast!r}")


def _own_unit(board: Board, gm: GameMap, power: str, order: Order, unit: Unit | None) -> Unit:
    assert not isinstance(order, Waive)
    if unit is None:
        raise _illegal(order, f"there is no unit in {_name(gm, order.location.province)}")
    if unit.power != power:
        raise _illegal(order, f"{unit} belongs to {unit.power}, not {power}")
    if unit.type is not order.unit_type:
        raise _illegal(
            order,
            f"there is no {order.unit_type.noun.lower()} in "
            f"{_name(gm, unit.province)} ({unit} is there)",
        )
    return unit


def _validate_movement(ctx: _Context, power: str, order: Order) -> Order:
    gm = ctx.gm
    if not isinstance(order, (Hold, Move, SupportHold, SupportMove, Convoy)):
        raise _illegal(order, f"{type(order).__name__} orders are not allowed in a movement phase")
    _check_province(gm, order, order.location)
    unit = _own_unit(ctx.board, gm, power, order, ctx.unit_at.get(order.location.province))
    t, loc, prov = unit.type, unit.location, unit.province
    if isinstance(order, Hold):
        return order if order.location == loc else Hold(t, loc)
    if isinstance(order, Move):
        return _validate_move(ctx, unit, order)
    if isinstance(order, Convoy):
        for p in (order.army_from, order.army_to):
            _check_province(gm, order, Location(p))
        if t is not UnitType.FLEET or not gm.is_sea(prov):
            raise _illegal(order, "only fleets in sea provinces can convoy")
        army = ctx.unit_at.get(order.army_from)
        if army is None or army.type is not UnitType.ARMY:
            raise _illegal(order, f"there is no army in {_name(gm, order.army_from)}")
        if order.army_from == order.army_to:
            raise _illegal(order, "an army cannot be convoyed to its own province")
        if not gm.is_coastal(order.army_from) or not gm.is_coastal(order.army_to):
            raise _illegal(order, "convoys go from a coastal province to a coastal province")
        if prov not in ctx.routes(order.army_from).get(order.army_to, ()):
            raise _illegal(
                order,
                f"{unit} is not on any possible convoy route from "
                f"{_name(gm, order.army_from)} to {_name(gm, order.army_to)}",
            )
        return order if order.location == loc else Convoy(t, loc, order.army_from, order.army_to)
    # Supports.
    target_p = order.target
    _check_province(gm, order, Location(target_p))
    reach = gm.reachable_provinces(t, loc)
    if target_p == prov:
        raise _illegal(order, "a unit cannot support itself")
    target = ctx.unit_at.get(target_p)
    if target is None:
        raise _illegal(order, f"there is no unit in {_name(gm, target_p)} to support")
    if target.type is not order.target_type:
        raise _illegal(
            order,
            f"the unit in {_name(gm, target_p)} is {target}, "
            f"not a {order.target_type.noun.lower()}",
        )
    if isinstance(order, SupportHold):
        if target_p not in reach:
            raise _illegal(
                order, f"{unit} could not move to {_name(gm, target_p)}, so it cannot support there"
            )
        return order if order.location == loc else SupportHold(t, loc, target.type, target_p)
    dest = order.dest
    _check_province(gm, order, dest)
    dest_p = dest.province
    if dest_p == prov:
        raise _illegal(order, "a unit cannot support a move into its own province")
    if dest_p == target_p:
        raise _illegal(order, "the supported unit is already there")
    if dest_p not in reach:
        raise _illegal(
            order, f"{unit} could not move to {_name(gm, dest_p)}, so it cannot support there"
        )
    if target.type is UnitType.ARMY:
        exclude = prov if (t is UnitType.FLEET and prov in ctx.fleets_at_sea) else None
        if not ctx.army_can_reach(target_p, dest_p, exclude):
            raise _illegal(order, f"{target} could not move to {_name(gm, dest_p)}")
        if dest.coast:
            dest = Location(dest_p)  # coasts mean nothing for armies
    else:
        ok = (
            dest in gm.fleet_targets.get(target.location, ())
            if dest.coast
            else dest_p in gm.reachable_provinces(UnitType.FLEET, target.location)
        )
        if not ok:
            raise _illegal(order, f"{target} could not move to {gm.location_name(dest)}")
    if order.location == loc and dest == order.dest:
        return order
    return SupportMove(t, loc, target.type, target_p, dest)


def _validate_move(ctx: _Context, unit: Unit, order: Move) -> Move:
    gm = ctx.gm
    t, loc, prov = unit.type, unit.location, unit.province
    dest = order.dest
    _check_province(gm, order, dest)
    dest_p = dest.province
    dest_name = _name(gm, dest_p)
    if dest_p == prov:
        raise _illegal(order, f"{unit} is already in {dest_name}")
    if t is UnitType.ARMY:
        if gm.is_sea(dest_p):
            raise _illegal(order, f"{dest_name} is a sea: armies cannot go there")
        adjacent = dest_p in gm.army_adjacency[prov]
        if adjacent and not order.via_convoy:
            return Move(t, loc, Location(dest_p))
        if not gm.is_coastal(prov) or not gm.is_coastal(dest_p):
            raise _illegal(
                order,
                f"{dest_name} is not adjacent to {_name(gm, prov)} and cannot be reached by convoy",
            )
        if not ctx.convoy_possible(prov, dest_p):
            why = "adjacent" if adjacent else "not adjacent"
            raise _illegal(
                order,
                f"{dest_name} is {why} and no fleets at sea could convoy {unit} there",
            )
        return Move(t, loc, Location(dest_p), adjacent)
    if order.via_convoy:
        raise _illegal(order, "only armies can be convoyed")
    kind = gm.provinces[dest_p].kind
    if kind is ProvinceKind.LAND:
        raise _illegal(order, f"{unit} cannot move: {dest_name} is inland, fleets cannot go there")
    options = gm.fleet_coasts_reachable(loc, dest_p)
    if not options:
        raise _illegal(order, f"{unit} cannot reach {dest_name}: no shared coastline or sea border")
    if dest.coast:
        if dest not in options:
            raise _illegal(
                order,
                f"{unit} cannot reach {gm.location_name(dest)} "
                f"(it can reach {', '.join(map(str, options))})",
            )
        final = dest
    elif gm.provinces[dest_p].coasts:
        if len(options) > 1:
            raise _illegal(
                order,
                f"{dest_name} has two coasts {unit} can reach: "
                f"say which ({', '.join(map(str, options))})",
            )
        final = options[0]
    else:
        final = options[0]
    if order.location == loc and final == dest:
        return order
    return Move(t, loc, final)


def _validate_retreat(board: Board, power: str, order: Order) -> Order:
    gm = board.game_map
    if isinstance(order, Move) and not order.via_convoy:
        order = Retreat(order.unit_type, order.location, order.dest)  # "A BUR - PIC" means retreat
    if not isinstance(order, (Retreat, Disband)):
        raise _illegal(
            order, "only retreat (R) and disband (D) orders are allowed in a retreat phase"
        )
    _check_province(gm, order, order.location)
    d: DislodgedUnit | None = board.dislodged_at(order.location.province)
    if d is None:
        raise _illegal(order, f"there is no dislodged unit in {_name(gm, order.location.province)}")
    unit = _own_unit(board, gm, power, order, d.unit)
    if isinstance(order, Disband):
        return Disband(unit.type, unit.location)
    _check_province(gm, order, order.dest)
    dest = order.dest
    if unit.type is UnitType.ARMY:
        dest = Location(dest.province)
    matches = [
        r for r in d.retreats if r == dest or (not dest.coast and r.province == dest.province)
    ]
    if len(matches) != 1:
        if not d.retreats:
            raise _illegal(order, f"{unit} has nowhere to retreat to and must disband")
        allowed = ", ".join(str(r) for r in d.retreats)
        raise _illegal(
            order,
            f"{unit} cannot retreat to {gm.location_name(dest)} (it may retreat to {allowed})",
        )
    return Retreat(unit.type, unit.location, matches[0])


def _validate_adjustment(board: Board, power: str, order: Order) -> Order:
    gm = board.game_map
    count = adjustment_count(board, power)
    if isinstance(order, Waive):
        if count <= 0:
            raise _illegal(order, f"{power} has no builds to waive")
        return order
    if isinstance(order, Disband):
        if count >= 0:
            raise _illegal(order, f"{power} does not have to remove units")
        _check_province(gm, order, order.location)
        unit = _own_unit(board, gm, power, order, board.unit_at(order.location.province))
        return Disband(unit.type, unit.location)
    if not isinstance(order, Build):
        raise _illegal(
            order, "only build (B), remove (D) and WAIVE orders are allowed in adjustments"
        )
    if count <= 0:
        raise _illegal(order, f"{power} has no builds this year")
    loc = order.location
    _check_province(gm, order, loc)
    p = loc.province
    pname = _name(gm, p)
    if gm.provinces[p].home_power != power:
        raise _illegal(order, f"{pname} is not a home supply centre of {power}")
    if board.centres.get(p) != power:
        raise _illegal(order, f"{power} does not own {pname}")
    if board.unit_at(p) is not None:
        raise _illegal(order, f"{pname} is occupied")
    if order.unit_type is UnitType.ARMY:
        return Build(UnitType.ARMY, Location(p))
    if gm.provinces[p].kind is not ProvinceKind.COAST:
        raise _illegal(order, f"{pname} is inland: fleets cannot be built there")
    locs = gm.fleet_locations[p]
    if not loc.coast and len(locs) > 1:
        raise _illegal(order, f"{pname} has two coasts: say which ({', '.join(map(str, locs))})")
    return Build(UnitType.FLEET, loc if loc.coast else locs[0])


def validate_orders(
    board: Board, power: str, orders: Sequence[Order | str]
) -> tuple[list[Order], list[IllegalOrderError | OrderParseError]]:
    """Validate several orders; return (accepted normalised orders, errors)."""
    ok: list[Order] = []
    errors: list[IllegalOrderError | OrderParseError] = []
    for o in orders:
        try:
            ok.append(validate_order(board, power, o))
        except (IllegalOrderError, OrderParseError) as exc:
            errors.append(exc)
    return ok, errors
