"""DumbBot: the classic rule-based Diplomacy baseline, implemented from its specification.

The bot values every unit position ("coast": ``A BUR``, ``F STP/NC``) from the
supply centres around it, then gives each unit an order by walking a ranked
list of destinations with a seeded chance of taking the next-best one. See
``docs/dumbbot.md`` for how each part of the spec maps onto this module and the
interpretation choices.

Every order it returns is an object taken from :func:`legal_orders`, so it can
never emit an illegal order. The bot keeps no state: all randomness comes from
the caller's generator (``random.Random`` or :class:`parlour.core.rng.Rng`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, TypeVar

from .board import Board, PhaseType, Season, Unit
from .legal import PowerOptions, legal_orders
from .map import GameMap, Location, ProvinceKind, UnitType
from .orders import Build, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove, Waive

T = TypeVar("T")

# A unit position: (unit type, location). Armies use the bare province.
Position = tuple[UnitType, Location]

PROXIMITY_DEPTH = 10
SPRING_PROXIMITY_WEIGHTS = (100, 1000, 30, 10, 6, 5, 4, 3, 2, 1)
FALL_PROXIMITY_WEIGHTS = (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1)
STRENGTH_WEIGHT = 1000
COMPETITION_WEIGHT = 1000
WINTER_DEFENCE_WEIGHT = 1000  # build and remove defence weights (both 1000)
PLAY_ALTERNATIVE = 50  # % chance of considering the next-best candidate
ALTERNATIVE_DIFFERENCE_MODIFIER = 500  # the "gap modifier"


class RandIntSource(Protocol):
    """What the bot needs from a generator; ``random.Random`` and ``Rng`` both fit."""

    def randint(self, a: int, b: int, /) -> int: ...


@dataclass(frozen=True, slots=True)
class Weights:
    """The phase-dependent constants of the valuation."""

    attack: int
    defence: int
    proximity: tuple[int, ...]
    strength: int  # 0 in winter
    competition: int  # 0 in winter
    winter_defence: int  # 0 outside winter


SPRING_WEIGHTS = Weights(700, 300, SPRING_PROXIMITY_WEIGHTS, STRENGTH_WEIGHT, COMPETITION_WEIGHT, 0)
FALL_WEIGHTS = Weights(600, 400, FALL_PROXIMITY_WEIGHTS, STRENGTH_WEIGHT, COMPETITION_WEIGHT, 0)
# Winter uses the spring attack/defence weights for level 0, the fall-shaped
# build/remove proximity weights, and a defence term instead of strength/competition.
WINTER_WEIGHTS = Weights(700, 300, FALL_PROXIMITY_WEIGHTS, 0, 0, WINTER_DEFENCE_WEIGHT)


def weights_for(board: Board) -> Weights:
    if board.phase.type is PhaseType.ADJUSTMENTS:
        return WINTER_WEIGHTS
    return SPRING_WEIGHTS if board.phase.season is Season.SPRING else FALL_WEIGHTS


def power_size(centres: int) -> int:
    """S(x) = x² + 4x + 16."""
    return centres * centres + 4 * centres + 16


# --- per-map tables (immutable, cached per map object) -----------------------------


@dataclass(frozen=True, eq=False)
class _Tables:
    positions: tuple[Position, ...]
    index: Mapping[Position, int]
    province: tuple[str, ...]  # province of each position
    # Neighbours of each position for its unit type: ``singles`` holds those in
    # provinces with one reachable position; ``groups`` lists (i, coast groups)
    # for the few positions next to two coasts of one province (the larger counts).
    singles: tuple[tuple[int, ...], ...]
    groups: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]


def _map_positions(gm: GameMap) -> list[Position]:
    out: list[Position] = []
    for abbrev in sorted(gm.provinces):
        prov = gm.provinces[abbrev]
        if prov.kind is not ProvinceKind.SEA:
            out.append((UnitType.ARMY, Location(abbrev)))
        out.extend((UnitType.FLEET, loc) for loc in gm.fleet_locations[abbrev])
    return out


@lru_cache(maxsize=8)
def _tables(gm: GameMap) -> _Tables:
    positions = _map_positions(gm)
    index = {pos: i for i, pos in enumerate(positions)}
    singles: list[list[int]] = []
    groups: list[tuple[int, tuple[tuple[int, ...], ...]]] = []
    for i, (utype, loc) in enumerate(positions):
        by_province: dict[str, list[int]] = {}
        for tgt in gm.move_targets(utype, loc):
            by_province.setdefault(tgt.province, []).append(index[(utype, tgt)])
        singles.append([ix[0] for ix in by_province.values() if len(ix) == 1])
        multi = tuple(tuple(ix) for ix in by_province.values() if len(ix) > 1)
        if multi:
            groups.append((i, multi))
    return _Tables(
        positions=tuple(positions),
        index=index,
        province=tuple(loc.province for _, loc in positions),
        singles=tuple(tuple(n) for n in singles),
        groups=tuple(groups),
    )


# --- valuation -----------------------------------------------------------------------


@dataclass(frozen=True)
class Evaluation:
    """Everything DumbBot computes about one board from one power's point of view.

    ``sizes`` maps each owner (``None`` = neutral) to S(centres). Province maps
    hold only non-zero entries. ``proximity[n][i]`` and ``values[i]`` are indexed
    like ``positions``; use :meth:`value` / :meth:`proximity_of` by position.
    """

    power: str
    weights: Weights
    sizes: Mapping[str | None, int]
    attack: Mapping[str, int]
    defence: Mapping[str, int]
    strength: Mapping[str, int]
    competition: Mapping[str, int]
    positions: tuple[Position, ...]
    proximity: tuple[tuple[int, ...], ...]
    values: tuple[int, ...]
    index: Mapping[Position, int]

    def value(self, unit_type: UnitType, loc: Location) -> int:
        return self.values[self.index[(unit_type, loc)]]

    def proximity_of(self, level: int, unit_type: UnitType, loc: Location) -> int:
        return self.proximity[level][self.index[(unit_type, loc)]]


def power_sizes(board: Board) -> dict[str | None, int]:
    """S(x) per power (every power, even with no centres) and for the neutral owner."""
    counts: dict[str | None, int] = dict.fromkeys(board.game_map.powers, 0)
    counts[None] = 0
    for sc in board.game_map.supply_centres:
        owner = board.centres.get(sc)
        counts[owner] = counts.get(owner, 0) + 1
    return {owner: power_size(n) for owner, n in counts.items()}


def _reach(board: Board, unit: Unit) -> frozenset[str]:
    return board.game_map.reachable_provinces(unit.type, unit.location)


def centre_values(
    board: Board,
    power: str,
    sizes: Mapping[str | None, int],
    friends: frozenset[str] = frozenset(),
) -> tuple[dict[str, int], dict[str, int]]:
    """(attack, defence) per supply centre, zero entries omitted. A friend's centres are
    no target and its units no threat."""
    attack: dict[str, int] = {}
    defence: dict[str, int] = {}
    for sc in board.game_map.supply_centres:
        owner = board.centres.get(sc)
        if owner != power and owner not in friends:
            attack[sc] = sizes[owner]
    for u in board.units:
        if u.power == power or u.power in friends:
            continue
        for p in _reach(board, u):
            if board.centres.get(p) == power:
                defence[p] = max(defence.get(p, 0), sizes[u.power])
    return attack, defence


def strength_competition(
    board: Board, power: str, friends: frozenset[str] = frozenset()
) -> tuple[dict[str, int], dict[str, int]]:
    """Per province: our units in/adjacent to it, and the most any other power (not a
    friend) has there."""
    counts: dict[str, dict[str, int]] = {}
    for u in board.units:
        per = counts.setdefault(u.power, {})
        for p in (u.province, *_reach(board, u)):
            per[p] = per.get(p, 0) + 1
    strength = dict(counts.get(power, {}))
    competition: dict[str, int] = {}
    for other, per in counts.items():
        if other == power or other in friends:
            continue
        for p, n in per.items():
            if n > competition.get(p, 0):
                competition[p] = n
    return strength, competition


def _proximity(tables: _Tables, level0: list[int]) -> tuple[tuple[int, ...], ...]:
    levels = [tuple(level0)]
    singles = tables.singles
    for _ in range(1, PROXIMITY_DEPTH):
        prev = levels[-1]
        get = prev.__getitem__
        total = [own + sum(map(get, singles[i])) for i, own in enumerate(prev)]
        for i, grps in tables.groups:
            for grp in grps:
                total[i] += max(map(get, grp))
        levels.append(tuple(v // 5 for v in total))  # never negative, so // truncates
    return tuple(levels)


def evaluate(board: Board, power: str, friends: frozenset[str] = frozenset()) -> Evaluation:
    """Compute DumbBot's province and position values for ``power`` on ``board``.

    ``friends`` (powers ``power`` is at peace or allied with; none in DumbBot itself)
    are left out of the threat and the targets, so their borders need no guard and the
    units that guarded them go elsewhere."""
    tables = _tables(board.game_map)
    w = weights_for(board)
    sizes = power_sizes(board)
    attack, defence = centre_values(board, power, sizes, friends)
    level0 = [attack.get(p, 0) * w.attack + defence.get(p, 0) * w.defence for p in tables.province]
    proximity = _proximity(tables, level0)
    strength, competition = strength_competition(board, power, friends)
    values = [
        w.strength * strength.get(p, 0)
        - w.competition * competition.get(p, 0)
        + w.winter_defence * defence.get(p, 0)
        for p in tables.province
    ]
    for weight, level in zip(w.proximity, proximity, strict=True):
        values = [v + weight * x for v, x in zip(values, level, strict=True)]
    return Evaluation(
        power=power,
        weights=w,
        sizes=sizes,
        attack=attack,
        defence=defence,
        strength=strength,
        competition=competition,
        positions=tables.positions,
        proximity=proximity,
        values=tuple(values),
        index=tables.index,
    )


# --- choosing among ranked candidates ----------------------------------------------


def rank(candidates: Sequence[tuple[int, T]], lowest_first: bool = False) -> list[tuple[int, T]]:
    """Sort (value, item) best first; equal values collapse to the first listed."""
    ordered = sorted(candidates, key=lambda c: c[0], reverse=not lowest_first)  # stable
    out: list[tuple[int, T]] = []
    for cand in ordered:
        if not out or out[-1][0] != cand[0]:
            out.append(cand)
    return out


def next_chance(value: int, next_value: int) -> int:
    """Percent chance *against* moving on: |gap| × 500 / |value|, truncated (0 if value is 0)."""
    if value == 0:
        return 0
    return abs(value - next_value) * ALTERNATIVE_DIFFERENCE_MODIFIER // abs(value)


def choose_index(ranked: Sequence[tuple[int, object]], rng: RandIntSource) -> int:
    """Walk down a ranked list, moving on with ~50% × (1 - 5·gap/value) per step."""
    i = 0
    while i + 1 < len(ranked):
        chance = next_chance(ranked[i][0], ranked[i + 1][0])
        first = rng.randint(0, 99)
        second = rng.randint(0, 99)
        if first < PLAY_ALTERNATIVE and second >= chance:
            i += 1
        else:
            break
    return i


def shuffled(items: Sequence[T], rng: RandIntSource) -> list[T]:
    """Fisher–Yates with ``randint`` only, so any generator with it will do."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randint(0, i)
        out[i], out[j] = out[j], out[i]
    return out


