"""Differential play against the reference `diplomacy` package (test-time only).

Random legal orders come from our own :mod:`parlour.games.diplomacy.legal`;
the same order strings go to ``diplomacy.Game``; after every phase both engines
must agree on the phase name, units, dislodged units, retreat options and
supply-centre ownership.

Known, documented rule differences (see ``docs/diplomacy-rules.md``) are
recognised by :func:`_explain` and counted separately; a game stops at its
first disagreement of either kind, since the two states have diverged.

Used by ``tests/diplomacy/test_differential.py`` (a few hundred phases) and
``benchmarks/diplomacy_differential.py`` (tens of thousands).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.games.diplomacy.adjudicator import PhaseResult, Rules, process_phase
from parlour.games.diplomacy.board import Board, PhaseType, initial_board
from parlour.games.diplomacy.legal import LegalOrder, PowerOptions, all_legal_orders
from parlour.games.diplomacy.orders import (
    Convoy,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)

# The reference follows DATC v2 on issue 4.A.3 (land route fallback when an
# explicit adjacent convoy has no convoy orders); everything else is our default.
REFERENCE_RULES = Rules(adjacent_convoy_fallback=True)


@dataclass
class Disagreement:
    seed: int
    phase: str
    kind: str  # "unexplained" or the name of a documented difference
    details: list[str]
    orders: dict[str, list[str]]
    board: dict[str, Any]

    def report(self) -> str:
        lines = [f"[{self.kind}] seed={self.seed} phase={self.phase}"]
        lines += [f"  {d}" for d in self.details]
        lines.append("  orders:")
        for p, os in sorted(self.orders.items()):
            lines.append(f"    {p}: {os}")
        lines.append(f"  board before: {self.board}")
        return "\n".join(lines)


@dataclass
class Timing:
    """Seconds spent per engine, accumulated over phases (interleaved, so load hits both)."""

    ours_legal: float = 0.0
    ours_process: float = 0.0
    ref_legal: float = 0.0
    ref_set_orders: float = 0.0
    ref_process: float = 0.0

    @property
    def ours(self) -> float:
        return self.ours_legal + self.ours_process

    @property
    def reference(self) -> float:
        return self.ref_legal + self.ref_set_orders + self.ref_process


@dataclass
class Stats:
    phases: int = 0
    games: int = 0
    by_type: dict[str, int] = field(default_factory=dict)
    disagreements: list[Disagreement] = field(default_factory=list)
    timing: Timing = field(default_factory=Timing)

    @property
    def explained(self) -> list[Disagreement]:
        return [d for d in self.disagreements if d.kind != "unexplained"]

    @property
    def unexplained(self) -> list[Disagreement]:
        return [d for d in self.disagreements if d.kind == "unexplained"]


# --- random but interesting orders ------------------------------------------------


def _pick_movement(
    rng: random.Random, options: Mapping[str, PowerOptions]
) -> dict[str, list[Order]]:
    """Random legal orders, biased so supports and convoys often match real moves."""
    chosen: dict[str, Order] = {}
    power_of: dict[str, str] = {}
    pending: list[tuple[str, tuple[LegalOrder, ...]]] = []
    for power, po in options.items():
        for los in po.units.values():
            province = los[0].order.location.province
            power_of[province] = power
            r = rng.random()
            if r < 0.05:
                continue  # unordered: holds by default
            if r < 0.55:
                moves = [lo for lo in los if isinstance(lo.order, Move)]
                if moves:
                    convoyed = [lo for lo in moves if _needs_convoy(lo.order)]
                    pool = convoyed if convoyed and rng.random() < 0.35 else moves
                    chosen[province] = rng.choice(pool).order
                    continue
            pending.append((province, los))
    for province, los in pending:
        supports = [
            lo
            for lo in los
            if isinstance(lo.order, (SupportHold, SupportMove)) and _matches(lo.order, chosen)
        ]
        convoys = [lo for lo in los if isinstance(lo.order, Convoy) and _matches(lo.order, chosen)]
        if convoys and rng.random() < 0.85:
            chosen[province] = rng.choice(convoys).order
        elif supports and rng.random() < 0.7:
            chosen[province] = rng.choice(supports).order
        else:
            chosen[province] = rng.choice(los).order
    out: dict[str, list[Order]] = {p: [] for p in options}
    for province, order in chosen.items():
        out[power_of[province]].append(order)
    return out


def _needs_convoy(order: Order) -> bool:
    return isinstance(order, Move) and (order.via_convoy or order.unit_type.value == "A")


def _matches(order: Order, chosen: Mapping[str, Order]) -> bool:
    if isinstance(order, SupportHold):
        target = chosen.get(order.target)
        return target is None or not isinstance(target, Move)
    if isinstance(order, SupportMove):
        target = chosen.get(order.target)
        return isinstance(target, Move) and target.dest.province == order.dest.province
    if isinstance(order, Convoy):
        target = chosen.get(order.army_from)
        return isinstance(target, Move) and target.dest.province == order.army_to
    return False


def random_orders(rng: random.Random, board: Board) -> dict[str, list[Order]]:
    options = all_legal_orders(board)
    ptype = board.phase.type
    if ptype is PhaseType.MOVEMENT:
        return _pick_movement(rng, options)
    out: dict[str, list[Order]] = {}
    for power, po in options.items():
        orders: list[Order] = []
        if ptype is PhaseType.RETREATS:
            for los in po.units.values():
                if rng.random() < 0.05:
                    continue  # unordered: disbanded
                retreats = [lo for lo in los if isinstance(lo.order, Retreat)]
                pool = retreats if retreats and rng.random() < 0.85 else los
                orders.append(rng.choice(pool).order)
        elif po.adjustment_count > 0:
            builds = [lo for lo in po.adjustments if lo.text != "WAIVE"]
            rng.shuffle(builds)
            used: set[str] = set()
            for lo in builds:
                if len(orders) >= po.adjustment_count:
                    break
                site = lo.order.location.province  # type: ignore[union-attr]
                if site not in used and rng.random() < 0.8:
                    used.add(site)
                    orders.append(lo.order)
            if len(orders) < po.adjustment_count and rng.random() < 0.5:
                waive = next(lo for lo in po.adjustments if lo.text == "WAIVE")
                orders.append(waive.order)
        elif po.adjustment_count < 0:
            need = -po.adjustment_count
            if rng.random() < 0.1:
                need = rng.randrange(need)  # too few: the civil-disorder rule picks
            orders = [lo.order for lo in rng.sample(list(po.adjustments), need)]
        out[power] = orders
    return out


# --- comparing the two engines ----------------------------------------------------


def reference_game(board: Board) -> Any:
    """A fresh reference game set to ``board`` (movement or adjustment phases only)."""
    from diplomacy import Game

    assert not board.dislodged
    game = Game()
    game.clear_units()
    game.clear_centers()
    for power in board.game_map.powers:
        game.set_units(power, [str(u) for u in board.units if u.power == power])
        game.set_centers(power, list(board.centres_of(power)))
    game.set_current_phase(board.phase.name)
    return game


def _ref_snapshot(game: Any) -> dict[str, Any]:
    state = game.get_state()
    units: dict[str, list[str]] = {}
    dislodged: dict[str, list[str]] = {}
    for power, us in game.get_units().items():
        units[power] = sorted(u for u in us if not u.startswith("*"))
        dislodged[power] = sorted(u[1:] for u in us if u.startswith("*"))
    occupied = {u.split()[1][:3] for us in units.values() for u in us}
    # The reference may list occupied provinces as retreats (it validates them
    # only when the retreat is ordered); keep the ones it would accept.
    retreats = {
        unit: sorted(loc for loc in locs if loc[:3] not in occupied)
        for power_retreats in state["retreats"].values()
        for unit, locs in power_retreats.items()
    }
    # A dislodged unit with no acceptable retreat is doomed: we remove it at once.
    doomed = {u for u, locs in retreats.items() if not locs}
    for power in dislodged:
        dislodged[power] = [u for u in dislodged[power] if u not in doomed]
    return {
        "phase": game.get_current_phase(),
        "units": units,
        "dislodged": dislodged,
        "centres": {p: sorted(cs) for p, cs in game.get_centers().items()},
        "retreats": {u: locs for u, locs in retreats.items() if locs},
    }


def _settle_reference(game: Any, ours: Board) -> bool:
    """Play out a reference retreat phase that we do not have (no orders: disbands).

    The reference keeps units dislodged by convoyed armies in a retreat phase
    even when every option is illegal, or only illegal for us (standoffs); we
    destroy them at once, so the retreat phase does not exist on our side.
    """
    if game.get_current_phase().endswith("R") and ours.phase.type is not PhaseType.RETREATS:
        game.process()
        return True
    return False


def _our_snapshot(board: Board) -> dict[str, Any]:
    powers = board.game_map.powers
    units = {p: sorted(str(u) for u in board.units if u.power == p) for p in powers}
    dislodged = {
        p: sorted(str(d.unit) for d in board.dislodged if d.unit.power == p) for p in powers
    }
    centres = {p: sorted(board.centres_of(p)) for p in powers}
    retreats = {str(d.unit): sorted(str(r) for r in d.retreats) for d in board.dislodged}
    return {
        "phase": board.phase_name,
        "units": units,
        "dislodged": dislodged,
        "centres": centres,
        "retreats": retreats,
    }


def _diff(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> list[str]:
    out = []
    for key in ("phase", "units", "dislodged", "centres", "retreats"):
        if ours[key] != theirs[key]:
            if isinstance(ours[key], dict):
                for k in sorted(set(ours[key]) | set(theirs[key])):
                    a, b = ours[key].get(k), theirs[key].get(k)
                    if a != b:
                        out.append(f"{key}[{k}]: ours={a} reference={b}")
            else:
                out.append(f"{key}: ours={ours[key]} reference={theirs[key]}")
    return out


RETREAT_BUG = "reference: retreat restrictions lifted after a convoyed attack"
VIA_SUPPORT_BUG = "reference: own-power support counted for a VIA move"
CONVOY_DISRUPTION_BUG = "reference: convoy disrupted by an attack too weak to dislodge"
H2H_DEFENCE_BUG = "reference: own-power support ignored in head-to-head defence"
DISRUPTED_FALLBACK = "reference: land fallback when an adjacent convoy is disrupted (DATC v2)"
CD_TIE_BREAK = "civil disorder tie-break (abbreviation vs province name)"


def _retreats_tolerable(
    convoyed: set[str], ours: Mapping[str, Any], theirs: Mapping[str, Any]
) -> bool:
    """Only differences: the reference's extra retreat options for units dislodged
    by convoyed armies (``convoyed``), including units we destroyed for lack of any."""
    if any(ours[k] != theirs[k] for k in ("phase", "units", "centres")):
        return False
    for power in set(ours["dislodged"]) | set(theirs["dislodged"]):
        a, b = set(ours["dislodged"].get(power, [])), set(theirs["dislodged"].get(power, []))
        if a != b and not (a <= b and (b - a) <= convoyed):
            return False
    for unit in set(ours["retreats"]) | set(theirs["retreats"]):
        a, b = ours["retreats"].get(unit, []), theirs["retreats"].get(unit, [])
        if a != b and not (unit in convoyed and set(a) <= set(b)):
            return False
    return True


def _strip(orders: Mapping[str, list[Order]], drop: set[Order]) -> dict[str, list[Order]]:
    return {p: [o for o in os if o not in drop] for p, os in orders.items()}


def _via_support_triggers(board: Board, orders: Mapping[str, list[Order]]) -> set[Order]:
    """Supports by the defender's own power for an explicit VIA move."""
    by_prov = {
        o.location.province: o for os in orders.values() for o in os if hasattr(o, "location")
    }  # type: ignore[union-attr]
    out: set[Order] = set()
    for power, os in orders.items():
        for o in os:
            if isinstance(o, SupportMove):
                move = by_prov.get(o.target)
                occupant = board.unit_at(o.dest.province)
                if (
                    isinstance(move, Move)
                    and move.via_convoy
                    and occupant
                    and occupant.power == power
                ):
                    out.add(o)
    return out


