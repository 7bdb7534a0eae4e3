"""Diplomacy adjudication: movement, retreats, adjustments, and phase advance.

Movement is resolved with a decision-based resolver in the style of Lucas
Kruijswijk's "guess" algorithm (DATC section 5): each move, support and convoy
is a yes/no decision defined by the rule equations (attack, hold, defend and
prevent strengths, support cuts, convoy paths); a recursive resolver guesses
when a decision depends on itself, and when a dependency cycle has zero or two
consistent answers applies the backup rule:

* a cycle containing convoying fleets is a convoy paradox, settled by the
  Szykman rule: those convoy orders fail (the fleets just hold);
* a cycle of moves only is circular movement: every move in it succeeds.

Rule choices follow the DATC v3 preferences unless :class:`Rules` says
otherwise; see ``docs/diplomacy-rules.md``.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from .board import Board, DislodgedUnit, Phase, PhaseType, Season, Unit
from .legal import IllegalOrderError, adjustment_count, validate_order
from .map import GameMap, UnitType
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
    UnitOrder,
    Waive,
)


class CivilDisorderRule(enum.StrEnum):
    """How units are picked when a power orders too few removals (DATC 4.D.8)."""

    # 1971/1982/2000 rulebooks (and the common online judges): farthest from the
    # nearest *home* centre first; fleets follow fleet moves, armies may cross
    # water; ties: fleets before armies, then alphabetical by province name.
    HOME_CENTRES = "home_centres"
    # 2023 rulebook: keep units on supply centres if possible; farthest from the
    # nearest *owned* centre counting adjacent provinces regardless of terrain;
    # ties as above.
    OWNED_CENTRES_2023 = "owned_centres_2023"


@dataclass(frozen=True, slots=True)
class Rules:
    """Adjudication options. Defaults are the DATC v3 preferences (plus HOME_CENTRES)."""

    # DATC 4.A.3: when an army asks for a convoy to an adjacent province (VIA, or
    # an own fleet orders the convoy) but the convoy orders given do not form a
    # route, fall back to the land route. DATC v3 prefers no fallback (6.G.8);
    # DATC v2 and the reference `diplomacy` package fall back.
    adjacent_convoy_fallback: bool = False
    # DATC 4.A.5: a unit dislodged by a convoyed army may retreat to the army's
    # starting province (2023 rulebook, DATC preference).
    retreat_to_convoy_origin: bool = True
    civil_disorder: CivilDisorderRule = CivilDisorderRule.HOME_CENTRES
    # The game ends after the Fall of this year (centres counted); None = no limit.
    end_year: int | None = None
    # Centres needed for a solo victory; None = the map's value (18 on standard).
    victory_centres: int | None = None


DEFAULT_RULES = Rules()


class OrderStatus(enum.StrEnum):
    SUCCEEDED = "succeeded"
    FAILED = "failed"  # move bounced, convoy disrupted
    CUT = "cut"  # support cut
    VOID = "void"  # support/convoy matching no order; extra build or removal
    NO_CONVOY = "no convoy"  # convoyed move without a complete convoy route
    DISBANDED = "disbanded"  # retreat failed (clash, or no order) and the unit is gone
    DEFAULTED = "defaulted"  # removal chosen by the civil-disorder rule


@dataclass(frozen=True, slots=True)
class OrderResult:
    power: str
    order: Order
    status: OrderStatus
    dislodged: bool = False

    def __str__(self) -> str:
        extra = ", dislodged" if self.dislodged else ""
        return f"{self.power}: {self.order} [{self.status.value}{extra}]"


@dataclass(frozen=True, slots=True)
class RejectedOrder:
    power: str
    text: str
    reason: str


@dataclass(frozen=True)
class PhaseResult:
    """What happened in one phase, and the board for the next one."""

    phase: Phase
    results: tuple[OrderResult, ...]
    rejected: tuple[RejectedOrder, ...]
    board: Board
    # Movement only: every dislodged unit, including those destroyed at once for
    # lack of a retreat (``retreats == ()``); the retreating ones are on ``board``.
    dislodged: tuple[DislodgedUnit, ...] = ()

    def result_for(self, province: str) -> OrderResult | None:
        for r in self.results:
            if not isinstance(r.order, Waive) and r.order.location.province == province:
                return r
        return None


# --- entry point -------------------------------------------------------------


def process_phase(
    board: Board,
    orders: Mapping[str, Iterable[Order | str]],
    rules: Rules = DEFAULT_RULES,
) -> PhaseResult:
    """Resolve the board's phase with ``orders`` ({power: [order or text]}).

    Orders are validated first; illegal ones are reported in ``rejected`` and
    treated as absent. Absent movement orders hold, absent retreat orders
    disband, absent builds are waived and absent removals follow
    ``rules.civil_disorder``. If a unit gets several legal orders, the last wins.
    """
    if board.finished:
        raise ValueError("the game is over")
    accepted: dict[str, list[Order]] = {}
    rejected: list[RejectedOrder] = []
    for power in sorted(orders):
        if power not in board.game_map.powers:
            raise ValueError(f"unknown power {power!r}")
        for raw in orders[power]:
            try:
                accepted.setdefault(power, []).append(validate_order(board, power, raw))
            except (IllegalOrderError, OrderParseError) as exc:
                reason = exc.reason if isinstance(exc, IllegalOrderError) else str(exc)
                rejected.append(RejectedOrder(power, str(raw), reason))
    ptype = board.phase.type
    if ptype is PhaseType.MOVEMENT:
        return _movement(board, accepted, tuple(rejected), rules)
    if ptype is PhaseType.RETREATS:
        return _retreats(board, accepted, tuple(rejected), rules)
    return _adjustments(board, accepted, tuple(rejected), rules)


# --- movement ------------------------------------------------------------------

_MOVE, _SUPPORT, _CONVOY = 0, 1, 2


class _Resolver:
    """Resolves one movement phase. Decisions are keyed by the ordered unit's province."""

    def __init__(self, board: Board, order_at: Mapping[str, Order], rules: Rules) -> None:
        gm = board.game_map
        self.gm = gm
        self.unit_at: dict[str, Unit] = board._unit_at
        self.order_at = order_at
        self.kind: dict[str, int] = {}
        self.dest: dict[str, str] = {}
        self.attackers: dict[str, list[str]] = {}
        self.convoyed: set[str] = set()
        self.convoy_fleets: dict[str, frozenset[str]] = {}
        self.h2h: dict[str, str] = {}
        self.hold_sup: dict[str, list[str]] = {}
        self.move_sup: dict[str, list[str]] = {}
        self.void: set[str] = set()
        # Resolution state (DATC 5.F guess algorithm).
        self.result: dict[str, bool] = {}
        self.resolved: set[str] = set()
        self.visited: set[str] = set()
        self.cycle: list[str] = []
        self.in_cycle: set[str] = set()
        self.guess_based = False
        self.hits = 0
        self._setup(rules)

    def _setup(self, rules: Rules) -> None:
        gm, unit_at = self.gm, self.unit_at
        convoy_orders: dict[tuple[str, str], list[str]] = {}
        supports: list[tuple[str, SupportHold | SupportMove]] = []
        for p, o in self.order_at.items():
            if type(o) is Move:
                self.dest[p] = o.dest.province
            elif type(o) is SupportMove or type(o) is SupportHold:
                supports.append((p, o))
            elif type(o) is Convoy:
                convoy_orders.setdefault((o.army_from, o.army_to), []).append(p)
        for p, d in self.dest.items():
            unit = unit_at[p]
            if unit.type is UnitType.ARMY:
                move = self.order_at[p]
                assert isinstance(move, Move)
                fleets = convoy_orders.get((p, d), [])
                adjacent = d in gm.army_adjacency[p]
                # DATC 4.A.3 (2000/2023 rules): an adjacent move uses the convoy
                # if ordered VIA, or if a fleet of the army's own power convoys it.
                by_convoy = (
                    not adjacent
                    or move.via_convoy
                    or any(unit_at[f].power == unit.power for f in fleets)
                )
                if (
                    by_convoy
                    and adjacent
                    and rules.adjacent_convoy_fallback
                    and not self._route_exists(p, d, frozenset(fleets))
                ):
                    by_convoy = False
                if by_convoy:
                    self.convoyed.add(p)
                    self.convoy_fleets[p] = frozenset(fleets)
            self.attackers.setdefault(d, []).append(p)
            self.kind[p] = _MOVE
        for (src, dst), fleets in convoy_orders.items():
            if src in self.convoyed and self.dest.get(src) == dst:
                for f in fleets:
                    self.kind[f] = _CONVOY
            else:
                self.void.update(fleets)
        for p, d in self.dest.items():
            if p not in self.convoyed and self.dest.get(d) == p and d not in self.convoyed:
                self.h2h[p] = d
        for p, o in supports:
            if isinstance(o, SupportHold):
                if o.target in self.dest:
                    self.void.add(p)  # a moving unit cannot be supported to hold
                else:
                    self.hold_sup.setdefault(o.target, []).append(p)
                    self.kind[p] = _SUPPORT
            else:
                target_order = self.order_at.get(o.target)
                if (
                    isinstance(target_order, Move)
                    and target_order.dest.province == o.dest.province
                    and (not o.dest.coast or target_order.dest.coast == o.dest.coast)
                ):
                    self.move_sup.setdefault(o.target, []).append(p)
                    self.kind[p] = _SUPPORT
                else:
                    self.void.add(p)

    def _route_exists(
        self,
        origin: str,
        dest: str,
        fleets: Container[str],
        holds: Callable[[str], bool] = lambda _f: True,
    ) -> bool:
        """Do these fleets form a chain from origin to dest? Statically, or (``holds``) only
        through fleets whose convoy order holds, asked in search order as they are reached."""
        gm = self.gm
        frontier = [f for f in gm.coast_seas.get(origin, ()) if f in fleets]
        seen = set(frontier)
        while frontier:
            f = frontier.pop()
            if not holds(f):
                continue
            if dest in gm.sea_coasts.get(f, ()):
                return True
            for n in gm.sea_seas.get(f, ()):
                if n in fleets and n not in seen:
                    seen.add(n)
                    frontier.append(n)
        return False

    # --- the resolver ---

    def resolve_all(self) -> None:
        for d in self.kind:
            self._resolve(d)

    def _set(self, d: str, value: bool) -> None:
        self.result[d] = value
        self.resolved.add(d)

    def _truncate(self, n: int) -> None:
        for x in self.cycle[n:]:
            self.in_cycle.discard(x)
        del self.cycle[n:]

    def _resolve(self, d: str) -> bool:
        if d in self.resolved:
            return self.result[d]
        if d in self.in_cycle:
            # Part of a cycle still being worked out: answer with its last guess.
            self.guess_based = True
            return self.result[d]
        if d in self.visited:
            # Recursion came back to a decision in progress: a dependency cycle.
            self.cycle.append(d)
            self.in_cycle.add(d)
            self.guess_based = True
            self.hits += 1
            return self.result[d]
        self.visited.add(d)
        old_len, old_gb, old_hits = len(self.cycle), self.guess_based, self.hits
        self.guess_based = False
        self.result[d] = False
        first = self._adjudicate(d)
        if not self.guess_based:
            self.guess_based = old_gb
            self.visited.discard(d)
            self._set(d, first)
            return first
        if d in self.in_cycle:
            self.hits -= 1
        if self.hits == old_hits:
            # d is the ancestor of the whole cycle: try the other guess.
            self._truncate(old_len)
            self.result[d] = True
            second = self._adjudicate(d)
            self.hits = old_hits
            if first == second:
                self._truncate(old_len)
                self.guess_based = old_gb
                self.visited.discard(d)
                self._set(d, first)
                return first
            members = self.cycle[old_len:]
            if d not in members:
                members.append(d)
            self._backup_rule(members)
            self._truncate(old_len)
            self.guess_based = old_gb
            self.visited.discard(d)
            return self._resolve(d)
        # Inside a cycle whose ancestor is further up: remember and unwind.
        if d not in self.in_cycle:
            self.cycle.append(d)
            self.in_cycle.add(d)
        self.result[d] = first
        self.visited.discard(d)
        return first

    def _backup_rule(self, members: list[str]) -> None:
        convoys = [x for x in members if self.kind[x] == _CONVOY]
        if convoys:
            for x in convoys:  # Szykman rule: the convoys in a paradox fail
                self._set(x, False)
        elif all(self.kind[x] == _MOVE for x in members):
            for x in members:  # circular movement: everyone moves
                self._set(x, True)
        else:  # not reachable with standard rules; fail safe
            for x in members:
                self._set(x, False)

    def _adjudicate(self, d: str) -> bool:
        k = self.kind[d]
        if k == _MOVE:
            return self._adj_move(d)
        if k == _SUPPORT:
            return self._adj_support(d)
        return self._adj_convoy(d)

    # --- the rule equations (DATC 5.B) ---

    def _count(self, supporters: Iterable[str], not_power: str | None = None) -> int:
        n = 0
        for s in supporters:
            if not_power is not None and self.unit_at[s].power == not_power:
                continue
            if self._resolve(s):
                n += 1
        return n

    def _path(self, p: str) -> bool:
        if p not in self.convoyed:
            return True
        fleets = self.convoy_fleets[p]
        if not fleets:
            return False
        return self._route_exists(p, self.dest[p], fleets, self._resolve)

    def _attack_strength(self, p: str) -> int:
        d = self.dest[p]
        sups = self.move_sup.get(p, ())
        occupant = self.unit_at.get(d)
        if occupant is None:
            return 1 + self._count(sups)
        if p not in self.h2h and d in self.dest and self._resolve(d):
            return 1 + self._count(sups)
        if occupant.power == self.unit_at[p].power:
            return 0  # never dislodge your own unit
        return 1 + self._count(sups, not_power=occupant.power)

    def _hold_strength(self, prov: str) -> int:
        if prov not in self.unit_at:
            return 0
        if prov in self.dest:
            return 0 if self._resolve(prov) else 1
        return 1 + self._count(self.hold_sup.get(prov, ()))

    def _prevent_strength(self, q: str) -> int:
        if not self._path(q):
            return 0
        opp = self.h2h.get(q)
        if opp is not None and self._resolve(opp):
            return 0
        return 1 + self._count(self.move_sup.get(q, ()))

    def _adj_move(self, p: str) -> bool:
        if not self._path(p):
            return False
        atk = self._attack_strength(p)
        if atk == 0:
            return False
        d = self.dest[p]
        opp = self.h2h.get(p)
        if opp is not None:
            if atk <= 1 + self._count(self.move_sup.get(opp, ())):
                return False
        elif atk <= self._hold_strength(d):
            return False
        return all(q == p or atk > self._prevent_strength(q) for q in self.attackers[d])

    def _adj_support(self, s: str) -> bool:
        order = self.order_at[s]
        me = self.unit_at[s].power
        against = order.dest.province if isinstance(order, SupportMove) else None
        for a in self.attackers.get(s, ()):
            if self.unit_at[a].power == me:
                continue  # your own units never cut your support
            if a == against:
                # An attack from the province the support targets only cuts
                # by dislodging (also when convoyed: DATC 4.A.4).
                if self._resolve(a):
                    return False
                continue
            if self._path(a):
                return False
        return True

    def _adj_convoy(self, f: str) -> bool:
        for a in self.attackers.get(f, ()):
            # DATC 5.D: adjudicate the attacker directly rather than resolving
            # it, so paradox cycles stay clean single cycles (Pandin's paradox).
            hit = self.result[a] if a in self.resolved else self._adj_move(a)
            if hit:
                return False
        return True

    # --- after resolution ---

    def outcome(
        self, rules: Rules
    ) -> tuple[list[Unit], list[DislodgedUnit], dict[str, OrderStatus], set[str]]:
        gm = self.gm
        moved = {p for p in self.dest if self.result[p]}
        arrivals: dict[str, str] = {}
        for p in sorted(moved):  # sorted: set order varies with the process's hash seed
            d = self.dest[p]
            if d in arrivals:
                raise AssertionError(f"two units moved into {d}: from {arrivals[d]} and {p}")
            arrivals[d] = p
        dislodged_by = {d: p for d, p in arrivals.items() if d in self.unit_at and d not in moved}
        new_units: list[Unit] = []
        for p, u in self.unit_at.items():
            if p in moved:
                o = self.order_at[p]
                assert isinstance(o, Move)
                new_units.append(Unit(u.power, u.type, o.dest))
            elif p not in dislodged_by:
                new_units.append(u)
        occupied = {u.location.province for u in new_units}
        standoff: set[str] = set()
        for d, atks in self.attackers.items():
            if d in occupied:
                continue
            for a in atks:
                opp = self.h2h.get(a)
                if self._path(a) and not (opp is not None and self.result[opp]):
                    standoff.add(d)  # a real bounce left it empty
                    break
        dislodged: list[DislodgedUnit] = []
        for d, attacker in dislodged_by.items():
            u = self.unit_at[d]
            via = attacker in self.convoyed
            blocked_origin = not (via and rules.retreat_to_convoy_origin)
            retreats = tuple(
                t
                for t in gm.move_targets(u.type, u.location)
                if t.province not in occupied
                and t.province not in standoff
                and not (t.province == attacker and blocked_origin)
            )
            dislodged.append(DislodgedUnit(u, attacker, via, retreats))
        status: dict[str, OrderStatus] = {}
        for p, o in self.order_at.items():
            if isinstance(o, Move):
                if self.result[p]:
                    status[p] = OrderStatus.SUCCEEDED
                elif not self._path(p):
                    status[p] = OrderStatus.NO_CONVOY
                else:
                    status[p] = OrderStatus.FAILED
            elif isinstance(o, (SupportHold, SupportMove)):
                if p in self.void:
                    status[p] = OrderStatus.VOID
                else:
                    status[p] = OrderStatus.SUCCEEDED if self.result[p] else OrderStatus.CUT
            elif isinstance(o, Convoy):
                if p in self.void:
                    status[p] = OrderStatus.VOID
                else:
                    status[p] = OrderStatus.SUCCEEDED if self.result[p] else OrderStatus.FAILED
            else:
                status[p] = OrderStatus.SUCCEEDED
        return new_units, dislodged, status, set(dislodged_by)


