"""Typo correction towards the words the classifier knows: the options' own and the lexicon's.

A player types "cabnet", "paintng", "cupbaord", "portriat". The scorer's ``text.near``
forgives one edit between *stems*, which misses a dropped letter before a suffix
("paintng" / "paint") and any two-slip word. Here a word the classifier does not know is
replaced, before scoring, by the one known word it is closest to:

* only words of six letters or more are corrected (shorter ones are too close to other
  real words: "touch" / "torch", "stuck" / "stick"; ``text.near`` already forgives one slip
  in those); one edit up to seven letters, two from eight;
* an edit is a slip of the fingers: a letter dropped, doubled or added, two neighbours
  swapped, or a letter replaced by one of the keys *next to it* on a QWERTY keyboard
  ("pointing" is not a typo of "painting": o and a are far apart);
* a word that is a known word with an ending ("buttons", "doors", "numbers") is left alone:
  the plural is meaning ("pry open the doors" is not about the phone's door);
* the first letter must agree (people rarely slip on it) and the nearest known word must be
  unique, else the word is left as typed (a guess between two words is no correction).

The vocabulary is the scenario's own (the descriptions and ids the decision offers) plus
the lexicon's everyday words; a word in either, or a stop word, is never touched.
"""

from __future__ import annotations

from functools import lru_cache

from parlour.games.escape.function_words import FILLERS
from parlour.games.escape.lexicon import LEXICON_WORDS
from parlour.games.escape.text import STOPWORDS, stem

MIN_LENGTH = 6
LONG = 8
_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_AT = {ch: (r, c) for r, row in enumerate(_ROWS) for c, ch in enumerate(row)}


def _adjacent(a: str, b: str) -> bool:
    """Neighbouring keys: same row one apart, or the row above/below (staggered layout)."""
    if a not in _AT or b not in _AT:
        return False
    (ra, ca), (rb, cb) = _AT[a], _AT[b]
    if ra == rb:
        return abs(ca - cb) == 1
    if abs(ra - rb) != 1:
        return False
    upper_c, lower_c = (ca, cb) if ra < rb else (cb, ca)
    return lower_c in (upper_c - 1, upper_c)


def distance(a: str, b: str, limit: int) -> int:
    """Edit distance with neighbour swaps (optimal string alignment), counting only
    substitutions of neighbouring keys; anything over ``limit`` is ``limit + 1`` or more."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    # Words of one length differ by slips in place, never by a letter dropped here and
    # another added there ("pointing" / "painting" would be two such edits).
    gap = 1 if len(a) != len(b) else limit + 1
    previous2: list[int] = []
    previous = [j * gap for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        row = [i * gap] + [0] * len(b)
        for j in range(1, len(b) + 1):
            same = a[i - 1] == b[j - 1]
            cost = 0 if same else 1 if _adjacent(a[i - 1], b[j - 1]) else limit + 1
            row[j] = min(previous[j] + gap, row[j - 1] + gap, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], previous2[j - 2] + 1)
        previous2, previous = previous, row
    return previous[-1]


def correct(word: str, known: frozenset[str]) -> str:
    """``word``, or the unique known word within its edit budget."""
    if len(word) < MIN_LENGTH or not word.isalpha() or word in known:
        return word
    if word in STOPWORDS or word in FILLERS or word in LEXICON_WORDS:
        return word
    if stem(word, fold=False) in _stems(known):
        return word  # "buttons", "doors": a known word with an ending
    limit = 2 if len(word) >= LONG else 1
    best: list[tuple[int, str]] = []
    for candidate in known:
        if candidate[0] != word[0] or len(candidate) < MIN_LENGTH - 1:
            continue
        d = distance(word, candidate, limit)
        if d <= limit:
            best.append((d, candidate))
    if not best:
        return word
    nearest = min(d for d, _ in best)
    winners = {c for d, c in best if d == nearest}
    return winners.pop() if len(winners) == 1 else word


_VOWELS = frozenset("aeiouy")
#: Spellings by sound: "fone" for "phone", "kwik" never mind; only the pairs players type.
_SOUNDS = (("ph", "f"), ("ck", "k"))


def _by_sound(word: str) -> str:
    for written, sound in _SOUNDS:
        word = word.replace(written, sound)
    return word


def _skeleton(word: str) -> str:
    """The first letter and the consonants after it, a doubled one once: "button" -> "btn",
    "green" -> "grn"."""
    out = word[:1]
    for ch in word[1:]:
        if ch not in _VOWELS and ch != out[-1]:
            out += ch
    return out


def _cut_short(word: str, whole: str) -> bool:
    """ "cert" of "certificate", "insp" of "inspection": cut before a vowel, three letters
    or more short, and not the word's own stem ("paint" of "painting"). A cut before a
    consonant is more often a word of its own ("hand" of "handrail", "news" of
    "newspaper")."""
    rest = whole[len(word) :]
    return (
        len(word) >= 4
        and len(rest) >= 3
        and whole.startswith(word)
        and rest[0] in _VOWELS
        and stem(whole, fold=False) != word
    )


def shorthand(word: str, own: frozenset[str]) -> str:
    """``word``, or the one word of the room's own (its options' descriptions and ids) that
    it is shorthand for: typed without its vowels ("grn btn", "lvr"), cut short ("cert" for
    "certificate", "insp"), or spelt by sound ("fone"). A word the classifier knows, a
    stop word or a filler is never touched, and a guess between two words is no expansion."""
    if len(word) < 3 or not word.isalpha() or word in own or word in LEXICON_WORDS:
        return word
    if word in STOPWORDS or word in FILLERS:
        return word
    bare = all(ch not in _VOWELS for ch in word[1:])
    found = {
        w
        for w in own
        if len(w) > len(word)
        and (
            (bare and _skeleton(w) == word)
            or (_cut_short(word, w))
            or (_by_sound(w) == _by_sound(word) and _by_sound(w) != w)
        )
    }
    return found.pop() if len(found) == 1 else word


@lru_cache(maxsize=64)
def _stems(known: frozenset[str]) -> frozenset[str]:
    return frozenset(stem(w, fold=False) for w in known)


@lru_cache(maxsize=64)
def vocabulary(option_words: frozenset[str]) -> frozenset[str]:
    return option_words | LEXICON_WORDS