def _convoy_attack_triggers(board: Board, orders: Mapping[str, list[Order]]) -> set[Order]:
    """Supports by a convoying fleet's own power for an attack on that fleet."""
    convoying = {
        o.location.province: p for p, os in orders.items() for o in os if isinstance(o, Convoy)
    }
    return {
        o
        for p, os in orders.items()
        for o in os
        if isinstance(o, SupportMove) and convoying.get(o.dest.province) == p
    }


def _h2h_defence_triggers(board: Board, orders: Mapping[str, list[Order]]) -> set[Order]:
    """Supports for a move into a unit of the supporter's power that moves back (head-to-head)."""
    by_prov = {
        o.location.province: o for os in orders.values() for o in os if not isinstance(o, Waive)
    }
    out: set[Order] = set()
    for power, os in orders.items():
        for o in os:
            if not isinstance(o, SupportMove):
                continue
            occupant = board.unit_at(o.dest.province)
            back = by_prov.get(o.dest.province)
            if (
                occupant is not None
                and occupant.power == power
                and isinstance(back, Move)
                and back.dest.province == o.target
            ):
                out.add(o)
    return out


def _intent_convoy_triggers(board: Board, orders: Mapping[str, list[Order]]) -> set[Order]:
    """Convoy orders that make an army's adjacent move (without VIA) go by convoy."""
    gm = board.game_map
    moves = {o.location.province: o for os in orders.values() for o in os if isinstance(o, Move)}
    out: set[Order] = set()
    for power, os in orders.items():
        for o in os:
            if not isinstance(o, Convoy):
                continue
            move = moves.get(o.army_from)
            army = board.unit_at(o.army_from)
            if (
                isinstance(move, Move)
                and not move.via_convoy
                and move.dest.province == o.army_to
                and o.army_to in gm.army_adjacency.get(o.army_from, ())
                and army is not None
                and army.power == power
            ):
                out.add(o)
    return out