def _by_province(accepted: Mapping[str, list[Order]]) -> dict[str, UnitOrder]:
    """Each unit's order by its province; the last legal order for a unit wins."""
    out: dict[str, UnitOrder] = {}
    for orders in accepted.values():
        for o in orders:
            assert not isinstance(o, Waive)
            out[o.location.province] = o
    return out


def _movement(
    board: Board,
    accepted: Mapping[str, list[Order]],
    rejected: tuple[RejectedOrder, ...],
    rules: Rules,
) -> PhaseResult:
    order_at: dict[str, Order] = dict(_by_province(accepted))
    for u in board.units:
        order_at.setdefault(u.location.province, Hold(u.type, u.location))
    resolver = _Resolver(board, order_at, rules)
    resolver.resolve_all()
    new_units, dislodged, status, dislodged_provs = resolver.outcome(rules)
    results = tuple(
        OrderResult(
            u.power,
            order_at[u.location.province],
            status[u.location.province],
            u.location.province in dislodged_provs,
        )
        for u in board.units
    )
    # Units with nowhere to go are destroyed at once; the retreat phase is only
    # played when some dislodged unit has a choice.
    retreating = tuple(d for d in dislodged if d.retreats)
    nxt = _advance(board, tuple(new_units), retreating, board.centres, rules)
    return PhaseResult(board.phase, results, rejected, nxt, tuple(dislodged))


