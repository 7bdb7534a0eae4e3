"""Per-game leases and admin commands in the database (``store.leases``).

A hosted game has one row in ``leases``. A worker claims a free or expired lease with a
compare-and-set (one ``UPDATE ... WHERE worker IS NULL OR expires_at < now``: the
database serialises competing updates of the row, so exactly one claimer sees a row
changed), renews it while it runs the game, and releases it at the end. Times come from
the database's clock, not the workers', so two machines with skewed clocks still agree
on when a lease has expired. A worker that stops renewing (killed, frozen, cut off)
loses the game once its lease expires; another claims it and resumes it from the store.
A stale worker that still writes is fenced by the actions table's primary key: the
action index it would write is taken, so its write fails and it stops.

Admin commands (pause, end, replace a seat, resume) wait in ``admin_commands`` for
whichever worker holds the game's lease.

A game played by a command-line process (``parlour watch``/``play``/``resume``) holds a
*local* lease (worker named ``cli:HOST:PID``) while it runs, renewed by that process, so
``parlour list`` can tell a game that runs from one whose process was killed. Hosts never
claim a local lease (the game has a terminal's seats) and treat such a game as not hosted.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlalchemy as sa

from parlour.runtime.store import schema
from parlour.runtime.store.engine import Database


def now_sql(dialect: sa.Dialect) -> sa.ColumnElement[float]:
    """The database's current time as unix seconds (fractional), as an SQL expression."""
    if dialect.name == "postgresql":
        # clock_timestamp(), not now(): now() is frozen at the start of the transaction.
        return sa.cast(sa.func.extract("epoch", sa.func.clock_timestamp()), sa.Float)
    if dialect.name == "sqlite":
        return sa.literal_column("((julianday('now') - 2440587.5) * 86400.0)", sa.Float)
    # Other databases: the standard current timestamp (second precision at worst).
    return sa.cast(sa.func.extract("epoch", sa.func.current_timestamp()), sa.Float)


#: The worker names of command-line processes: their leases are never claimed by hosts.
LOCAL_PREFIX = "cli:"


@dataclass(frozen=True)
class LeaseRow:
    game_id: str
    worker: str | None
    expires_at: float
    claims: int
    error: str | None

    @property
    def local(self) -> bool:
        """Held (or last held) by a command-line process, not by a host."""
        return (self.worker or "").startswith(LOCAL_PREFIX)


@dataclass(frozen=True)
class CommandRow:
    """An admin command waiting for the worker that holds its game."""

    id: int
    game_id: str
    command: str
    seat: str
    spec: str


