"""Secret links: the only way to act as a seat or to administer a game on the web.

A link carries a token of 256 random bits (``secrets.token_urlsafe(32)``); the database
keeps only its SHA-256, so a copy of the database (a backup, a shared bug report) lets
nobody play a seat. Looking a token up hashes it and reads one row by primary key, so
the comparison happens in the database's index, not in Python string equality.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Literal

import sqlalchemy as sa

from parlour.runtime import schema
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
        self.engine = store.engine

    def issue(self, game_id: str, role: Role, seat: str = "") -> str:
        """A new token for ``role`` (and ``seat``) in ``game_id``; shown once, stored hashed."""
        token = secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            conn.execute(
                schema.web_links.insert().values(
                    token_hash=_digest(token),
                    game_id=game_id,
                    role=role,
                    seat=seat,
                    created_at=time.time(),
                )
            )
        return token

    def lookup(self, token: str) -> Link | None:
        """The link a token grants, or None for an unknown, forged or malformed token."""
        if not 20 <= len(token) <= 100:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(schema.web_links).where(schema.web_links.c.token_hash == _digest(token))
            ).first()
        if row is None or row.role not in ("seat", "admin"):
            return None
        role: Role = "seat" if row.role == "seat" else "admin"
        return Link(row.game_id, role, row.seat)

    def reveal(self, game_id: str) -> str:
        """The reveal level the admin consented to before the end ("public" by default)."""
        with self.engine.connect() as conn:
            value = conn.execute(
                sa.select(schema.web_games.c.reveal).where(schema.web_games.c.game_id == game_id)
            ).scalar()
        return str(value) if value in REVEAL_LEVELS else "public"

    def set_reveal(self, game_id: str, level: str) -> None:
        if level not in REVEAL_LEVELS:
            raise ValueError(f"unknown reveal level {level!r}; use {', '.join(REVEAL_LEVELS)}")
        table = schema.web_games
        with self.engine.begin() as conn:
            done = conn.execute(
                table.update()
                .where(table.c.game_id == game_id)
                .values(reveal=level, updated_at=time.time())
            ).rowcount
            if not done:
                conn.execute(
                    table.insert().values(game_id=game_id, reveal=level, updated_at=time.time())
                )