# --- retreats ------------------------------------------------------------------


def _retreats(
    board: Board,
    accepted: Mapping[str, list[Order]],
    rejected: tuple[RejectedOrder, ...],
    rules: Rules,
) -> PhaseResult:
    chosen: dict[str, Order] = dict(_by_province(accepted))
    assert all(isinstance(o, (Retreat, Disband)) for o in chosen.values())
    targets: dict[str, int] = {}
    for o in chosen.values():
        if isinstance(o, Retreat):
            targets[o.dest.province] = targets.get(o.dest.province, 0) + 1
    units = list(board.units)
    results: list[OrderResult] = []
    for d in board.dislodged:
        given = chosen.get(d.province)
        if given is None:
            default = Disband(d.unit.type, d.unit.location)
            results.append(OrderResult(d.unit.power, default, OrderStatus.DISBANDED))
            continue
        o = given
        if isinstance(o, Retreat):
            if targets[o.dest.province] > 1:
                # Two or more units retreating to the same province are all disbanded.
                results.append(OrderResult(d.unit.power, o, OrderStatus.DISBANDED))
            else:
                units.append(Unit(d.unit.power, d.unit.type, o.dest))
                results.append(OrderResult(d.unit.power, o, OrderStatus.SUCCEEDED))
        else:
            results.append(OrderResult(d.unit.power, o, OrderStatus.SUCCEEDED))
    nxt = _advance(board, tuple(units), (), board.centres, rules)
    return PhaseResult(board.phase, tuple(results), rejected, nxt)


