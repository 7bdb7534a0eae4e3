"""Exact answers (codes, words), found in the player's text case-insensitively, whole words."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=256)
def _pattern(answer: str) -> re.Pattern[str]:
    # Look-arounds instead of \b so answers that start or end with a symbol ("#12") still work;
    # inner whitespace matches any run of spaces so "open  sesame" counts.
    body = r"\s+".join(re.escape(part) for part in answer.split())
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def answer_in_text(answer: str, text: str) -> bool:
    if not answer.strip():
        return False
    return _pattern(answer.strip()).search(text) is not None


def matchable(answer: str) -> bool:
    """An answer the matcher can ever find: not blank and at least one letter or digit."""
    return any(ch.isalnum() for ch in answer)
