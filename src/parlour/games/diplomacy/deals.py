"""Commitments from what was agreed, judged against the orders actually given.

An accepted proposal becomes one ``Deal`` per side it binds, with its scope: the
movement phases it covers (a pact for N phases, else the phase it was made in), and the
units and provinces its term names. After each adjudication every open deal whose scope
covers the phase is judged against the submitted orders of the power it binds:

* ``Support``: broken when the promised support is missing, or the unit's order attacks
  the partner;
* ``MoveInto`` / ``HoldUnit``: broken unless the unit was ordered to move there / not to
  move;
* ``StayOut`` / ``Dmz``: broken by any move of ours into the province;
* ``Peace``: broken by any attack (a move, or support of a foreign move) on the
  partner's units or centres;
* ``Alliance``: broken by an attack on the partner or any support of the enemy's units.

A deal not broken by the end of its scope is kept. A **lie** is a statement of intent
(an offer of one's own, or the acceptance of a request) that the same power's orders of
that phase contradict, accepted or not.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from parlour.games.diplomacy.board import Board
from parlour.games.diplomacy.orders import (
    Move,
    Order,
    OrderParseError,
    SupportHold,
    SupportMove,
    Waive,
    parse_order,
)
from parlour.games.diplomacy.proposals import (
    Alliance,
    Dmz,
    HoldUnit,
    MoveInto,
    Peace,
    Proposal,
    StayOut,
    Support,
    Term,
    term_phases,
)


@dataclass(frozen=True)
class Deal:
    """``by`` agreed with ``with_`` (proposal ``id``) to ``term`` over ``phases``."""

    id: str
    by: str
    with_: str
    term: Term
    phases: tuple[str, ...]
    status: str = "open"  # open | kept | broken
    #: the orders that broke it (or the missing order, in words)
    evidence: tuple[str, ...] = ()
    settled: str = ""  # the phase it was judged kept or broken in


@dataclass(frozen=True)
class Lie:
    phase: str
    by: str
    to: str
    term: Term
    evidence: tuple[str, ...]
    #: the statement was an agreement (so the lie is also a broken deal)
    agreed: bool = False


def deals_of(proposal: Proposal) -> list[Deal]:
    """The deals an accepted ``proposal`` makes: one per side it binds."""
    phases = term_phases(proposal.term, proposal.phase)
    return [
        Deal(
            proposal.id,
            by,
            proposal.sender if by == proposal.to else proposal.to,
            proposal.term,
            phases,
        )
        for by in proposal.doers()
    ]


def _parsed(texts: Iterable[str]) -> list[tuple[str, Order]]:
    out: list[tuple[str, Order]] = []
    for text in texts:
        try:
            out.append((text, parse_order(text)))
        except (OrderParseError, ValueError):
            continue
    return out


def attacks(board: Board, target: str, orders: Iterable[str]) -> list[str]:
    """The orders that attack ``target``: a move into a province with its unit or one of
    its centres, or support of a foreign unit's move there."""
    theirs = set(board.centres_of(target)) | {u.province for u in board.units_of(target)}
    out: list[str] = []
    for text, order in _parsed(orders):
        if isinstance(order, Move) and order.dest.province in theirs:
            out.append(text)
        elif isinstance(order, SupportMove) and order.dest.province in theirs:
            mover = board.unit_at(order.target[:3])
            if mover is None or mover.power != target:
                out.append(text)
    return out


def _unit_order(unit: str, parsed: list[tuple[str, Order]]) -> tuple[str, Order] | None:
    where = unit.split()[-1][:3]
    for text, order in parsed:
        if not isinstance(order, Waive) and order.location.province == where:
            return text, order
    return None


def breach(term: Term, by: str, partner: str, board: Board, orders: Iterable[str]) -> list[str]:
    """What in ``by``'s orders (texts, on ``board``) breaks ``term`` agreed with
    ``partner``; empty when nothing does."""
    texts = list(orders)
    parsed = _parsed(texts)
    if isinstance(term, Peace):
        return attacks(board, partner, texts)
    if isinstance(term, Alliance):
        out = attacks(board, partner, texts)
        for text, given_order in parsed:
            if isinstance(given_order, (SupportHold, SupportMove)):
                helped = board.unit_at(given_order.target[:3])
                if helped is not None and helped.power == term.against:
                    out.append(text)
        return out
    if isinstance(term, (StayOut, Dmz)):
        return [t for t, o in parsed if isinstance(o, Move) and o.dest.province == term.province]
    found = _unit_order(term.unit, parsed)
    given = found[0] if found else f"no order for {term.unit}"
    order: Order | None = found[1] if found else None
    if isinstance(term, MoveInto):
        ok = isinstance(order, Move) and order.dest.province == term.province
        return [] if ok else [given]
    if isinstance(term, HoldUnit):
        return [] if order is not None and not isinstance(order, Move) else [given]
    assert isinstance(term, Support)
    if term.to == term.from_:
        ok = isinstance(order, SupportHold) and order.target[:3] == term.from_
    else:
        ok = (
            isinstance(order, SupportMove)
            and order.target[:3] == term.from_
            and order.dest.province == term.to
        )
    against = attacks(board, partner, [given]) if found else []
    return against if ok and against else ([] if ok else [given])


def settle(
    deals: list[Deal], board: Board, submitted: dict[str, tuple[str, ...]]
) -> tuple[list[Deal], list[Deal]]:
    """Judge the open deals whose scope covers ``board``'s phase: (all deals after, the
    ones settled now)."""
    phase = board.phase.name
    out: list[Deal] = []
    now: list[Deal] = []
    for d in deals:
        if d.status != "open" or phase not in d.phases:
            out.append(d)
            continue
        broke = breach(d.term, d.by, d.with_, board, submitted.get(d.by, ()))
        if broke:
            d = replace(d, status="broken", evidence=tuple(broke), settled=phase)
        elif phase == d.phases[-1]:
            d = replace(d, status="kept", settled=phase)
        else:
            out.append(d)
            continue
        out.append(d)
        now.append(d)
    return out, now


def statements(
    proposals: Iterable[Proposal], accepted: set[str]
) -> list[tuple[str, str, Proposal]]:
    """(who said it, to whom, the proposal) for every statement of intent made: a
    proposal binding its sender (an offer, a pact); an accepted one binding the one who
    accepted it (a request, a pact)."""
    out: list[tuple[str, str, Proposal]] = []
    for p in proposals:
        if p.sender in p.doers():
            out.append((p.sender, p.to, p))
        if p.id in accepted and p.to in p.doers():
            out.append((p.to, p.sender, p))
    return out


def lies(
    proposals: Iterable[Proposal],
    accepted: set[str],
    board: Board,
    submitted: dict[str, tuple[str, ...]],
) -> list[Lie]:
    """Statements of this phase that the speaker's own orders contradict."""
    phase = board.phase.name
    out: list[Lie] = []
    for by, to, p in statements(proposals, accepted):
        if p.phase != phase:
            continue
        broke = breach(p.term, by, to, board, submitted.get(by, ()))
        if broke:
            out.append(Lie(phase, by, to, p.term, tuple(broke), p.id in accepted))
    return out
