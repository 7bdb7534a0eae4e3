"""The web app's links and per-game settings (``store.links``).

Links are stored by the SHA-256 of their token (``web.links`` hashes), so a copy of the
database acts as no seat; a lookup reads one row by primary key.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlalchemy as sa

from parlour.runtime.store import schema
from parlour.runtime.store.engine import Database


@dataclass(frozen=True)
class LinkRow:
    game_id: str
    role: str  # "seat" or "admin"
    seat: str  # "" for an admin link


class LinkTable:
    """The ``web_links`` and ``web_games`` tables."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def add(self, token_hash: str, game_id: str, role: str, seat: str = "") -> None:
        self.db.add_row(
            schema.web_links, token_hash=token_hash, game_id=game_id, role=role, seat=seat
        )

    def get(self, token_hash: str) -> LinkRow | None:
        wl = schema.web_links
        row = self.db.first(sa.select(wl).where(wl.c.token_hash == token_hash))
        return None if row is None else LinkRow(row.game_id, row.role, row.seat)

    def reveal(self, game_id: str) -> str | None:
        """The reveal level stored for a game, if any."""
        wg = schema.web_games
        value = self.db.scalar(sa.select(wg.c.reveal).where(wg.c.game_id == game_id))
        return None if value is None else str(value)

    def set_reveal(self, game_id: str, level: str) -> None:
        table = schema.web_games
        with self.db.engine.begin() as conn:
            done = conn.execute(
                table.update()
                .where(table.c.game_id == game_id)
                .values(reveal=level, updated_at=time.time())
            ).rowcount
            if not done:
                conn.execute(
                    table.insert().values(game_id=game_id, reveal=level, updated_at=time.time())
                )
