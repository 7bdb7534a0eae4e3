"""Tournaments and their scheduled games (``store.tournaments``).

The parent process creates the tournament and its schedule; a worker writes the stored
game's id as soon as the game exists (so a retried or resumed game continues from its
actions); the parent writes each outcome as it arrives.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.runtime.store import schema
from parlour.runtime.store.engine import Database

T = schema.tournaments
TG = schema.tournament_games


@dataclass(frozen=True)
class TournamentRow:
    id: str
    game: str
    params: dict[str, Any]
    status: str


@dataclass(frozen=True)
class TournamentGameRow:
    """One scheduled game: its place, seed, options and seating (seat → entrant), the
    stored game once started and its outcome once finished."""

    idx: int
    seed: int
    options: dict[str, Any]
    seating: dict[str, str]
    game_id: str | None
    outcome: dict[str, Any] | None


class Tournaments:
    """The ``tournaments`` and ``tournament_games`` tables."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def create(
        self, game: str, params: dict[str, Any], schedule: Sequence[TournamentGameRow]
    ) -> str:
        """The tournament and its whole schedule, in one transaction."""
        tid = f"tn-{secrets.token_hex(4)}"
        with self.db.engine.begin() as conn:
            conn.execute(
                T.insert().values(
                    id=tid,
                    game=game,
                    params=json.dumps(params),
                    status="running",
                    created_at=time.time(),
                )
            )
            conn.execute(
                TG.insert(),
                [
                    {
                        "tournament_id": tid,
                        "idx": m.idx,
                        "seed": m.seed,
                        "seating": json.dumps(m.seating),
                        "options": json.dumps(m.options),
                        "game_id": None,
                        "outcome": None,
                    }
                    for m in schedule
                ],
            )
        return tid

    def get(self, tid: str) -> TournamentRow:
        row = self.db.first(sa.select(T).where(T.c.id == tid))
        if row is None:
            raise ParlourError(
                f"no tournament with id '{tid}'; `{command('tournament list')}` shows stored ones"
            )
        return TournamentRow(row.id, row.game, json.loads(row.params), row.status)

    def list_all(self) -> list[tuple[TournamentRow, int, int]]:
        """Every tournament with its games done and scheduled, newest first."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(sa.select(T).order_by(T.c.created_at.desc())).all()
            counts = {
                r.tournament_id: (int(r.done or 0), int(r.total))
                for r in conn.execute(
                    sa.select(
                        TG.c.tournament_id,
                        sa.func.count(TG.c.outcome).label("done"),
                        sa.func.count().label("total"),
                    ).group_by(TG.c.tournament_id)
                )
            }
        return [
            (TournamentRow(r.id, r.game, json.loads(r.params), r.status), *counts.get(r.id, (0, 0)))
            for r in rows
        ]

    def games(self, tid: str) -> list[TournamentGameRow]:
        rows = self.db.rows(sa.select(TG).where(TG.c.tournament_id == tid).order_by(TG.c.idx))
        return [
            TournamentGameRow(
                r.idx,
                int(r.seed),
                json.loads(r.options),
                json.loads(r.seating),
                r.game_id,
                None if r.outcome is None else json.loads(r.outcome),
            )
            for r in rows
        ]

    def count_games_played(self) -> int:
        """Stored games that some tournament played."""
        with self.db.engine.connect() as conn:
            count = conn.execute(
                sa.select(sa.func.count()).where(TG.c.game_id.is_not(None))
            ).scalar_one()
        return int(count)

    def game_id_of(self, tid: str, idx: int) -> str | None:
        value = self.db.scalar(
            sa.select(TG.c.game_id).where(TG.c.tournament_id == tid, TG.c.idx == idx)
        )
        return None if value is None else str(value)

    def set_game_id(self, tid: str, idx: int, game_id: str) -> None:
        self._update_game(tid, idx, game_id=game_id)

    def record_outcome(self, tid: str, idx: int, outcome: dict[str, Any]) -> None:
        self._update_game(tid, idx, outcome=json.dumps(outcome), game_id=outcome["game_id"])

    def _update_game(self, tid: str, idx: int, **values: Any) -> None:
        """Set ``values`` on scheduled game ``idx`` of tournament ``tid``."""
        with self.db.engine.begin() as conn:
            conn.execute(
                TG.update().where(TG.c.tournament_id == tid, TG.c.idx == idx).values(**values)
            )

    def set_status(self, tid: str, status: str) -> None:
        with self.db.engine.begin() as conn:
            conn.execute(T.update().where(T.c.id == tid).values(status=status))