# --- movement --------------------------------------------------------------------------


class _Movement:
    """The movement-phase ordering procedure for one power (one use)."""

    def __init__(self, board: Board, power: str, ev: Evaluation, rng: RandIntSource) -> None:
        self.board, self.ev, self.rng = board, ev, rng
        self.gm = board.game_map
        opts = legal_orders(board, power).units
        self.units = [u for u in board.units if u.power == power and str(u) in opts]
        # Desired order -> the identical object from the legal list.
        self.legal: dict[str, dict[Order, Order]] = {
            u.province: {lo.order: lo.order for lo in opts[str(u)]} for u in self.units
        }
        self.ours = {u.province: u for u in self.units}
        self.orders: dict[str, Order] = {}
        self.staying: set[str] = set()
        self.moving_to: dict[str, tuple[Unit, Location]] = {}  # dest province -> (unit, dest)
        self.waiting: set[str] = set()  # postponed, not yet ordered
        self.pending: dict[str, tuple[int, Position]] = {}  # a postponed unit's choice
        self.ranked: dict[str, list[tuple[int, Position]]] = {}

    def run(self) -> list[Order]:
        queue = deque(shuffled(self.units, self.rng))
        while queue:
            unit = queue.popleft()
            if unit.province in self.orders:
                continue
            blocker = self._order_unit(unit)
            if blocker is not None:  # order the occupant first, then come back
                self.waiting.add(unit.province)
                queue.remove(blocker)
                queue.appendleft(unit)
                queue.appendleft(blocker)
        self._use_wasted_holds()
        return [self.orders[u.province] for u in self.units]

    def _candidates(self, unit: Unit) -> list[tuple[int, Position]]:
        ranked = self.ranked.get(unit.province)
        if ranked is None:
            own: Position = (unit.type, unit.location)
            cands = [(self.ev.value(*own) + 1, own)]  # first, so ties prefer holding
            for order in self.legal[unit.province]:
                if self._is_direct_move(unit, order):
                    assert isinstance(order, Move)
                    cands.append((self.ev.value(unit.type, order.dest), (unit.type, order.dest)))
            ranked = rank(cands)
            self.ranked[unit.province] = ranked
        return ranked

    def _is_direct_move(self, unit: Unit, order: Order) -> bool:
        """A move without a convoy: DumbBot never convoys."""
        return (
            isinstance(order, Move)
            and not order.via_convoy
            and self.gm.can_move(unit.type, unit.location, order.dest)
        )

    def _order_unit(self, unit: Unit) -> Unit | None:
        """Give ``unit`` an order, or return our unordered unit it must wait for."""
        ranked = self._candidates(unit)
        choice = self.pending.pop(unit.province, None)
        while True:
            if choice is None:
                choice = ranked[choose_index(ranked, self.rng)]
            order, blocker = self._try(unit, choice[1])
            if blocker is not None:
                self.pending[unit.province] = choice
                return blocker
            if order is not None:
                self._record(unit, order)
                return None
            ranked.remove(choice)  # rejected; the own position is never rejected
            choice = None

    def _try(self, unit: Unit, pos: Position) -> tuple[Order | None, Unit | None]:
        """Apply the spec's rules to a chosen position: (order, None), (None, blocker) or reject."""
        dest = pos[1]
        prov = dest.province
        if prov == unit.province:
            return self._legal(unit, Hold(unit.type, unit.location)), None
        occupant = self.ours.get(prov)
        competition = self.ev.competition.get(prov, 0)
        if occupant is not None and prov not in self.orders:
            if prov in self.waiting:  # a cycle of postponements: don't swap, choose again
                return None, None
            return None, occupant
        if occupant is not None and prov in self.staying:
            if competition > 1:
                support = SupportHold(unit.type, unit.location, occupant.type, prov)
                return self._legal(unit, support), None
            return None, None
        mover = self.moving_to.get(prov)
        if mover is not None:
            if competition > 0:
                other = mover[0]
                support_move = SupportMove(
                    unit.type, unit.location, other.type, other.province, Location(prov)
                )
                return self._legal(unit, support_move), None
            return None, None
        return self._legal(unit, Move(unit.type, unit.location, dest)), None

    def _legal(self, unit: Unit, order: Order) -> Order | None:
        return self.legal[unit.province].get(order)

    def _record(self, unit: Unit, order: Order) -> None:
        self.orders[unit.province] = order
        self.waiting.discard(unit.province)
        if isinstance(order, Move):
            self.moving_to[order.dest.province] = (unit, order.dest)
        else:
            self.staying.add(unit.province)

    def _use_wasted_holds(self) -> None:
        """Turn each hold into a support of the best-valued neighbouring move or hold."""
        for unit in self.units:
            if isinstance(self.orders[unit.province], Hold):
                best = self._best_support(unit)
                if best is not None:
                    self.orders[unit.province] = best

    def _best_support(self, unit: Unit) -> Order | None:
        best: tuple[int, Order] | None = None
        for prov in sorted(self.gm.reachable_provinces(unit.type, unit.location)):
            competition = self.ev.competition.get(prov, 0)
            mover = self.moving_to.get(prov)
            occupant = self.ours.get(prov)
            order: Order | None = None
            if mover is not None and competition > 0:
                other, dest = mover
                value = self.ev.value(other.type, dest)
                order = SupportMove(
                    unit.type, unit.location, other.type, other.province, Location(prov)
                )
            elif occupant is not None and prov in self.staying and competition > 1:
                value = self.ev.value(occupant.type, occupant.location)
                order = SupportHold(unit.type, unit.location, occupant.type, prov)
            if order is None:
                continue
            legal = self._legal(unit, order)
            if legal is not None and (best is None or value > best[0]):
                best = (value, legal)
        return None if best is None else best[1]


