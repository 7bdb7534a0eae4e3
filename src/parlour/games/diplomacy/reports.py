"""Readable texts (and typed data) for what an adjudicated phase did."""

from __future__ import annotations

from parlour.games.diplomacy.adjudicator import OrderStatus, PhaseResult
from parlour.games.diplomacy.board import Board, PhaseType
from parlour.games.diplomacy.orders import Build, Disband, Hold, Move, Retreat, Waive
from parlour.games.diplomacy.state import OrderOutcome
from parlour.games.diplomacy.views import power_name

# What a failed order is called, by order kind, for people.
_FAILED_MOVE = "bounced"


def outcomes(result: PhaseResult) -> tuple[OrderOutcome, ...]:
    return tuple(
        OrderOutcome(r.power, str(r.order), r.status.value, r.dislodged) for r in result.results
    )


def _movement_text(result: PhaseResult) -> str:
    moved, bounced, other = [], [], []
    for r in result.results:
        order = r.order
        if isinstance(order, Move):
            if r.status is OrderStatus.SUCCEEDED:
                moved.append(str(order))
            else:
                word = _FAILED_MOVE if r.status is OrderStatus.FAILED else r.status.value
                bounced.append(f"{order} ({word})")
        elif not isinstance(order, Hold) and r.status is not OrderStatus.SUCCEEDED:
            other.append(f"{order} ({r.status.value})")
    parts = []
    if moved:
        parts.append("Moved: " + "; ".join(moved) + ".")
    if bounced:
        parts.append("Failed: " + "; ".join(bounced) + ".")
    if other:
        parts.append("Cut or void: " + "; ".join(other) + ".")
    if result.dislodged:
        gone = []
        for d in result.dislodged:
            where = ", ".join(str(r) for r in d.retreats) if d.retreats else "none: destroyed"
            gone.append(f"{d.unit} ({power_name(d.unit.power)}; retreats: {where})")
        parts.append("Dislodged: " + "; ".join(gone) + ".")
    return " ".join(parts) or "Every unit held."


def _retreat_text(result: PhaseResult) -> str:
    parts = []
    for r in result.results:
        order = r.order
        if isinstance(order, Retreat) and r.status is OrderStatus.SUCCEEDED:
            parts.append(f"{order} (retreated)")
        elif isinstance(order, Retreat | Disband):
            parts.append(f"{order.unit_type} {order.location} disbanded")
    return "; ".join(parts) + "." if parts else "No retreats."


def _adjustment_text(result: PhaseResult) -> str:
    builds: dict[str, list[str]] = {}
    removals: dict[str, list[str]] = {}
    for r in result.results:
        order = r.order
        if isinstance(order, Build) and r.status is OrderStatus.SUCCEEDED:
            builds.setdefault(r.power, []).append(f"{order.unit_type} {order.location}")
        elif isinstance(order, Disband) and r.status in (
            OrderStatus.SUCCEEDED,
            OrderStatus.DEFAULTED,
        ):
            note = " (civil disorder)" if r.status is OrderStatus.DEFAULTED else ""
            removals.setdefault(r.power, []).append(f"{order.unit_type} {order.location}{note}")
        elif isinstance(order, Waive):
            continue
    parts = []
    if builds:
        parts.append(
            "Builds: " + "; ".join(f"{power_name(p)} {', '.join(u)}" for p, u in builds.items())
        )
    if removals:
        parts.append(
            "Removals: " + "; ".join(f"{power_name(p)} {', '.join(u)}" for p, u in removals.items())
        )
    return ". ".join(parts) + "." if parts else "No builds or removals."


def phase_text(result: PhaseResult) -> str:
    ptype = result.phase.type
    if ptype is PhaseType.MOVEMENT:
        body = _movement_text(result)
    elif ptype is PhaseType.RETREATS:
        body = _retreat_text(result)
    else:
        body = _adjustment_text(result)
    return f"{result.phase.long_name} resolved. {body}"


def centre_changes(
    before: Board, after: Board
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(gained, lost) centres per power between two boards."""
    gained: dict[str, list[str]] = {}
    lost: dict[str, list[str]] = {}
    for centre in after.game_map.supply_centres:
        old, new = before.centres.get(centre), after.centres.get(centre)
        if old == new:
            continue
        if new is not None:
            gained.setdefault(new, []).append(centre)
        if old is not None:
            lost.setdefault(old, []).append(centre)
    return gained, lost


def centres_text(
    year: int, after: Board, gained: dict[str, list[str]], lost: dict[str, list[str]]
) -> str:
    counts = after.centre_counts()
    parts = []
    for p in after.game_map.powers:
        delta = []
        if gained.get(p):
            delta.append("+" + ", ".join(gained[p]))
        if lost.get(p):
            delta.append("-" + ", ".join(lost[p]))
        extra = f" ({'; '.join(delta)})" if delta else ""
        parts.append(f"{power_name(p)} {counts.get(p, 0)}{extra}")
    return f"Supply centres after {year}: " + ", ".join(parts) + "."
