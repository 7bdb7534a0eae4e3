"""Proposals put into words: the game writes the sentence of every proposal act, so what
a message says and what it proposes are the same thing (as werewolf renders speech acts).

Each act has several templates; which one a message uses is fixed by the proposal's id
(a replay writes the same words). ``summary`` is the short form used in agreements,
events and the betrayal table.
"""

from __future__ import annotations

import zlib

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
from parlour.games.diplomacy.views import power_name


def _span(term: Term, phase: str) -> str:
    phases = term_phases(term, phase)
    return phases[0] if len(phases) == 1 else f"{phases[0]}–{phases[-1]}"


#: ``by``'s side of a term agreed with ``partner`` (``summary``), by the term's type
SUMMARY: dict[type, str] = {
    Peace: "{who}: no attack on {partner} ({span})",
    Alliance: "{who}: allied with {partner} against {x} ({span})",
    Dmz: "{who}: {p} demilitarised ({phase})",
    StayOut: "{who}: stays out of {p} ({phase})",
    MoveInto: "{who}: {u} moves to {p} ({phase})",
    HoldUnit: "{who}: {u} holds ({phase})",
    Support: "{who}: {u} supports the unit in {f} {w} ({phase})",
}


def summary(term: Term, by: str, partner: str, phase: str) -> str:
    """``by``'s side of ``term`` agreed with ``partner``, in a few words."""
    return SUMMARY[type(term)].format(
        who=power_name(by), partner=power_name(partner), **_fields(term, phase)
    )


def _n(term: Peace | Alliance) -> str:
    return "this season" if term.phases == 1 else f"the next {term.phases} seasons"


OFFER: dict[type, tuple[str, ...]] = {
    Peace: (
        "I propose peace between us for {n}: I will not attack your units or centres.",
        "Let us not fight. For {n} I keep my armies off everything of yours.",
        "Peace on our border for {n}? You have my word: no attack on you.",
    ),
    Alliance: (
        "Join me against {x} for {n}: we leave each other alone and nobody helps {x}.",
        "{x} is the danger. I offer an alliance against them for {n}.",
    ),
    Dmz: (
        "Let us keep {p} empty: neither of us moves in this season.",
        "I propose {p} as a demilitarised zone between us.",
    ),
    StayOut: ("I will stay out of {p} this season.", "You can count on me to keep out of {p}."),
    MoveInto: ("I will move {u} to {p}.", "My {u} goes to {p} this season."),
    HoldUnit: ("{u} will stay where it is.", "I will hold {u} this season."),
    Support: ("{u} will support your unit in {f} {w}.", "You will have the support of {u} {w}."),
}

REQUEST: dict[type, tuple[str, ...]] = {
    Peace: (
        "Shall we keep peace for {n}? Neither of us attacks the other.",
        "Will you agree to leave me alone for {n}, as I leave you?",
    ),
    Alliance: ("Will you stand with me against {x} for {n}?",),
    Dmz: ("Can we agree to keep {p} empty, both of us?",),
    StayOut: ("Please keep out of {p} this season.", "Will you stay out of {p}?"),
    MoveInto: ("Could you move {u} to {p}?", "I would like your {u} in {p} this season."),
    HoldUnit: ("Will you keep {u} where it is?", "Please hold {u} this season."),
    Support: (
        "Will {u} support my unit in {f} {w}?",
        "I ask for the support of your {u}: my unit in {f} {w}.",
    ),
}

ACCEPT = ("Agreed: {s}.", "Deal: {s}.", "Yes, you have it: {s}.")
REJECT = ("No, I cannot agree to {s}.", "Not this time: {s} does not suit me.")
COUNTER = ("Not that. Instead:", "I have a better idea.")


def _pick(options: tuple[str, ...], key: str) -> str:
    return options[zlib.crc32(key.encode()) % len(options)]


def _fields(t: Term, phase: str) -> dict[str, str]:
    """What the templates say of term ``t`` from ``phase`` on: ``n`` the seasons and
    ``span`` their names, ``x`` the power allied against, ``p`` the province, ``u`` the
    unit, ``f`` the supported unit's province and ``w`` where it goes ("" where none)."""
    return {
        "phase": phase,
        "span": _span(t, phase) if isinstance(t, (Peace, Alliance)) else "",
        "n": _n(t) if isinstance(t, (Peace, Alliance)) else "",
        "x": power_name(t.against) if isinstance(t, Alliance) else "",
        "p": t.province if isinstance(t, (Dmz, StayOut, MoveInto)) else "",
        "u": t.unit if isinstance(t, (MoveInto, HoldUnit, Support)) else "",
        "f": t.from_ if isinstance(t, Support) else "",
        "w": ("to hold" if t.to == t.from_ else f"into {t.to}") if isinstance(t, Support) else "",
    }


def sentence(p: Proposal) -> str:
    """The sentence that states proposal ``p`` (an offer or a request)."""
    table = REQUEST if p.ask else OFFER
    return _pick(table[type(p.term)], p.id).format(**_fields(p.term, p.phase))


#: what a mutual term proposes, said by either side (``phrase``)
PHRASE: dict[type, str] = {
    Peace: "peace between us ({span})",
    Alliance: "our alliance against {x} ({span})",
    Dmz: "{p} stays empty this season",
}


def phrase(p: Proposal) -> str:
    """What ``p`` proposes, said by either side ("peace between us (S1901M–F1901M)")."""
    t = p.term
    if type(t) in PHRASE:
        return PHRASE[type(t)].format(**_fields(t, p.phase))
    doer = p.doers()[0]
    return summary(t, doer, p.sender if doer == p.to else p.to, p.phase).split(": ", 1)[1]


def answer(kind: str, p: Proposal, by: str) -> str:
    """The sentence of ``by`` accepting or rejecting ``p``."""
    return _pick(ACCEPT if kind == "accept" else REJECT, p.id + by).format(s=phrase(p))


def counter_opening(ref: str) -> str:
    return _pick(COUNTER, ref)