# --- retreats and adjustments ------------------------------------------------------------


def _retreat_orders(board: Board, power: str, ev: Evaluation, rng: RandIntSource) -> list[Order]:
    opts = legal_orders(board, power).units
    taken: set[str] = set()
    out: list[Order] = []
    for d in shuffled(board.dislodged_of(power), rng):
        legal = opts.get(str(d.unit), ())
        ranked = rank(
            [
                (ev.value(lo.order.unit_type, lo.order.dest), lo.order)
                for lo in legal
                if isinstance(lo.order, Retreat)
            ]
        )
        chosen: Order | None = None
        while ranked:
            cand = ranked[choose_index(ranked, rng)]
            if cand[1].dest.province in taken:  # another of ours already goes there
                ranked.remove(cand)
                continue
            chosen = cand[1]
            taken.add(cand[1].dest.province)
            break
        if chosen is None:
            chosen = next(lo.order for lo in legal if isinstance(lo.order, Disband))
        out.append(chosen)
    return out


_Adjustment = TypeVar("_Adjustment", Build, Disband)


def _valued(
    opts: PowerOptions, ev: Evaluation, kind: type[_Adjustment]
) -> list[tuple[int, _Adjustment]]:
    """Every legal adjustment of ``kind``, with the value of its unit at its location."""
    return [
        (ev.value(lo.order.unit_type, lo.order.location), lo.order)
        for lo in opts.adjustments
        if isinstance(lo.order, kind)
    ]