# --- adjustments ----------------------------------------------------------------


def _adjustments(
    board: Board,
    accepted: Mapping[str, list[Order]],
    rejected: tuple[RejectedOrder, ...],
    rules: Rules,
) -> PhaseResult:
    gm = board.game_map
    units = list(board.units)
    results: list[OrderResult] = []
    for power in gm.powers:
        count = adjustment_count(board, power)
        orders = accepted.get(power, [])
        if count > 0:
            done = 0
            used: set[str] = set()
            for o in orders:
                if done >= count or isinstance(o, Disband):
                    results.append(OrderResult(power, o, OrderStatus.VOID))
                elif isinstance(o, Waive):
                    done += 1
                    results.append(OrderResult(power, o, OrderStatus.SUCCEEDED))
                else:
                    assert isinstance(o, Build)
                    if o.location.province in used:
                        results.append(OrderResult(power, o, OrderStatus.VOID))
                        continue
                    used.add(o.location.province)
                    done += 1
                    units.append(Unit(power, o.unit_type, o.location))
                    results.append(OrderResult(power, o, OrderStatus.SUCCEEDED))
        elif count < 0:
            need = -count
            removed: set[str] = set()
            for o in orders:
                assert isinstance(o, Disband)
                p = o.location.province
                if len(removed) < need and p not in removed:
                    removed.add(p)
                    results.append(OrderResult(power, o, OrderStatus.SUCCEEDED))
                else:
                    results.append(OrderResult(power, o, OrderStatus.VOID))
            if len(removed) < need:
                own = [u for u in board.units if u.power == power and u.province not in removed]
                for u in _civil_disorder_order(board, power, own, rules.civil_disorder)[
                    : need - len(removed)
                ]:
                    removed.add(u.province)
                    results.append(
                        OrderResult(power, Disband(u.type, u.location), OrderStatus.DEFAULTED)
                    )
            units = [u for u in units if not (u.power == power and u.province in removed)]
    nxt = _advance(board, tuple(units), (), board.centres, rules)
    return PhaseResult(board.phase, tuple(results), rejected, nxt)


