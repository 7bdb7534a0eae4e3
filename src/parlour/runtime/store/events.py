"""Events and their audiences (``store.events``).

Each event's audience is stored resolved to seats (``schema.event_seats``), so "what may
this seat see since N" is one indexed query (``for_seat``), not a replay.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa

from parlour.core.errors import ParlourError
from parlour.core.events import Audience, Event
from parlour.runtime.store import schema
from parlour.runtime.store.engine import Database, guarded


class UnresolvedAudiences(ParlourError):
    """A game has group-audience events stored without their seats (see ``audiences``)."""


#: Spectator reveal levels of ``Store.spectator_events``.
SPECTATOR_LEVELS = ("public", "team:GROUP", "everything")

#: What a follower of a game polls: its status, its last event's seq (None before any)
#: and its open decisions as ``(seat, decision_id, refusal or "")``.
Progress = tuple[str, int | None, list[tuple[str, str, str]]]


class Events:
    """The ``events`` and ``event_seats`` tables."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._audiences: dict[str, Audience] = {}

    def __call__(self, game_id: str) -> list[Event]:
        """Every event of a game, in order (``store.events(game_id)``)."""
        return self.spectator(game_id, "everything")

    @guarded
    def record(self, game_id: str, events: Sequence[Event]) -> None:
        """Events produced without an action (e.g. the opening events of ``new``)."""
        with self.db.engine.begin() as conn:
            insert_events(conn, game_id, events)

    @guarded
    def replace(self, game_id: str, events: Sequence[Event]) -> None:
        """Store a game's events anew, re-derived from its actions (one transaction).

        Events are derived data: when a newer parlour derives a stored game's actions into
        different events (e.g. a ballot's reason moved to a voter-only event), the actions
        stay the truth and the stored events follow them."""
        with self.db.engine.begin() as conn:
            for table in (schema.event_seats, schema.events):
                conn.execute(table.delete().where(table.c.game_id == game_id))
            insert_events(conn, game_id, events)

    @guarded
    def count(self, game_id: str) -> int:
        # count(kind), not count(*): the rows themselves are read (not only the primary
        # key's index), so a damaged events table is found here, before a resume starts.
        count = self.db.scalar(
            sa.select(sa.func.count(schema.events.c.kind)).where(schema.events.c.game_id == game_id)
        )
        return int(count or 0)

    @guarded
    def for_seat(self, game_id: str, seat: str, after_seq: int = -1) -> list[Event]:
        """The events ``seat`` may see with ``seq > after_seq``: one indexed query.

        Raises ``UnresolvedAudiences`` when a group-audience event was stored without its
        seats (``Event.to`` must be filled by the game when it emits); ``runtime.audiences``
        resolves them once by replaying the game.
        """
        rows = self._seat_query(game_id, (schema.EVERYONE, seat, schema.UNRESOLVED), after_seq)
        # Only an unresolved group event is returned without its seats (keyed UNRESOLVED).
        if any(r.to_seats is None and self._audience(r.audience).kind == "group" for r in rows):
            raise UnresolvedAudiences(
                f"game {game_id} has group events stored without their seats; resolve them "
                "with parlour.runtime.audiences.resolve (replays the game once)"
            )
        return [self._event(r) for r in rows]

    @guarded
    def spectator(self, game_id: str, level: str, after_seq: int = -1) -> list[Event]:
        """What an audience may see: ``public`` (events for everyone), ``team:GROUP`` (those
        plus the group's own channel) or ``everything`` (secrets and engine records too)."""
        if level == "everything":
            rows = self.db.rows(
                sa.select(schema.events)
                .where((schema.events.c.game_id == game_id) & (schema.events.c.seq > after_seq))
                .order_by(schema.events.c.seq)
            )
            return [self._event(r) for r in rows]
        if level == "public":
            keys: tuple[str, ...] = (schema.EVERYONE,)
        elif level.startswith("team:") and level != "team:":
            keys = (schema.EVERYONE, schema.GROUP_PREFIX + level.removeprefix("team:"))
        else:
            raise ParlourError(
                f"unknown spectator level '{level}'; use public, team:GROUP (e.g. team:wolves) "
                "or everything"
            )
        return [self._event(r) for r in self._seat_query(game_id, keys, after_seq)]

    @guarded
    def groups(self, game_id: str) -> list[str]:
        """The groups a game's events were addressed to (e.g. ``wolves``), sorted."""
        es = schema.event_seats
        with self.db.engine.connect() as conn:
            keys = conn.execute(
                sa.select(es.c.seat)
                .where((es.c.game_id == game_id) & es.c.seat.startswith(schema.GROUP_PREFIX))
                .distinct()
            ).scalars()
            return sorted(k.removeprefix(schema.GROUP_PREFIX) for k in keys)

    def _seat_query(self, game_id: str, keys: Sequence[str], after_seq: int) -> list[Any]:
        # The seat's sequence numbers come from one range scan per key of event_seats'
        # primary key; the events are then fetched by theirs. (Written as a join, SQLite
        # carried ``seq > N`` over to the inner table and scanned it per row: quadratic.)
        es, ev = schema.event_seats, schema.events
        seqs = sa.select(es.c.seq).where(
            (es.c.game_id == game_id) & es.c.seat.in_(keys) & (es.c.seq > after_seq)
        )
        query = (
            sa.select(ev).where((ev.c.game_id == game_id) & ev.c.seq.in_(seqs)).order_by(ev.c.seq)
        )
        return self.db.rows(query)

    def _audience(self, raw: str) -> Audience:
        audience = self._audiences.get(raw)
        if audience is None:  # a game uses a handful of audiences: parse each once
            audience = self._audiences[raw] = Audience.model_validate_json(raw)
        return audience

    def _event(self, r: Any) -> Event:
        return Event(
            seq=r.seq,
            kind=r.kind,
            phase=r.phase,
            audience=self._audience(r.audience),
            speaker=r.speaker,
            text=r.text,
            data=json.loads(r.data),
            to=tuple(json.loads(r.to_seats)) if r.to_seats else (),
        )

    @guarded
    def unresolved_seqs(self, game_id: str) -> list[int]:
        """Group-audience events of a game stored without their seats."""
        es = schema.event_seats
        with self.db.engine.connect() as conn:
            return list(
                conn.execute(
                    sa.select(es.c.seq)
                    .where((es.c.game_id == game_id) & (es.c.seat == schema.UNRESOLVED))
                    .order_by(es.c.seq)
                ).scalars()
            )

    @guarded
    def resolve_audiences(self, game_id: str, seats: Mapping[int, Iterable[str]]) -> None:
        """Store the seats of group events stored unresolved (one transaction)."""
        es, ev = schema.event_seats, schema.events
        with self.db.engine.begin() as conn:
            for seq, members in seats.items():
                names = sorted(set(members))
                conn.execute(
                    ev.update()
                    .where((ev.c.game_id == game_id) & (ev.c.seq == seq))
                    .values(to_seats=json.dumps(names))
                )
                conn.execute(
                    es.delete().where(
                        (es.c.game_id == game_id)
                        & (es.c.seq == seq)
                        & (es.c.seat == schema.UNRESOLVED)
                    )
                )
                if names:
                    conn.execute(
                        es.insert(), [{"game_id": game_id, "seat": s, "seq": seq} for s in names]
                    )

    def progress(self, game_ids: Sequence[str]) -> dict[str, Progress]:
        """Status, last event seq and open decisions of each game: 3 queries whatever the
        number of games. The status is read first, so a game seen finished has all its
        events stored. An unknown id's status is ""."""
        g, ev, od = schema.games, schema.events, schema.open_decisions
        ids = list(game_ids)
        with self.db.engine.connect() as conn:
            status = {
                r[0]: r[1]
                for r in conn.execute(sa.select(g.c.id, g.c.status).where(g.c.id.in_(ids)))
            }
            last = {
                r[0]: r[1]
                for r in conn.execute(
                    sa.select(ev.c.game_id, sa.func.max(ev.c.seq))
                    .where(ev.c.game_id.in_(ids))
                    .group_by(ev.c.game_id)
                )
            }
            opened: dict[str, list[tuple[str, str, str]]] = {}
            for r in conn.execute(
                sa.select(od.c.game_id, od.c.seat, od.c.decision_id, od.c.refusal).where(
                    od.c.game_id.in_(ids)
                )
            ):
                opened.setdefault(r.game_id, []).append((r.seat, r.decision_id, r.refusal or ""))
        return {gid: (str(status.get(gid, "")), last.get(gid), opened.get(gid, [])) for gid in ids}


def insert_events(conn: sa.Connection, game_id: str, events: Sequence[Event]) -> None:
    if events:
        conn.execute(schema.events.insert(), [event_values(game_id, e) for e in events])
        rows = seat_rows(game_id, events)
        if rows:
            conn.execute(schema.event_seats.insert(), rows)


def event_values(game_id: str, event: Event) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seq": event.seq,
        "kind": event.kind,
        "phase": event.phase,
        "audience": _audience_json(event.audience),
        "speaker": event.speaker,
        "text": event.text,
        "data": json.dumps(event.data, sort_keys=True),
        "to_seats": json.dumps(list(event.to)) if event.to else None,
    }


@functools.lru_cache(maxsize=1024)
def _audience_json(audience: Audience) -> str:
    """An audience as stored (a game uses a handful: each is written out once)."""
    return audience.model_dump_json()


def seat_rows(game_id: str, events: Sequence[Event]) -> list[dict[str, Any]]:
    return [
        {"game_id": game_id, "seat": key, "seq": e.seq}
        for e in events
        for key in schema.seat_keys(e.audience.kind, e.audience.seats, e.audience.group, e.to)
    ]
