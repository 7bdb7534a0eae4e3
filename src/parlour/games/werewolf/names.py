"""Default display names: short, unique, easy to tell apart in a transcript."""

from __future__ import annotations

import re
from functools import lru_cache

#: Sixteen names, one per possible seat; none is a prefix of another, so mentions are unambiguous.
DEFAULT_NAMES: tuple[str, ...] = (
    "Kenji",
    "Aiko",
    "Hiroshi",
    "Maya",
    "Tomas",
    "Priya",
    "Omar",
    "Lena",
    "Felix",
    "Nadia",
    "Sven",
    "Rosa",
    "Iker",
    "Zara",
    "Bruno",
    "Chloe",
)

MAX_NAME_LENGTH = 16

_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z' -]*[A-Za-z]$|^[A-Za-z]$")


def name_problem(names: tuple[str, ...]) -> str | None:
    """Why a list of display names cannot be used, or None when it can."""
    for name in names:
        if not name or len(name) > MAX_NAME_LENGTH or not _NAME_RE.match(name):
            return (
                f"invalid name {name!r}: use 1-{MAX_NAME_LENGTH} letters "
                "(spaces, hyphens and apostrophes allowed inside)"
            )
    folded = [n.casefold() for n in names]
    duplicates = sorted({n for n in names if folded.count(n.casefold()) > 1})
    if duplicates:
        return f"names must be unique (case-insensitive): {', '.join(duplicates)}"
    return None


def mentioned(text: str, names: dict[str, str]) -> list[str]:
    """Seat ids whose display name appears as a whole word in ``text`` (case-insensitive).

    ``names`` maps seat id → display name; the result keeps the mapping's order.
    """
    if not text or not names:
        return []
    found = {m.casefold() for m in _pattern(tuple(names.values())).findall(text)}
    return [seat for seat, name in names.items() if name.casefold() in found]


@lru_cache(maxsize=256)
def _pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    # One alternation per name set: the policy scans every speech of the day per decision.
    longest_first = sorted(names, key=len, reverse=True)
    alternation = "|".join(re.escape(n) for n in longest_first)
    return re.compile(rf"(?<![A-Za-z])(?:{alternation})(?![A-Za-z])", re.IGNORECASE)
