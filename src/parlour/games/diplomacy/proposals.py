"""Typed proposals: what press offers, asks for and answers, as values the engine checks.

A press message carries, next to its free text, up to two proposal acts:

* ``offer``: the sender will do the term; ``request``: the recipient is asked to;
* ``accept`` / ``reject`` / ``counter`` refer to an open proposal by its id (a counter
  rejects it and offers a new term in its place).

Terms: ``Support`` (a unit supports a move, or a hold when ``from == to``), ``MoveInto``
(a unit moves into a province), ``StayOut`` (no move into a province), ``Dmz`` (neither
side moves into a province), ``Peace`` (no attack on the other side's units or centres
for N movement phases), ``Alliance`` (against a third power, N phases: no attack on the
partner, no support for the enemy), ``HoldUnit`` (a unit does not move). ``Dmz``,
``Peace`` and ``Alliance`` bind both sides once accepted; the others bind the one who
does them.

``check`` holds every term against the map and the phase (a support must name a real
unit of the one who gives it and provinces it can reach); a term that fails is refused
with a sentence that says why, and never enters the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from parlour.games.diplomacy.board import Board, Phase, PhaseType, Season
from parlour.games.diplomacy.schema import list_of

Act = Literal["offer", "request", "accept", "reject", "counter"]
ACTS: tuple[Act, ...] = ("offer", "request", "accept", "reject", "counter")
TERMS = ("support", "move", "stay_out", "dmz", "peace", "alliance", "hold", "none")
#: most movement phases a multi-phase term may cover
MAX_PHASES = 4
#: proposal acts per message
MAX_ACTS = 2


@dataclass(frozen=True)
class Support:
    unit: str  # "A BUR": the supporting unit
    from_: str  # the supported unit's province
    to: str  # where it moves (== from_: support to hold)


@dataclass(frozen=True)
class MoveInto:
    unit: str
    province: str


@dataclass(frozen=True)
class StayOut:
    province: str


@dataclass(frozen=True)
class Dmz:
    province: str


@dataclass(frozen=True)
class Peace:
    phases: int


@dataclass(frozen=True)
class Alliance:
    against: str
    phases: int


@dataclass(frozen=True)
class HoldUnit:
    unit: str


Term = Support | MoveInto | StayOut | Dmz | Peace | Alliance | HoldUnit
#: terms that bind both sides once accepted
MUTUAL = (Dmz, Peace, Alliance)


@dataclass(frozen=True)
class Proposal:
    """``sender`` offers (``ask`` False: the sender does ``term``) or requests (the
    recipient ``to`` does it) in ``phase``."""

    id: str
    sender: str
    to: str
    term: Term
    ask: bool
    phase: str

    def doers(self) -> tuple[str, ...]:
        """Who is bound once it is accepted."""
        if isinstance(self.term, MUTUAL):
            return (self.sender, self.to)
        return (self.to,) if self.ask else (self.sender,)


@dataclass(frozen=True)
class Reply:
    """``accept`` / ``reject`` / ``counter`` of proposal ``ref``; a counter's own
    proposal is ``counter``."""

    act: Act
    ref: str
    counter: Proposal | None = None


def span(phase: str, n: int) -> tuple[str, ...]:
    """The names of ``n`` movement phases from ``phase`` on (``phase`` first)."""
    p = Phase.parse(phase)
    year, season = p.year, p.season
    if p.type is not PhaseType.MOVEMENT:  # a retreat or adjustment: the next movement
        year, season = (year, Season.FALL) if season is Season.SPRING else (year + 1, Season.SPRING)
    out: list[str] = []
    for _ in range(max(1, n)):
        out.append(Phase(year, season, PhaseType.MOVEMENT).name)
        year, season = (year, Season.FALL) if season is Season.SPRING else (year + 1, Season.SPRING)
    return tuple(out)


def term_phases(term: Term, phase: str) -> tuple[str, ...]:
    n = term.phases if isinstance(term, (Peace, Alliance)) else 1
    return span(phase, n)


# -- the act as a model or the scripted bot writes it ----------------------------------


def act_schema(units: list[str], powers: list[str], refs: list[str]) -> dict[str, Any]:
    """One flat object per act (every field present; "" or 1 where it does not apply), so
    a small model's grammar stays simple. Provinces are short strings, not an enum: the
    schema is printed in the prompt, and ``check`` refuses a province that is not there."""
    province = {"type": "string", "maxLength": 6}
    return list_of(
        {
            "act": {"type": "string", "enum": list(ACTS)},
            "term": {"type": "string", "enum": list(TERMS)},
            "unit": {"type": "string", "enum": ["", *units]},
            "from": province,
            "to": province,
            "power": {"type": "string", "enum": ["", *powers]},
            "phases": {"type": "integer", "minimum": 1, "maximum": MAX_PHASES},
            "ref": {"type": "string", "enum": ["", *refs]},
        },
        MAX_ACTS,
    )


def act(
    kind: Act,
    term: str = "none",
    *,
    unit: str = "",
    from_: str = "",
    to: str = "",
    power: str = "",
    phases: int = 1,
    ref: str = "",
) -> dict[str, Any]:
    """An act as the schema wants it (the scripted bot composes with this)."""
    return {
        "act": kind,
        "term": term,
        "unit": unit,
        "from": from_,
        "to": to,
        "power": power,
        "phases": phases,
        "ref": ref,
    }


def act_of(term: Term, kind: Act = "offer", ref: str = "") -> dict[str, Any]:
    """The act that states ``term`` (the inverse of ``term_of``)."""
    if isinstance(term, Support):
        return act(kind, "support", unit=term.unit, from_=term.from_, to=term.to, ref=ref)
    if isinstance(term, MoveInto):
        return act(kind, "move", unit=term.unit, to=term.province, ref=ref)
    if isinstance(term, StayOut):
        return act(kind, "stay_out", to=term.province, ref=ref)
    if isinstance(term, Dmz):
        return act(kind, "dmz", to=term.province, ref=ref)
    if isinstance(term, Peace):
        return act(kind, "peace", phases=term.phases, ref=ref)
    if isinstance(term, Alliance):
        return act(kind, "alliance", power=term.against, phases=term.phases, ref=ref)
    return act(kind, "hold", unit=term.unit, ref=ref)


#: the act fields each term needs
_FIELDS: dict[str, tuple[str, ...]] = {
    "support": ("unit", "from", "to"),
    "move": ("unit", "to"),
    "stay_out": ("to",),
    "dmz": ("to",),
    "peace": (),
    "alliance": ("power",),
    "hold": ("unit",),
}


def term_of(item: dict[str, Any]) -> Term | str:
    """The term an act names, or why it names none."""
    kind = str(item.get("term", "none"))
    unit = str(item.get("unit", ""))
    to, src = str(item.get("to", "")).upper()[:3], str(item.get("from", "")).upper()[:3]
    power = str(item.get("power", ""))
    phases = int(item.get("phases", 1) or 1)
    if kind not in _FIELDS:
        return f"'{kind}' is not a term ({', '.join(t for t in TERMS if t != 'none')})"
    missing = [
        n
        for n, v in zip(("unit", "from", "to", "power"), (unit, src, to, power), strict=True)
        if n in _FIELDS[kind] and not v
    ]
    if missing:
        return f"a {kind} term needs its {' and '.join(missing)}"
    if kind == "support":
        return Support(unit, src, to)
    if kind == "move":
        return MoveInto(unit, to)
    if kind == "stay_out":
        return StayOut(to)
    if kind == "dmz":
        return Dmz(to)
    if kind == "alliance":
        return Alliance(power, phases)
    if kind == "hold":
        return HoldUnit(unit)
    return Peace(phases)


# -- checking against the map and the phase --------------------------------------------


def check(term: Term, board: Board, doer: str, partner: str) -> str | None:
    """Why ``term`` (done by ``doer``, agreed with ``partner``) cannot be, or None."""
    gm = board.game_map
    if board.phase.type is not PhaseType.MOVEMENT:
        return "proposals are made before movement phases"
    for province in _provinces(term):
        if province not in gm.provinces:
            return f"{province} is not a province on the {gm.name} map"
    if isinstance(term, (Support, MoveInto, HoldUnit)):
        unit = board.unit_at(term.unit.split()[-1][:3])
        if unit is None or unit.text.split("/")[0] != term.unit.split("/")[0]:
            return f"there is no {term.unit} on the board"
        if unit.power not in (doer,):
            return f"{term.unit} is not a unit of the power that would order it"
        reach = gm.reachable_provinces(unit.type, unit.location)
        if isinstance(term, MoveInto) and term.province not in reach:
            return f"{term.unit} cannot reach {term.province}"
        if isinstance(term, Support):
            if term.to not in reach:
                return f"{term.unit} cannot support into {term.to}: not adjacent"
            mover = board.unit_at(term.from_)
            if mover is None:
                return f"there is no unit in {term.from_} to support"
            if term.to != term.from_ and term.to not in gm.reachable_provinces(
                mover.type, mover.location
            ):
                return f"the unit in {term.from_} cannot reach {term.to}"
    if isinstance(term, Alliance):
        if term.against not in gm.powers or term.against in (doer, partner):
            return f"an alliance must be against a third power, not {term.against}"
        if board.is_eliminated(term.against):
            return f"{term.against} is already out of the game"
    if isinstance(term, (Peace, Alliance)) and not 1 <= term.phases <= MAX_PHASES:
        return f"a pact lasts 1 to {MAX_PHASES} movement phases"
    return None


def _provinces(term: Term) -> tuple[str, ...]:
    if isinstance(term, Support):
        return (term.from_, term.to)
    if isinstance(term, (MoveInto,)):
        return (term.province,)
    if isinstance(term, (StayOut, Dmz)):
        return (term.province,)
    return ()