def _replay_agrees(board: Board, orders: Mapping[str, list[Order]]) -> bool:
    result = process_phase(board, orders, REFERENCE_RULES)
    game = reference_game(board)
    for power, os in orders.items():
        game.set_orders(power, [str(o) for o in os])
    game.process()
    _settle_reference(game, result.board)
    theirs = _ref_snapshot(game)
    snap = _our_snapshot(result.board)
    return snap == theirs or _retreats_tolerable(_convoy_dislodged(result), snap, theirs)


def _convoy_dislodged(result: PhaseResult) -> set[str]:
    return {str(d.unit) for d in result.dislodged if d.via_convoy}


def _explain(board: Board, orders: Mapping[str, list[Order]], result: PhaseResult) -> str:
    """Confirm a known reference difference by replaying without its trigger."""
    if board.phase.type is PhaseType.MOVEMENT and not board.dislodged:
        triggers = {
            VIA_SUPPORT_BUG: _via_support_triggers(board, orders),
            CONVOY_DISRUPTION_BUG: _convoy_attack_triggers(board, orders),
            H2H_DEFENCE_BUG: _h2h_defence_triggers(board, orders),
            DISRUPTED_FALLBACK: _intent_convoy_triggers(board, orders),
        }
        present = [(k, v) for k, v in triggers.items() if v]
        # Try each known trigger alone, then all of them together.
        candidates = list(present)
        if len(present) > 1:
            combined: set[Order] = set().union(*(v for _, v in present))
            candidates.append((" + ".join(k for k, _ in present), combined))
        for name, drop in candidates:
            if _replay_agrees(board, _strip(orders, drop)):
                return name
    if board.phase.type is PhaseType.ADJUSTMENTS:
        defaulted = [r for r in result.results if r.status.value == "defaulted"]
        if defaulted:
            explicit = {p: list(os) for p, os in orders.items()}
            for r in defaulted:
                explicit.setdefault(r.power, []).append(r.order)
            if _replay_agrees(board, explicit):
                return CD_TIE_BREAK
    return "unexplained"