def _build_orders(opts: PowerOptions, ev: Evaluation, rng: RandIntSource) -> list[Order]:
    cands = _valued(opts, ev, Build)
    waive = next(lo.order for lo in opts.adjustments if isinstance(lo.order, Waive))
    out: list[Order] = []
    for _ in range(opts.adjustment_count):
        ranked = rank(cands)
        if not ranked:
            out.append(waive)
            continue
        build = ranked[choose_index(ranked, rng)][1]
        out.append(build)
        cands = [c for c in cands if c[1].location.province != build.location.province]
    return out


def _removal_orders(opts: PowerOptions, ev: Evaluation, rng: RandIntSource) -> list[Order]:
    cands = _valued(opts, ev, Disband)
    out: list[Order] = []
    for _ in range(-opts.adjustment_count):
        ranked = rank(cands, lowest_first=True)
        if not ranked:
            break
        removal = ranked[choose_index(ranked, rng)][1]
        out.append(removal)
        cands = [c for c in cands if c[1] != removal]
    return out


def _adjustment_orders(board: Board, power: str, ev: Evaluation, rng: RandIntSource) -> list[Order]:
    opts = legal_orders(board, power)
    if opts.adjustment_count > 0:
        return _build_orders(opts, ev, rng)
    if opts.adjustment_count < 0:
        return _removal_orders(opts, ev, rng)
    return []