_FAR = 10**6
_T = TypeVar("_T")


def _bfs_distance(
    starts: Iterable[_T], goal: Container[_T], neighbours: Mapping[_T, Iterable[_T]]
) -> int:
    seen = set(starts)
    frontier = deque((s, 0) for s in seen)
    while frontier:
        node, dist = frontier.popleft()
        if node in goal:
            return dist
        for n in neighbours.get(node, ()):
            if n not in seen:
                seen.add(n)
                frontier.append((n, dist + 1))
    return _FAR


def _civil_disorder_order(
    board: Board, power: str, units: list[Unit], rule: CivilDisorderRule
) -> list[Unit]:
    """Units of ``power`` in the order the civil-disorder rule removes them."""
    gm = board.game_map
    keyed: list[tuple[tuple[int, int, int, str], Unit]] = []
    homes = frozenset(gm.home_centres.get(power, ()))
    home_locs = frozenset(loc for loc in gm.fleet_adjacency if loc.province in homes)
    owned = frozenset(board.centres_of(power))
    for u in units:
        if rule is CivilDisorderRule.HOME_CENTRES:
            on_centre = 0
            if u.type is UnitType.FLEET:  # fleets count fleet moves only
                dist = _bfs_distance([u.location], home_locs, gm.fleet_adjacency)
            else:  # armies may also cross water
                dist = _bfs_distance([u.province], homes, gm.province_neighbours)
        else:
            on_centre = 1 if gm.provinces[u.province].supply_centre else 0
            dist = _bfs_distance([u.province], owned, gm.province_neighbours)
        fleet_first = 0 if u.type is UnitType.FLEET else 1
        keyed.append(((on_centre, -dist, fleet_first, gm.provinces[u.province].name), u))
    keyed.sort(key=lambda item: item[0])
    return [u for _, u in keyed]


