"""The narrator's wording, varied: no sentence is told more than twice a game.

The engine keeps count of every sentence the narrator has told. Before a turn's brief
reaches the narrator, a sentence already told twice is said another way: led in by one of
a few words of repetition ("Again, the green button clicks."), in an order the game's
seeded RNG draws, so a replay words it the same. The template narrator (the embedded
model's) tells the brief as it comes, and a model narrator is given the varied brief;
the engine's checks read the varied brief, whose words are the same. The line for a turn
where nothing happened is one of a few short lines, the least told first
(``NO_EFFECT_LINES``); so is a wrong answer tried again (``WRONG_LINES``) and a repeatable
action done a third time (``REPEAT_LINES``): the player has read the whole text once.

A hint told a second time is not told word for word: it becomes the scenario's
``hint_again`` or a short pointer at the thing the hint names ("Look again at the
lantern."; ``pointers``). And where the game may choose (which short line, which pointer),
it takes the wording whose narration repeats the fewest runs of four words already
narrated (``freshest``): a short line is then not joined to a hint the way it was before.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from parlour.core.rng import Rng
from parlour.core.text_rules import ngrams, stale_runs, text_tokens
from parlour.games.escape.scenario import Thing

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
where how not none to wrong"""
_COMMON = frozenset(_COMMON_TEXT.split())
_SPLIT = re.compile(r"(?<=[.!?])\s+")
#: How a hint told once already is told again: a pointer at the thing it names.
POINTERS = (
    "Look again at the {thing}.",
    "Think about the {thing}.",
    "What about the {thing}?",
    "Don't forget the {thing}.",
    "Remember the {thing}.",
    "The {thing} is worth another look.",
    "There is more to the {thing}.",
    "The {thing} still matters.",
)
#: A run of this many words already narrated is a repeat (``evals/talk_quality.py``).
PHRASE_WORDS = 4


def sentences(text: str) -> list[str]:
    """The text's sentences (split after . ! ? and a space), stripped."""
    return [s.strip() for s in _SPLIT.split(text.strip()) if s.strip()]


def _leads(sentence: str) -> list[str]:
    """The lead-ins that fit the sentence: none sharing a word with it ("Still, still
    nothing.", "Again, wrong again.")."""
    said = set(text_tokens(sentence))
    return [lead for lead in AGAIN if not said & set(text_tokens(lead))]


def _led_in(lead: str, sentence: str) -> str:
    first, _, rest = sentence.partition(" ")
    if first.lower().rstrip(",;:") in _COMMON:
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
        ways = [_led_in(lead, sentence) for lead in rng.shuffled(_leads(sentence))]
        fewest = min(told[v] for v in ways)
        fresh = [v for v in ways if told[v] == fewest and told[v] < MOST]
        out.append(fresh[0] if fresh else sentence)
    return " ".join(out)


def least_told_of(lines: Sequence[str], told: Counter[str]) -> dict[str, tuple[int, int]]:
    """Each way of saying each of ``lines`` that may still be told (``ways``: a line told
    ``MOST`` times comes with its lead-ins), with how often its line was told and how
    often its lead-in led a sentence (so the lead-ins take turns too)."""
    led: Counter[str] = Counter()
    for sentence, n in told.items():
        lead, comma, _ = sentence.partition(",")
        if comma and lead in AGAIN:
            led[lead] += n
    return {
        way: (told[line], led[way.split(",", 1)[0]] if way != line else 0)
        for line in lines
        for way in ways(line, told)
    }


def ways(sentence: str, told: Counter[str]) -> list[str]:
    """The sentence, or once told ``MOST`` times its lead-ins told least (fewer than
    ``MOST`` times); the sentence itself when every way is used up."""
    if told[sentence] < MOST:
        return [sentence]
    led = [_led_in(lead, sentence) for lead in _leads(sentence)]
    fewest = min(told[v] for v in led)
    return [v for v in led if told[v] == fewest and fewest < MOST] or [sentence]


def hint_thing(hint: str, things: Sequence[Thing]) -> str | None:
    """The name of the first thing ``hint`` names (the longest name where two start at
    the same word), as the hint says it; None when it names none."""
    said = text_tokens(hint)
    best: tuple[int, int] | None = None
    found: str | None = None
    for thing in things:
        for name in thing.all_names:
            want = text_tokens(name)
            for start in range(len(said) - len(want) + 1):
                if want and said[start : start + len(want)] == want:
                    key = (start, -len(want))
                    if best is None or key < best:
                        best, found = key, name
                    break
    return found


def pointers(hint: str, things: Sequence[Thing]) -> list[str]:
    """Short ways of telling ``hint`` again: pointers at the thing it names (none when it
    names nothing the scenario describes)."""
    thing = hint_thing(hint, things)
    return [p.format(thing=thing) for p in POINTERS] if thing else []


def phrases(text: str) -> list[tuple[str, ...]]:
    """The text's runs of ``PHRASE_WORDS`` words, in order."""
    return ngrams(text_tokens(text), PHRASE_WORDS)


def stale(text: str, said: set[tuple[str, ...]]) -> int:
    """How many of the text's runs of words were narrated before (or twice in it)."""
    return stale_runs(text_tokens(text), said, PHRASE_WORDS)


def freshest(
    briefs: Mapping[str, tuple[int, int]],
    hints: Sequence[str | None],
    said: set[tuple[str, ...]],
    rng: Rng,
    joined: Callable[[str, str | None], str],
) -> tuple[str, str | None]:
    """The brief and hint (one of each) whose narration ``joined(brief, hint)`` repeats
    the fewest narrated runs of words; then the brief worn least (``briefs`` gives how
    often its line and its lead-in were told); the RNG breaks what is still tied."""
    scored = [
        ((stale(joined(b, h), said), worn), (b, h)) for b, worn in briefs.items() for h in hints
    ]
    best = min(key for key, _ in scored)
    return rng.choice([pair for key, pair in scored if key == best])
