"""Exact answers (codes, words), found in the player's text case-insensitively, whole words.

A code counts as typed when the player writes it in digits ("1962"), in digits typed apart
("1 9 6 2", "1-9-6-2") or in number words ("nineteen sixty two": ``phrasing.
numbers_as_digits``, which only turns runs making three digits or more into digits, so "the
red one" stays words). The validator reads texts with the same matcher, so a clue that
spells the code in words counts as showing it, and a description that spells it is a
spoiler as much as one that writes the digits.
"""

from __future__ import annotations

import re
from functools import lru_cache

from parlour.games.escape.phrasing import digits_joined, numbers_as_digits


@lru_cache(maxsize=256)
def _pattern(answer: str) -> re.Pattern[str]:
    # Look-arounds instead of \b so answers that start or end with a symbol ("#12") still work;
    # inner whitespace matches any run of spaces so "open  sesame" counts.
    body = r"\s+".join(re.escape(part) for part in answer.split())
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


@lru_cache(maxsize=512)  # one message (or scenario text) is matched against every answer
def spoken_forms(text: str) -> tuple[str, ...]:
    """``text`` as typed, then (when different) with codes typed apart or in words written
    as digits: every form in which an answer is looked for."""
    digits = digits_joined(numbers_as_digits(text), across_lines=False)
    return (text,) if digits == text else (text, digits)


def answer_in_text(answer: str, text: str) -> bool:
    if not answer.strip():
        return False
    pattern = _pattern(answer.strip())
    return any(pattern.search(form) is not None for form in spoken_forms(text))


def matchable(answer: str) -> bool:
    """An answer the matcher can ever find: not blank and at least one letter or digit."""
    return any(ch.isalnum() for ch in answer)
