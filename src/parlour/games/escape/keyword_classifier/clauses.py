"""A message's clauses (split at "and", "then", commas, sentence ends), the verb each
opens with, and the ways ("down", "up") a clause of only a verb goes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from parlour.games.escape.function_words import FILLERS
from parlour.games.escape.keyword_classifier.matching import all_objects, raw_tokens, word_fits
from parlour.games.escape.roles import DIRECTIONS
from parlour.games.escape.text import words

CLAUSE = re.compile(
    r",?\s+(?:and then|then|and|after that|before|so(?=\s+(?:let|lets|i|we)\b))\s+|,\s+"
    r"|[.!?;:]+\s*",
    re.IGNORECASE,
)


#: Verbs that go one way of themselves: "lower the lift" moves it down, "raise" up.
_WAY_VERBS = {"lower": "down", "drop": "down", "raise": "up", "hoist": "up"}


_SELVES = frozenset({"myself", "yourself", "ourselves", "me", "us"})


MOVED = "moved:"  # a way a thing is moved, not one the player goes


def bare_ways(clauses: list[str], options: Sequence[tuple[str, str]]) -> frozenset[str]:
    """The ways ("down", "up") said in a clause of only a verb, that way and words naming
    none of the room's things ("I go down into the dark", "head down"): the way names the
    deed that goes there. A clause naming a thing ("go down through the trapdoor") is about
    that thing, and is left to the ordinary naming."""
    objects = all_objects(options)
    ways: set[str] = set()
    for clause in clauses:
        tokens = [(w, s) for w, s in raw_tokens(clause) if w not in FILLERS][1:]
        said_ways = {w for w in words(clause) if w in DIRECTIONS}
        lead = [w for w in words(clause) if w not in FILLERS][:1]
        if not said_ways and lead and lead[0] in _WAY_VERBS:
            # "lower the lift by hand": a thing moved down, a deed done to a thing (never
            # the player climbing: "lower the lantern into the hole"); "lower myself" goes.
            way = _WAY_VERBS[lead[0]]
            rest = words(clause)[words(clause).index(lead[0]) + 1 :][:1]
            said_ways = {way if rest and rest[0] in _SELVES else f"{MOVED}{way}"}
        if said_ways and not any(word_fits(s, o) for w, s in tokens for o in objects):
            ways |= said_ways
    return frozenset(ways)


def clause_verbs(clauses: list[str]) -> list[tuple[str, str]]:
    """The first word of each clause past any filler ("ok", "hmm, let's"), and "open" after
    it ("crack open the cupboard" is opening)."""
    verbs: list[tuple[str, str]] = []
    for clause in clauses:
        lead = [t for t in raw_tokens(clause) if t[0] not in FILLERS]
        verbs.extend(lead[:1])
        if len(lead) > 1 and lead[1][0] == "open":
            verbs.append(lead[1])
    return verbs
