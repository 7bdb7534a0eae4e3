"""Diplomacy order types and their canonical text form.

Canonical strings follow the usual short notation::

    A PAR H            A PAR - BUR          A BRE - PIC VIA   (explicit convoy)
    A MUN S A PAR      A MUN S A PAR - BUR  F NTH C A LON - NWY
    F STP/SC - BOT     A BUR R PIC          A PAR D
    F BRE B            WAIVE

:func:`parse_order` reads that form (case-insensitive, a little lenient about
spacing, ``HOLD``/``SUPPORT``/``CONVOY`` words and ``SPA(NC)`` coasts) and
raises :class:`OrderParseError` saying what it expected. Parsing is syntax
only; whether an order is legal on a board is :mod:`.legal`'s job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .map import Location, UnitType


class OrderParseError(ValueError):
    """The text is not a well-formed order."""


@dataclass(frozen=True, slots=True)
class Hold:
    unit_type: UnitType
    location: Location

    def __str__(self) -> str:
        return f"{self.unit_type} {self.location} H"


@dataclass(frozen=True, slots=True)
class Move:
    """Move to ``dest``. ``via_convoy`` asks for the convoy route to an adjacent province."""

    unit_type: UnitType
    location: Location
    dest: Location
    via_convoy: bool = False

    def __str__(self) -> str:
        via = " VIA" if self.via_convoy else ""
        return f"{self.unit_type} {self.location} - {self.dest}{via}"


@dataclass(frozen=True, slots=True)
class SupportHold:
    """Support the unit in province ``target`` to stay where it is."""

    unit_type: UnitType
    location: Location
    target_type: UnitType
    target: str

    def __str__(self) -> str:
        return f"{self.unit_type} {self.location} S {self.target_type} {self.target}"


@dataclass(frozen=True, slots=True)
class SupportMove:
    """Support the unit in province ``target`` moving to ``dest`` (coast optional)."""

    unit_type: UnitType
    location: Location
    target_type: UnitType
    target: str
    dest: Location

    def __str__(self) -> str:
        return f"{self.unit_type} {self.location} S {self.target_type} {self.target} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Convoy:
    """Fleet convoys the army in ``army_from`` to ``army_to``."""

    unit_type: UnitType
    location: Location
    army_from: str
    army_to: str

    def __str__(self) -> str:
        return f"{self.unit_type} {self.location} C A {self.army_from} - {self.army_to}"


@dataclass(frozen=True, slots=True)
class Retreat:
    unit_type: UnitType
    location: Location
    dest: Location

    def __str__(self) -> str:
        return f"{self.unit_type} {self.location} R {self.dest}"


@dataclass(frozen=True, slots=True)
class Disband:
    """Disband a dislodged unit (retreat phase) or remove a unit (adjustment phase)."""

    unit_type: UnitType
    location: Location

    def __str__(self) -> str:
        return f"{self.unit_type} {self.location} D"


@dataclass(frozen=True, slots=True)
class Build:
    unit_type: UnitType
    location: Location

    def __str__(self) -> str:
        return f"{self.unit_type} {self.location} B"


@dataclass(frozen=True, slots=True)
class Waive:
    """Decline one build."""

    def __str__(self) -> str:
        return "WAIVE"


Order = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive
UnitOrder = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build
MOVEMENT_ORDER_TYPES = (Hold, Move, SupportHold, SupportMove, Convoy)


# --- parsing --------------------------------------------------------------

_WORDS = {
    "HOLD": "H",
    "HOLDS": "H",
    "SUPPORT": "S",
    "SUPPORTS": "S",
    "CONVOY": "C",
    "CONVOYS": "C",
    "RETREAT": "R",
    "RETREATS": "R",
    "DISBAND": "D",
    "DISBANDS": "D",
    "REMOVE": "D",
    "BUILD": "B",
    "BUILDS": "B",
    "ARMY": "A",
    "FLEET": "F",
    "MOVE": "-",
    "MOVES": "-",
    "TO": "-",
    "->": "-",
    "=>": "-",
}
_COAST_PAREN = re.compile(r"\(\s*([A-Z]{2})\s*\)")


def _tokens(text: str) -> list[str]:
    s = text.upper()
    if "(" in s:
        s = _COAST_PAREN.sub(r"/\1", s)  # SPA(NC) / SPA (nc) -> SPA/NC
    if ">" in s:
        s = s.replace("->", " - ").replace("=>", " - ")
    if "-" in s:
        s = s.replace("-", " - ")
    if "," in s:
        s = s.replace(",", " ")
    words = _WORDS
    return [words.get(t, t) for t in s.split()]


def _loc(token: str, text: str, what: str) -> Location:
    n = len(token)
    if n == 3 and token.isalpha():
        return Location(token)
    if n == 6 and token[3] == "/" and token[:3].isalpha() and token[4:].isalpha():
        return Location(token[:3], token[4:])
    raise OrderParseError(
        f"cannot parse order {text!r}: expected {what} as a 3-letter province "
        f"abbreviation with optional coast (e.g. PAR, STP/SC), got {token!r}"
    )


def _utype(token: str, text: str, what: str) -> UnitType:
    if token == "A":
        return UnitType.ARMY
    if token == "F":
        return UnitType.FLEET
    raise OrderParseError(
        f"cannot parse order {text!r}: expected {what} type A or F, got {token!r}"
    )


def parse_order(text: str) -> Order:
    """Parse canonical order text; raises :class:`OrderParseError` with the reason."""
    toks = _tokens(text)
    if not toks:
        raise OrderParseError("cannot parse an empty order")
    if toks == ["WAIVE"]:
        return Waive()
    if toks[0] == "B" and len(toks) == 3:  # "BUILD A PAR" form
        toks = [toks[1], toks[2], "B"]
    if len(toks) < 2:
        raise OrderParseError(f"cannot parse order {text!r}: expected '<A|F> <province> ...'")
    utype = _utype(toks[0], text, "unit")
    loc = _loc(toks[1], text, "the unit's location")
    rest = toks[2:]
    if not rest or rest == ["H"]:
        return Hold(utype, loc)
    head = rest[0]
    if head == "-":
        via = False
        if rest[-1] == "VIA" or rest[-2:] in (["VIA", "C"], ["BY", "C"]):
            via = True
            rest = rest[: -1 if rest[-1] == "VIA" else -2]
        if len(rest) != 2:
            raise OrderParseError(f"cannot parse move {text!r}: expected '- <destination> [VIA]'")
        return Move(utype, loc, _loc(rest[1], text, "the destination"), via)
    if head == "R":
        if len(rest) != 2:
            raise OrderParseError(f"cannot parse retreat {text!r}: expected 'R <destination>'")
        return Retreat(utype, loc, _loc(rest[1], text, "the retreat destination"))
    if head in ("D", "B") and len(rest) == 1:
        return Disband(utype, loc) if head == "D" else Build(utype, loc)
    if head == "S":
        body = rest[1:]
        if body and body[-1] == "H":
            body = body[:-1]
        if len(body) not in (2, 4) or (len(body) == 4 and body[2] != "-"):
            raise OrderParseError(
                f"cannot parse support {text!r}: expected 'S <A|F> <province>' "
                "or 'S <A|F> <province> - <destination>'"
            )
        ttype = _utype(body[0], text, "supported unit")
        target = _loc(body[1], text, "the supported unit's province").province
        if len(body) == 2:
            return SupportHold(utype, loc, ttype, target)
        return SupportMove(utype, loc, ttype, target, _loc(body[3], text, "the destination"))
    if head == "C":
        body = rest[1:]
        if body and body[0] == "A":
            body = body[1:]
        if len(body) != 3 or body[1] != "-":
            raise OrderParseError(f"cannot parse convoy {text!r}: expected 'C A <from> - <to>'")
        army_from = _loc(body[0], text, "the convoyed army's province").province
        army_to = _loc(body[2], text, "the convoy destination").province
        return Convoy(utype, loc, army_from, army_to)
    raise OrderParseError(
        f"cannot parse order {text!r}: after the unit expected H, -, S, C, R, D or B, got {head!r}"
    )


def format_order(order: Order) -> str:
    return str(order)


def order_province(order: Order) -> str | None:
    """The province of the unit (or build site) an order is for; None for WAIVE."""
    if isinstance(order, Waive):
        return None
    return order.location.province
