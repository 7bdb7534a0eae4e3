"""Floor baselines for Diplomacy: uniformly random legal orders, and holding still.

Like DumbBot they only ever return order objects taken from :func:`legal_orders`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .adjudicator import DEFAULT_RULES, OrderStatus, Rules, process_phase
from .board import Board, PhaseType
from .dumbbot import RandIntSource
from .legal import LegalOrder, legal_orders
from .orders import Build, Disband, Hold, Order, Waive

T = TypeVar("T")


def _pick(items: Sequence[T], rng: RandIntSource) -> T:
    return items[rng.randint(0, len(items) - 1)]


def random_orders(board: Board, power: str, rng: RandIntSource) -> list[Order]:
    """A uniformly random legal order per unit (movement, retreats) or per slot (winter).

    Build slots choose uniformly among the remaining build sites' options and
    WAIVE; removals pick distinct units uniformly.
    """
    if board.finished:
        return []
    opts = legal_orders(board, power)
    if board.phase.type is not PhaseType.ADJUSTMENTS:
        return [_pick(choices, rng).order for choices in opts.units.values()]
    remaining: list[LegalOrder] = list(opts.adjustments)
    out: list[Order] = []
    for _ in range(abs(opts.adjustment_count)):
        chosen = _pick(remaining, rng).order
        out.append(chosen)
        if isinstance(chosen, Build):  # one build per site
            remaining = [
                lo
                for lo in remaining
                if isinstance(lo.order, Waive)
                or lo.order.location.province != chosen.location.province
            ]
        elif isinstance(chosen, Disband):
            remaining = [lo for lo in remaining if lo.order != chosen]
    return out


def hold_orders(board: Board, power: str, rules: Rules = DEFAULT_RULES) -> list[Order]:
    """Hold every unit, disband every dislodged unit, waive every build.

    Removals are the units the civil-disorder rule (``rules.civil_disorder``)
    would remove, found by letting the adjudicator resolve a winter with no
    orders, so the choice is exactly the engine's.
    """
    if board.finished:
        return []
    opts = legal_orders(board, power)
    ptype = board.phase.type
    if ptype is not PhaseType.ADJUSTMENTS:
        wanted = Hold if ptype is PhaseType.MOVEMENT else Disband
        return [
            next(lo.order for lo in choices if isinstance(lo.order, wanted))
            for choices in opts.units.values()
        ]
    if opts.adjustment_count > 0:
        waive = next(lo.order for lo in opts.adjustments if isinstance(lo.order, Waive))
        return [waive] * opts.adjustment_count
    if opts.adjustment_count < 0:
        legal = {lo.order: lo.order for lo in opts.adjustments}
        result = process_phase(board, {}, rules)
        return [
            legal[r.order]
            for r in result.results
            if r.power == power and r.status is OrderStatus.DEFAULTED
        ]
    return []


__all__ = ["hold_orders", "random_orders"]
