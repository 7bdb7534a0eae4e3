"""The narrator's wording, varied: no sentence is told more than twice a game.

The engine keeps count of every sentence the narrator has told. Before a turn's brief
reaches the narrator, a sentence already told twice is said another way: led in by one of
a few words of repetition ("Again, the green button clicks."), in an order the game's
seeded RNG draws, so a replay words it the same. The template narrator (the embedded
model's) tells the brief as it comes, and a model narrator is given the varied brief;
the engine's checks read the varied brief, whose words are the same. The line for a turn
where nothing happened is picked the same way, the least told first (``NO_EFFECT_LINES``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from parlour.core.rng import Rng

#: A sentence may be told this many times; after that it is varied.
MOST = 2
#: How a told sentence is led in again.
AGAIN = (
    "Again",
    "Once more",
    "As before",
    "Just as before",
    "Once again",
    "Yet again",
    "As last time",
    "And again",
    "Still",
    "All the same",
)
#: First words that are lower-cased after a lead-in (never a name: "Marguerite smiles").
_COMMON_TEXT = """the a an you your it its there nothing nobody no somewhere someone he she
they this that these those at in on with from far after before under over through behind
one two three some every each for all still and but so as once yet then here what when
where how not none"""
_COMMON = frozenset(_COMMON_TEXT.split())
_SPLIT = re.compile(r"(?<=[.!?])\s+")


def sentences(text: str) -> list[str]:
    """The text's sentences (split after . ! ? and a space), stripped."""
    return [s.strip() for s in _SPLIT.split(text.strip()) if s.strip()]


def _led_in(lead: str, sentence: str) -> str:
    first, _, rest = sentence.partition(" ")
    if first.lower() in _COMMON:
        first = first.lower()
    return f"{lead}, {first} {rest}".rstrip() if rest else f"{lead}, {first}"


def vary(text: str, told: Counter[str], rng: Rng) -> str:
    """``text`` with each sentence told ``MOST`` times already said another way."""
    out: list[str] = []
    for sentence in sentences(text):
        if told[sentence] < MOST:
            out.append(sentence)
            continue
        # the least told way of saying it (a new one while any is left), shuffled ties
        ways = [_led_in(lead, sentence) for lead in rng.shuffled(AGAIN)]
        fewest = min(told[v] for v in ways)
        fresh = [v for v in ways if told[v] == fewest and told[v] < MOST]
        out.append(fresh[0] if fresh else sentence)
    return " ".join(out)


def least_told(lines: Sequence[str], told: Counter[str], rng: Rng) -> str:
    """One of ``lines``, among those told least often (the RNG breaks ties)."""
    fewest = min(told[line] for line in lines)
    return rng.choice([line for line in lines if told[line] == fewest])