class LeaseTable:
    """The ``leases`` and ``admin_commands`` tables of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._now = now_sql(db.engine.dialect)

    def now(self) -> float:
        """The database's clock, unix seconds."""
        with self.db.engine.connect() as conn:
            return float(conn.execute(sa.select(self._now)).scalar_one())

    def holder(self, worker: str, seconds: float) -> Leases:
        """The leases as ``worker`` claims them, each for ``seconds``."""
        return Leases(self, worker, seconds)

    def register(self, game_id: str) -> None:
        """Host a game: a free lease row (any worker may claim it)."""
        with self.db.engine.begin() as conn:
            conn.execute(
                schema.leases.insert().values(
                    game_id=game_id, worker=None, expires_at=0.0, claims=0, error=None
                )
            )

    def claimable(self, limit: int) -> list[str]:
        """Hosted games no live worker holds that have something to do: still running,
        or an admin command waiting (a paused game's resume, a replace, an end)."""
        le, ga, cm = schema.leases, schema.games, schema.admin_commands
        waiting = sa.exists().where((cm.c.game_id == le.c.game_id) & cm.c.done_at.is_(None))
        query = (
            sa.select(le.c.game_id)
            .join(ga, ga.c.id == le.c.game_id)
            .where(
                (
                    le.c.worker.is_(None)
                    | ((le.c.expires_at < self._now) & ~le.c.worker.startswith(LOCAL_PREFIX))
                )
                & ((ga.c.status == "running") | waiting)
            )
            .order_by(ga.c.created_at)
            .limit(limit)
        )
        with self.db.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def claim(self, game_id: str, worker: str, seconds: float) -> bool:
        """Take the lease if it is free or expired; True when ``worker`` now holds it."""
        le = schema.leases
        with self.db.engine.begin() as conn:
            done = conn.execute(
                le.update()
                .where(
                    (le.c.game_id == game_id)
                    & (le.c.worker.is_(None) | (le.c.expires_at < self._now))
                )
                .values(worker=worker, expires_at=self._now + seconds, claims=le.c.claims + 1)
            )
            return done.rowcount == 1

    def renew(self, game_ids: list[str], worker: str, seconds: float) -> set[str]:
        """Extend the leases ``worker`` still holds; returns the ids it lost."""
        if not game_ids:
            return set()
        le = schema.leases
        with self.db.engine.begin() as conn:
            conn.execute(
                le.update()
                .where(le.c.game_id.in_(game_ids) & (le.c.worker == worker))
                .values(expires_at=self._now + seconds)
            )
            held = set(
                conn.execute(
                    sa.select(le.c.game_id).where(
                        le.c.game_id.in_(game_ids) & (le.c.worker == worker)
                    )
                ).scalars()
            )
        return set(game_ids) - held

    def release(
        self, game_id: str, worker: str, *, drop: bool = False, error: str | None = None
    ) -> None:
        """Give a held game back (free for any worker), or ``drop`` its row: no longer
        hosted (finished, ended, failed). Only the holder's release counts."""
        le = schema.leases
        mine = (le.c.game_id == game_id) & (le.c.worker == worker)
        with self.db.engine.begin() as conn:
            if drop and error is None:
                conn.execute(le.delete().where(mine))
            elif drop:
                # A failed game keeps its row (with the error) but no worker: not claimed
                # again, since its status is no longer running.
                conn.execute(le.update().where(mine).values(worker=None, error=error))
            else:
                conn.execute(le.update().where(mine).values(worker=None, expires_at=0.0))

    def hold_local(self, game_id: str, worker: str, seconds: float) -> bool:
        """A command-line process runs ``game_id``: take its local lease (a new row, or
        the row of an earlier local run). False, and nothing written, for a hosted game."""
        le = schema.leases
        values = {"worker": worker, "expires_at": self._now + seconds}
        with self.db.engine.begin() as conn:
            row = conn.execute(sa.select(le.c.worker).where(le.c.game_id == game_id)).first()
            if row is None:
                conn.execute(le.insert().values(game_id=game_id, claims=1, error=None, **values))
                return True
            if not (row.worker or "").startswith(LOCAL_PREFIX):
                return False
            conn.execute(le.update().where(le.c.game_id == game_id).values(**values))
            return True

    def live(self, game_ids: list[str]) -> set[str]:
        """Those of ``game_ids`` whose lease a worker or process holds and renews now."""
        if not game_ids:
            return set()
        le = schema.leases
        query = sa.select(le.c.game_id).where(
            le.c.game_id.in_(game_ids) & le.c.worker.is_not(None) & (le.c.expires_at >= self._now)
        )
        with self.db.engine.connect() as conn:
            return set(conn.execute(query).scalars())

    def get(self, game_id: str) -> LeaseRow | None:
        le = schema.leases
        row = self.db.first(sa.select(le).where(le.c.game_id == game_id))
        if row is None:
            return None
        return LeaseRow(row.game_id, row.worker, float(row.expires_at), int(row.claims), row.error)

    # -- admin commands ------------------------------------------------------------------

    def add_command(self, game_id: str, command: str, seat: str = "", spec: str = "") -> None:
        self.db.add_row(
            schema.admin_commands,
            game_id=game_id,
            command=command,
            seat=seat,
            spec=spec,
            done_at=None,
        )

    def pending_commands(self, game_ids: list[str]) -> list[CommandRow]:
        """Commands not yet applied for any of ``game_ids``, oldest first (one query)."""
        if not game_ids:
            return []
        cm = schema.admin_commands
        rows = self.db.rows(
            sa.select(cm)
            .where(cm.c.game_id.in_(game_ids) & cm.c.done_at.is_(None))
            .order_by(cm.c.id)
        )
        return [CommandRow(r.id, r.game_id, r.command, r.seat, r.spec) for r in rows]

    def command_done(self, command_id: int) -> None:
        cm = schema.admin_commands
        with self.db.engine.begin() as conn:
            conn.execute(cm.update().where(cm.c.id == command_id).values(done_at=time.time()))


class Leases:
    """Claim, renew and release game leases for one worker."""

    def __init__(self, table: LeaseTable, worker: str, seconds: float) -> None:
        if seconds <= 0:
            raise ValueError("a lease lasts a positive number of seconds")
        self.table = table
        self.worker = worker
        self.seconds = seconds

    def register(self, game_id: str) -> None:
        self.table.register(game_id)

    def claimable(self, limit: int) -> list[str]:
        return self.table.claimable(limit)

    def claim(self, game_id: str) -> bool:
        return self.table.claim(game_id, self.worker, self.seconds)

    def renew(self, game_ids: list[str]) -> set[str]:
        return self.table.renew(game_ids, self.worker, self.seconds)

    def release(self, game_id: str, *, drop: bool = False, error: str | None = None) -> None:
        self.table.release(game_id, self.worker, drop=drop, error=error)

    def get(self, game_id: str) -> LeaseRow | None:
        return self.table.get(game_id)
