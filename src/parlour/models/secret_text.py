"""The secret sentences of a prompt, fitted into a length bound, verbatim or restated.

A secret is recognised by the leak marker planted in it (``[[mk:...]]``, see
``core/markers.py``): its sentence is the text around the marker up to line or sentence
boundaries, at most ``REACH`` characters each side. Markers are appended to the secret
they mark, so the text before a marker on its line is taken whole (a role line of three
sentences is one secret), and a marker right after a full stop closes its sentence.

Used by the indiscreet backend (``models/indiscreet.py``), which repeats every secret it
is shown, so that the leak audit and the games' gates can be tested against the worst
model there is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

#: Any planted marker, whatever its key (``[[mk:KEY]]`` or ``[[mk:NONCE:KEY]]``).
MARKER: Final = re.compile(r"\[\[mk:[^\[\]\s]{1,120}\]\]")
#: How far a secret sentence reaches on each side of its marker at most.
REACH: Final = 200
#: The end of a sentence: a full stop, question or exclamation mark before white space.
_END: Final = re.compile(r"[.!?](?=\s)|\n")


@dataclass(frozen=True)
class Secret:
    """One secret sentence, verbatim, and the markers it carries (in order)."""

    text: str
    markers: tuple[str, ...]


def _masked(text: str) -> str:
    """``text`` with every marker blanked out (same length), so that dots or colons inside
    a marker's key are never taken for sentence ends."""
    return MARKER.sub(lambda m: "x" * len(m.group(0)), text)


def _span(masked: str, begin: int, finish: int) -> tuple[int, int]:
    """The secret around the marker at ``masked[begin:finish]``.

    Back: to the start of its line, or, on a line longer than ``REACH``, to the first
    sentence start within ``REACH``. On: to the end of its sentence (or line), unless the
    marker follows a full stop, which means it closes the text before it."""
    line = masked.rfind("\n", 0, begin) + 1
    floor = max(line, begin - REACH)
    start = floor
    if floor > line:  # cut at a sentence start, else at a word start
        first = _END.search(masked, floor, begin)
        space = masked.find(" ", floor, begin)
        start = first.end() if first is not None else (floor if space < 0 else space)
    if masked[start:begin].rstrip().endswith((".", "!", "?")):
        return start, finish
    ceiling = min(len(masked), finish + REACH)
    found = _END.search(masked, finish, ceiling)
    if found is not None:
        return start, (found.end() if found.group(0) != "\n" else found.start())
    if ceiling < len(masked) and not masked[ceiling].isspace():
        space = masked.rfind(" ", finish, ceiling)  # not in the middle of a word
        ceiling = finish if space < 0 else space
    return start, ceiling


def secrets_in(texts: Sequence[str]) -> list[Secret]:
    """Every secret sentence of ``texts`` that carries a marker no earlier one did, in
    order of first appearance (a secret quoted again, e.g. in an answer being retried,
    is told once)."""
    found: list[Secret] = []
    told: set[str] = set()
    for text in texts:
        masked = _masked(text)
        spans: list[tuple[int, int]] = []
        for match in MARKER.finditer(text):
            start, end = _span(masked, match.start(), match.end())
            if spans and start < spans[-1][1]:  # two markers in one sentence
                spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
            else:
                spans.append((start, end))
        for start, end in spans:
            sentence = " ".join(text[start:end].split())
            markers = tuple(MARKER.findall(sentence))
            if sentence and not told.issuperset(markers):
                told.update(markers)
                found.append(Secret(sentence, markers))
    return found


def fit(secrets: Sequence[Secret], limit: int | None) -> str:
    """The secrets joined into at most ``limit`` characters: as many whole sentences as
    fit, in order, and the bare markers of the ones left out; markers that do not fit
    either are dropped from the end."""
    if limit is None:
        return " ".join(s.text for s in secrets)
    chosen: list[Secret] = []

    def composed(picked: Sequence[Secret]) -> str:
        taken = {m for s in picked for m in s.markers}
        rest: list[str] = []
        for s in secrets:
            if s not in picked:
                rest += [m for m in s.markers if m not in taken and m not in rest]
        return " ".join([*(s.text for s in picked), *rest])

    for secret in secrets:
        if len(composed([*chosen, secret])) <= limit:
            chosen.append(secret)
    text = composed(chosen)
    while len(text) > limit and " " in text:
        text = text.rsplit(" ", 1)[0]
    return text if len(text) <= limit else ""