_PHASE_HANDLERS: Mapping[
    PhaseType, Callable[[Board, str, Evaluation, RandIntSource], list[Order]]
] = {
    PhaseType.MOVEMENT: lambda b, p, ev, rng: _Movement(b, p, ev, rng).run(),
    PhaseType.RETREATS: _retreat_orders,
    PhaseType.ADJUSTMENTS: _adjustment_orders,
}


def dumbbot_orders(
    board: Board, power: str, rng: RandIntSource, friends: frozenset[str] = frozenset()
) -> list[Order]:
    """DumbBot's orders for ``power`` in the board's phase (movement, retreats or adjustments).

    Every returned order is the very object :func:`legal_orders` lists. Powers
    with nothing to order (or a finished game) get ``[]``. ``friends``: see
    :func:`evaluate` (empty: DumbBot exactly).
    """
    if board.finished or not legal_orders(board, power).has_orders:
        return []
    ev = evaluate(board, power, friends)
    return _PHASE_HANDLERS[board.phase.type](board, power, ev, rng)


__all__ = [
    "FALL_WEIGHTS",
    "PROXIMITY_DEPTH",
    "SPRING_WEIGHTS",
    "WINTER_WEIGHTS",
    "Evaluation",
    "Position",
    "RandIntSource",
    "Weights",
    "choose_index",
    "dumbbot_orders",
    "evaluate",
    "next_chance",
    "power_size",
    "power_sizes",
    "rank",
    "shuffled",
]
