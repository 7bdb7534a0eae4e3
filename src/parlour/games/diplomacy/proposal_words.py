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


def summary(term: Term, by: str, partner: str, phase: str) -> str:
    """``by``'s side of ``term`` agreed with ``partner``, in a few words."""
    who = power_name(by)
    if isinstance(term, Peace):
        return f"{who}: no attack on {power_name(partner)} ({_span(term, phase)})"
    if isinstance(term, Alliance):
        return (
            f"{who}: allied with {power_name(partner)} against "
            f"{power_name(term.against)} ({_span(term, phase)})"
        )
    if isinstance(term, Dmz):
        return f"{who}: {term.province} demilitarised ({phase})"
    if isinstance(term, StayOut):
        return f"{who}: stays out of {term.province} ({phase})"
    if isinstance(term, MoveInto):
        return f"{who}: {term.unit} moves to {term.province} ({phase})"
    if isinstance(term, HoldUnit):
        return f"{who}: {term.unit} holds ({phase})"
    what = "to hold" if term.to == term.from_ else f"into {term.to}"
    return f"{who}: {term.unit} supports the unit in {term.from_} {what} ({phase})"


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


def sentence(p: Proposal) -> str:
    """The sentence that states proposal ``p`` (an offer or a request)."""
    t = p.term
    fields = {
        "n": _n(t) if isinstance(t, (Peace, Alliance)) else "",
        "x": power_name(t.against) if isinstance(t, Alliance) else "",
        "p": t.province if isinstance(t, (Dmz, StayOut, MoveInto)) else "",
        "u": t.unit if isinstance(t, (MoveInto, HoldUnit, Support)) else "",
        "f": t.from_ if isinstance(t, Support) else "",
        "w": ("to hold" if t.to == t.from_ else f"into {t.to}") if isinstance(t, Support) else "",
    }
    table = REQUEST if p.ask else OFFER
    return _pick(table[type(t)], p.id).format(**fields)


def phrase(p: Proposal) -> str:
    """What ``p`` proposes, said by either side ("peace between us (S1901M–F1901M)")."""
    t = p.term
    if isinstance(t, Peace):
        return f"peace between us ({_span(t, p.phase)})"
    if isinstance(t, Alliance):
        return f"our alliance against {power_name(t.against)} ({_span(t, p.phase)})"
    if isinstance(t, Dmz):
        return f"{t.province} stays empty this season"
    doer = p.doers()[0]
    return summary(t, doer, p.sender if doer == p.to else p.to, p.phase).split(": ", 1)[1]


def answer(kind: str, p: Proposal, by: str) -> str:
    """The sentence of ``by`` accepting or rejecting ``p``."""
    return _pick(ACCEPT if kind == "accept" else REJECT, p.id + by).format(s=phrase(p))


def counter_opening(ref: str) -> str:
    return _pick(COUNTER, ref)