# -- restating --------------------------------------------------------------------------

_STOPWORDS: Final = frozenset(
    re.findall(
        r"\w+",
        "a an the is are was were be been being am of to in on at by for with as that this "
        "these those it its and or but so if then than very just also your you i me my we our "
        "has have had do does did will would shall should can could may might must",
    )
)

#: Word → another word with (roughly) its meaning; the games' secrets are about roles,
#: places, plans and guilt.
_SYNONYMS: Final = {
    "secret": "hidden",
    "secretly": "covertly",
    "werewolf": "wolf",
    "werewolves": "wolves",
    "wolf": "lupine",
    "wolves": "pack",
    "seer": "oracle",
    "doctor": "healer",
    "villager": "townsfolk",
    "role": "part",
    "player": "participant",
    "killed": "slain",
    "kill": "slay",
    "dead": "deceased",
    "know": "realise",
    "knows": "realises",
    "saw": "witnessed",
    "see": "witness",
    "hidden": "concealed",
    "hide": "conceal",
    "key": "opener",
    "door": "portal",
    "room": "chamber",
    "code": "cipher",
    "found": "discovered",
    "find": "discover",
    "truth": "reality",
    "guilty": "culpable",
    "murder": "homicide",
    "murderer": "killer",
    "culprit": "offender",
    "missing": "vanished",
    "plan": "scheme",
    "plans": "schemes",
    "attack": "assault",
    "support": "back",
    "move": "shift",
    "ally": "partner",
    "betray": "double-cross",
    "fleet": "navy",
    "army": "troops",
    "night": "nightfall",
    "day": "daytime",
    "team": "side",
    "partner": "accomplice",
    "target": "mark",
    "protect": "shield",
    "protected": "shielded",
    "lies": "falsehoods",
    "lie": "fib",
    "clue": "hint",
    "clues": "hints",
    "treasure": "loot",
    "danger": "peril",
    "reveal": "expose",
    "private": "confidential",
    "only": "solely",
    "said": "stated",
    "told": "informed",
    "went": "travelled",
    "left": "departed",
    "true": "real",
    "real": "genuine",
    "big": "large",
    "small": "little",
    "quickly": "fast",
    "behind": "beyond",
    "under": "beneath",
}

_CLAUSE: Final = re.compile(r"\s*(?:[,;:]|\s-\s|\band\b|\bbut\b|\bwhile\b|\bbecause\b)\s*")
_WORD: Final = re.compile(r"[A-Za-z][A-Za-z'-]*|\d+")


def _restate_clause(clause: str) -> list[str]:
    out: list[str] = []
    for word in _WORD.findall(clause):
        lowered = word.lower()
        if lowered in _STOPWORDS:
            continue
        if word[:1].isupper() and lowered not in _SYNONYMS:
            out.append(word)  # a name (or a sentence's first word): kept as written
            continue
        out.append(_SYNONYMS.get(lowered, lowered))
    return out


def restate(sentence: str) -> str:
    """``sentence`` in other words, deterministically: its clauses in reverse order, stop
    words dropped, words swapped for synonyms, lower case except names; every marker is
    kept, after the words of the clause it closed."""
    pieces = MARKER.split(sentence)
    markers = MARKER.findall(sentence)
    clauses: list[list[str]] = []
    for n, piece in enumerate(pieces):
        parts = [p for p in _CLAUSE.split(piece) if p.strip()]
        words = [_restate_clause(p) for p in parts]
        words = [w for w in words if w]
        if n < len(markers):  # the marker that followed this piece stays with its last clause
            if words:
                words[-1].append(markers[n])
            elif clauses:
                clauses[-1].append(markers[n])
            else:
                words = [[markers[n]]]
        clauses += words
    return " ".join(" ".join(c) for c in reversed(clauses))


def restated(secrets: Sequence[Secret]) -> list[Secret]:
    """Each secret restated (markers unchanged)."""
    return [Secret(restate(s.text), s.markers) for s in secrets]
