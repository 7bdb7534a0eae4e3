"""Indexes that keep the validator's text checks linear in the number of actions.

Comparing every description with every other (near-duplicates) and every answer with every
text (answer leaks) is quadratic: 4,000 actions took seconds. Both checks only need the few
pairs that share a rare word, so both first find candidates through an index and then run
the exact check on them alone; the results are the same as the all-pairs scan.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence

from parlour.games.escape.answers import spoken_forms
from parlour.games.escape.text import jaccard

_WORD = re.compile(r"\w+")


def similar_pairs(
    sets: Sequence[frozenset[str]], threshold: float
) -> Iterator[tuple[int, int, float]]:
    """Every pair ``(i, j)``, ``i < j``, with Jaccard ≥ ``threshold`` (0 < threshold ≤ 1).

    Prefix filtering (Bayardo et al., "Scaling up all pairs similarity search", 2007): with
    tokens ordered rarest first, two sets that similar must share a token within short
    prefixes, so only sets sharing a rare token are ever compared. Pairs come out sorted.
    """
    freq = Counter(token for s in sets for token in s)
    ordered = [sorted(s, key=lambda t: (freq[t], t)) for s in sets]
    by_size = sorted(range(len(sets)), key=lambda i: (len(sets[i]), i))
    index: defaultdict[str, list[int]] = defaultdict(list)
    empties: list[int] = []
    found: list[tuple[int, int, float]] = []
    share = 2 * threshold / (1 + threshold)
    for x in by_size:
        size = len(sets[x])
        if size == 0:  # two empty sets count as identical (jaccard's convention)
            found.extend((min(x, y), max(x, y), 1.0) for y in empties)
            empties.append(x)
            continue
        probe = size - _ceil(threshold * size) + 1
        seen: set[int] = set()
        for token in ordered[x][:probe]:
            for y in index[token]:
                if y in seen or len(sets[y]) < threshold * size - 1e-9:
                    continue
                seen.add(y)
                score = jaccard(sets[x], sets[y])
                if score >= threshold:
                    found.append((min(x, y), max(x, y), score))
        for token in ordered[x][: size - _ceil(share * size) + 1]:
            index[token].append(x)
    return iter(sorted(found))


def _ceil(value: float) -> int:
    # A hair below the exact product so float error (0.7 * 10 = 7.000000000000001) can only
    # lengthen a prefix, which costs a comparison, never a missed pair.
    return math.ceil(value - 1e-9)


class WordIndex:
    """Which texts contain a given word (whole ``\\w+`` runs, case-folded)."""

    def __init__(self, texts: Iterable[str]) -> None:
        self.postings: defaultdict[str, list[int]] = defaultdict(list)
        self.size = 0
        for n, text in enumerate(texts):
            # Every form the answer matcher reads (codes in words or typed apart as digits).
            forms = spoken_forms(text)
            for word in {w.casefold() for form in forms for w in _WORD.findall(form)}:
                self.postings[word].append(n)
            self.size = n + 1

    def candidates(self, phrase: str) -> Sequence[int]:
        """Texts that may contain ``phrase`` as ``answers.answer_in_text`` matches it.

        A match makes every word run of the phrase a whole word run of the text (the
        matcher's look-arounds and literal symbols see to that), so the texts holding the
        phrase's rarest word are a superset of the matches.
        """
        words = {w.casefold() for w in _WORD.findall(phrase)}
        if not words:
            return range(self.size)
        return min((self.postings.get(w, []) for w in words), key=len)