def play_game(
    seed: int,
    max_phases: int,
    stats: Stats,
    rules: Rules = REFERENCE_RULES,
    max_year: int = 1935,
    timed: bool = False,
) -> None:
    """Play one random game in both engines, recording phases and disagreements.

    After a confirmed known difference the reference is re-seeded from our
    position (when that position has no retreats pending) and play goes on.
    """
    from diplomacy import Game

    rng = random.Random(seed)
    game = Game()
    board = initial_board()
    stats.games += 1
    for _ in range(max_phases):
        if board.finished or board.phase.year > max_year:
            return
        clock = time.perf_counter
        t0 = clock()
        all_legal_orders(board)  # what a client would ask for; cached for random_orders
        stats.timing.ours_legal += clock() - t0
        if timed:
            t0 = clock()
            game.get_all_possible_orders()
            stats.timing.ref_legal += clock() - t0
        orders = random_orders(rng, board)
        texts = {p: [str(o) for o in os] for p, os in orders.items()}
        before = board.to_dict()
        t_set = 0.0
        for power, os in texts.items():
            game.error = []
            t0 = clock()
            game.set_orders(power, os)
            t_set += clock() - t0
            if game.error:
                stats.disagreements.append(
                    Disagreement(
                        seed,
                        board.phase_name,
                        "unexplained",
                        [f"reference rejected {power} orders: {game.error}"],
                        texts,
                        before,
                    )
                )
                return
        t0 = clock()
        result = process_phase(board, orders, rules)
        stats.timing.ours_process += clock() - t0
        if result.rejected:
            raise AssertionError(f"our own legal orders were rejected: {result.rejected}")
        t0 = clock()
        game.process()
        stats.timing.ref_process += clock() - t0
        stats.timing.ref_set_orders += t_set
        settled = _settle_reference(game, result.board)
        stats.phases += 1
        kind = board.phase.type.value
        stats.by_type[kind] = stats.by_type.get(kind, 0) + 1
        nxt = result.board
        ours, theirs = _our_snapshot(nxt), _ref_snapshot(game)
        if ours == theirs and not settled:
            board = nxt
            continue
        if ours == theirs or _retreats_tolerable(_convoy_dislodged(result), ours, theirs):
            # Benign: the reference offered impossible or over-generous retreats;
            # our legal orders never use them, so the games stay in step.
            stats.disagreements.append(
                Disagreement(
                    seed, board.phase_name, RETREAT_BUG, _diff(ours, theirs), texts, before
                )
            )
            board = nxt
            continue
        kind_name = _explain(board, orders, result)
        stats.disagreements.append(
            Disagreement(seed, board.phase_name, kind_name, _diff(ours, theirs), texts, before)
        )
        if kind_name == "unexplained" or nxt.dislodged or nxt.finished:
            return
        game = reference_game(nxt)
        board = nxt


def run(
    seeds: Sequence[int], max_phases: int = 200, timed: bool = False, min_phases: int = 0
) -> Stats:
    """Play games from ``seeds`` (continuing past them until ``min_phases`` are played)."""
    stats = Stats()
    seed_list = list(seeds)
    next_seed = (max(seed_list) + 1) if seed_list else 0
    i = 0
    while i < len(seed_list) or stats.phases < min_phases:
        seed = seed_list[i] if i < len(seed_list) else next_seed + (i - len(seed_list))
        play_game(seed, max_phases, stats, timed=timed)
        i += 1
    return stats
