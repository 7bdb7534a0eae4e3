"""What the room calls its things: the options' descriptions with the names the room's
public text (intro and world facts, ``seat_requests.room_text``) gives their things.

A description may call a thing by one of its names ("turn the red steam valve") while the
room, as the player read it, calls it by a longer one ("a red valve wheel marked STEAM").
When that longer name ends in a word that is another action's thing ("turn the winding
wheel to open the roof vents"), a player's "turn the wheel" names both things, and the
classifier must know it: the description is read as the room writes the thing ("turn the
red steam valve wheel on the heating pipes"), so the ordinary rules see two wheels (an
order that does not say which is ``none``) and "the red steam wheel" names the valve.

Only a compound of two words, the first a head noun of the option's description, the
second a head noun of another action's (offered or not): both words are then known to be
names of things, so no verb or adjective of the room's prose is taken for one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

from parlour.games.escape.roles import roles
from parlour.games.escape.scenario import ASK_ID, NONE_ID
from parlour.games.escape.text import STOPWORDS, stem, words

Options = tuple[tuple[str, str], ...]


def room_named(
    options: Sequence[tuple[str, str]],
    unoffered: Sequence[tuple[str, str]],
    room: Sequence[str],
) -> tuple[Options, Options]:
    """``options`` and ``unoffered`` with each description naming its things as the room
    does (ids unchanged, so a pick is still an option's id)."""
    return _named(tuple(options), tuple(unoffered), tuple(room))


@lru_cache(maxsize=128)
def _named(options: Options, unoffered: Options, room: tuple[str, ...]) -> tuple[Options, Options]:
    everyone = [(o, d) for o, d in (*options, *unoffered) if o not in (NONE_ID, ASK_ID)]
    heads = {oid: roles(oid, label).heads for oid, label in everyone}
    longer: dict[str, dict[str, str]] = {}  # id -> its head word as written -> the room's name
    for text in room:
        said = words(text)
        for first, second in pairwise(said):
            if first in STOPWORDS or second in STOPWORDS:
                continue
            one, two = stem(first, fold=False), stem(second, fold=False)
            if not any(two in heads[o] and one not in _stems(d) for o, d in everyone):
                # The second word is no other action's thing, or the whole name is that
                # action's own ("the floor buttons" of "press the floor buttons" is no
                # name of the newspaper "on the floor").
                continue
            for oid, label in everyone:
                if one in heads[oid] and two not in heads[oid]:
                    for word in words(label):
                        if stem(word, fold=False) == one:
                            longer.setdefault(oid, {})[word] = second
                            break

    def renamed(pairs: Options) -> Options:
        return tuple((oid, _longer(label, longer.get(oid, {}))) for oid, label in pairs)

    return renamed(options), renamed(unoffered)


def _stems(label: str) -> frozenset[str]:
    return frozenset(stem(w, fold=False) for w in words(label))


def _longer(label: str, names: dict[str, str]) -> str:
    for word, second in names.items():
        label = re.sub(rf"\b{re.escape(word)}\b", f"{word} {second}", label, count=1)
    return label
