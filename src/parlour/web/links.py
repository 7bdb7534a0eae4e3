"""Secret links: the only way to act as a seat or to administer a game on the web.

A link carries a token of 256 random bits (``secrets.token_urlsafe(32)``); the database
keeps only its SHA-256, so a copy of the database (a backup, a shared bug report) lets
nobody play a seat. Looking a token up hashes it and reads one row by primary key, so
the comparison happens in the database's index, not in Python string equality.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Literal

from parlour.runtime.store import Store

Role = Literal["seat", "admin"]

#: Public reveal levels of the spectator page, in order of what they show.
REVEAL_LEVELS = ("public", "teams", "everything")


@dataclass(frozen=True)
class Link:
    """What a valid token grants: one seat of one game, or its administration."""

    game_id: str
    role: Role
    seat: str = ""


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Links:
    def __init__(self, store: Store) -> None:
        self.table = store.links

    def issue(self, game_id: str, role: Role, seat: str = "") -> str:
        """A new token for ``role`` (and ``seat``) in ``game_id``; shown once, stored hashed."""
        token = secrets.token_urlsafe(32)
        self.table.add(_digest(token), game_id, role, seat)
        return token

    def lookup(self, token: str) -> Link | None:
        """The link a token grants, or None for an unknown, forged or malformed token."""
        if not 20 <= len(token) <= 100:
            return None
        row = self.table.get(_digest(token))
        if row is None or row.role not in ("seat", "admin"):
            return None
        role: Role = "seat" if row.role == "seat" else "admin"
        return Link(row.game_id, role, row.seat)

    def reveal(self, game_id: str) -> str:
        """The reveal level the admin consented to before the end ("public" by default)."""
        value = self.table.reveal(game_id)
        return value if value in REVEAL_LEVELS else "public"

    def set_reveal(self, game_id: str, level: str) -> None:
        if level not in REVEAL_LEVELS:
            raise ValueError(f"unknown reveal level {level!r}; use {', '.join(REVEAL_LEVELS)}")
        self.table.set_reveal(game_id, level)