# --- phase advance ----------------------------------------------------------------


def _advance(
    board: Board,
    units: tuple[Unit, ...],
    dislodged: tuple[DislodgedUnit, ...],
    centres: Mapping[str, str],
    rules: Rules,
) -> Board:
    gm, ph = board.game_map, board.phase
    if ph.type is PhaseType.MOVEMENT and dislodged:
        return Board(gm, Phase(ph.year, ph.season, PhaseType.RETREATS), units, centres, dislodged)
    if ph.season is Season.SPRING:
        return Board(gm, Phase(ph.year, Season.FALL, PhaseType.MOVEMENT), units, centres)
    if ph.season is Season.FALL:
        return _end_of_year(gm, ph.year, units, centres, rules)
    return Board(gm, Phase(ph.year + 1, Season.SPRING, PhaseType.MOVEMENT), units, centres)


def _end_of_year(
    gm: GameMap, year: int, units: tuple[Unit, ...], centres: Mapping[str, str], rules: Rules
) -> Board:
    owned = dict(centres)
    centre_set = gm.supply_centre_set
    for u in units:
        prov = u.location.province
        if prov in centre_set:
            owned[prov] = u.power  # centres change hands after Fall (and its retreats)
    winter = Phase(year, Season.WINTER, PhaseType.ADJUSTMENTS)
    counts: dict[str, int] = {}
    for p in owned.values():
        counts[p] = counts.get(p, 0) + 1
    need = rules.victory_centres if rules.victory_centres is not None else gm.victory_centres
    best = max(counts.values(), default=0)
    leaders = [p for p, n in counts.items() if n == best]
    if best >= need and len(leaders) == 1:
        return Board(gm, winter, units, owned, finished=True, winner=leaders[0])
    if rules.end_year is not None and year >= rules.end_year:
        return Board(gm, winter, units, owned, finished=True)
    candidate = Board(gm, winter, units, owned)
    unit_count: dict[str, int] = {}
    for u in units:
        unit_count[u.power] = unit_count.get(u.power, 0) + 1
    for power in gm.powers:
        delta = counts.get(power, 0) - unit_count.get(power, 0)
        if delta < 0 or (delta > 0 and adjustment_count(candidate, power) > 0):
            return candidate
    return Board(gm, Phase(year + 1, Season.SPRING, PhaseType.MOVEMENT), units, owned)


def units_by_power(board: Board) -> dict[str, list[str]]:
    """``{power: ["A PAR", ...]}`` for every power (empty lists included)."""
    out: dict[str, list[str]] = {p: [] for p in board.game_map.powers}
    for u in board.units:
        out[u.power].append(str(u))
    return out


__all__ = [
    "DEFAULT_RULES",
    "CivilDisorderRule",
    "OrderResult",
    "OrderStatus",
    "PhaseResult",
    "RejectedOrder",
    "Rules",
    "process_phase",
    "units_by_power",
]
