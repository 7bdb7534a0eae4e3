"""Open decisions of people's seats and their answers (``store.desk``).

A person's seat in a hosted game stores each decision it waits for as an open row
(``open_decisions``) and takes its answer from the inbox (``answers``); any process
lists the open rows and submits answers. ``runtime.remote`` is the logic on top.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa

from parlour.core.actions import Action, action_from_json
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction
from parlour.runtime.store import schema
from parlour.runtime.store.engine import Database
from parlour.runtime.store.leases import now_sql


@dataclass(frozen=True)
class OpenDecision:
    """A decision a person's seat is waiting to answer."""

    game_id: str
    seat: str
    decision: Decision
    asked_at: float  # unix seconds (database clock)
    deadline_at: float | None  # when the game's default applies, if it has a wall deadline
    refusal: str | None  # the engine's last rejection of an answer, if any


class DeskTable:
    """The ``open_decisions`` and ``answers`` tables."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._now = now_sql(db.engine.dialect)

    def _open(self, where: sa.ColumnElement[bool]) -> list[OpenDecision]:
        od = schema.open_decisions
        with self.db.engine.connect() as conn:
            rows = conn.execute(sa.select(od).where(where).order_by(od.c.asked_at, od.c.seat))
            return [_open_row(r) for r in rows]

    def open_for(self, game_id: str, seat: str) -> list[OpenDecision]:
        """The decisions ``seat`` may answer now, oldest first."""
        od = schema.open_decisions
        return self._open((od.c.game_id == game_id) & (od.c.seat == seat))

    def open_in(self, game_id: str) -> list[OpenDecision]:
        """Every person's open decision in a game."""
        return self._open(schema.open_decisions.c.game_id == game_id)

    def submit(
        self,
        game_id: str,
        seat: str,
        decision_id: str,
        action: Action,
        check: Callable[[Decision, Action], None],
    ) -> None:
        """Store an answer to an open decision, in one transaction with its checks:
        ``IllegalAction`` when it is not open for this seat or already answered, and
        whatever ``check`` raises for the stored Decision."""
        od, an = schema.open_decisions, schema.answers
        with self.db.engine.begin() as conn:
            row = conn.execute(
                sa.select(od).where(
                    (od.c.game_id == game_id)
                    & (od.c.decision_id == decision_id)
                    & (od.c.seat == seat)
                )
            ).first()
            if row is None:
                raise IllegalAction(
                    f"decision {decision_id} is not open for {seat} (answered, withdrawn or "
                    "timed out); reload to see what is open now",
                    decision_id=decision_id,
                )
            check(Decision.model_validate_json(row.decision), action)
            taken = conn.execute(
                sa.select(an.c.decision_id).where(
                    (an.c.game_id == game_id) & (an.c.decision_id == decision_id)
                )
            ).first()
            if taken is not None:
                raise IllegalAction(
                    f"decision {decision_id} is already answered; wait for the game to go on",
                    decision_id=decision_id,
                )
            conn.execute(
                an.insert().values(
                    game_id=game_id,
                    decision_id=decision_id,
                    seat=seat,
                    action=action.model_dump_json(),
                    submitted_at=time.time(),
                )
            )
            conn.execute(
                od.update()
                .where((od.c.game_id == game_id) & (od.c.decision_id == decision_id))
                .values(refusal=None)
            )

    def clear_game(self, game_id: str, keep: set[str] | None = None) -> None:
        """Drop a game's open rows, and its inbox answers except those for ``keep``."""
        od, an = schema.open_decisions, schema.answers
        with self.db.engine.begin() as conn:
            conn.execute(od.delete().where(od.c.game_id == game_id))
            stale = an.c.game_id == game_id
            if keep:
                stale = stale & an.c.decision_id.not_in(sorted(keep))
            conn.execute(an.delete().where(stale))

    def post(self, game_id: str, seat: str, decision: Decision, seconds: float | None) -> None:
        """Open (or reopen) a decision, asked now by the database's clock; its deadline
        ``seconds`` later, if any."""
        od = schema.open_decisions
        with self.db.engine.begin() as conn:
            conn.execute(
                od.delete().where((od.c.game_id == game_id) & (od.c.decision_id == decision.id))
            )
            conn.execute(
                od.insert().values(
                    game_id=game_id,
                    decision_id=decision.id,
                    seat=seat,
                    decision=decision.model_dump_json(),
                    asked_at=self._now,
                    deadline_at=None if seconds is None else self._now + seconds,
                    refusal=None,
                )
            )

    def hold(self, game_id: str, seat: str, decision_id: str, seconds: float) -> float | None:
        """A person is typing an answer: the decision's wall deadline moves to at least
        ``seconds`` from now (database clock). Its deadline now (unix seconds), or None
        when it is not open for ``seat`` or has no deadline."""
        od = schema.open_decisions
        mine = (
            (od.c.game_id == game_id)
            & (od.c.decision_id == decision_id)
            & (od.c.seat == seat)
            & od.c.deadline_at.is_not(None)
        )
        until = self._now + seconds
        with self.db.engine.begin() as conn:
            conn.execute(
                od.update().where(mine & (od.c.deadline_at < until)).values(deadline_at=until)
            )
            deadline = conn.execute(sa.select(od.c.deadline_at).where(mine)).scalar()
        return None if deadline is None else float(deadline)

    def seconds_left(self, game_id: str, decision_id: str) -> float | None:
        """Seconds until the open decision's wall deadline (database clock; negative once
        passed), or None when it is not open or has no deadline."""
        od = schema.open_decisions
        left = self.db.scalar(
            sa.select(od.c.deadline_at - self._now).where(
                (od.c.game_id == game_id) & (od.c.decision_id == decision_id)
            )
        )
        return None if left is None else float(left)

    def take(self, game_id: str, decision_id: str) -> Action | None:
        """The submitted answer, removed from the inbox; None while there is none."""
        an = schema.answers
        mine = (an.c.game_id == game_id) & (an.c.decision_id == decision_id)
        with self.db.engine.begin() as conn:
            raw = conn.execute(sa.select(an.c.action).where(mine)).scalar()
            if raw is None:
                return None
            conn.execute(an.delete().where(mine))
        return action_from_json(raw)

    def refuse(self, game_id: str, decision_id: str, why: str) -> None:
        """Keep the decision open with the rule's reason for the page to show."""
        od = schema.open_decisions
        with self.db.engine.begin() as conn:
            conn.execute(
                od.update()
                .where((od.c.game_id == game_id) & (od.c.decision_id == decision_id))
                .values(refusal=why)
            )

    def close(self, game_id: str, decision_id: str) -> None:
        """The decision is no longer open: its row and any answer go."""
        od, an = schema.open_decisions, schema.answers
        with self.db.engine.begin() as conn:
            for table in (od, an):
                conn.execute(
                    table.delete().where(
                        (table.c.game_id == game_id) & (table.c.decision_id == decision_id)
                    )
                )


def _open_row(r: sa.Row[object]) -> OpenDecision:
    m = r._mapping
    return OpenDecision(
        game_id=str(m["game_id"]),
        seat=str(m["seat"]),
        decision=Decision.model_validate_json(str(m["decision"])),
        asked_at=float(m["asked_at"]),
        deadline_at=None if m["deadline_at"] is None else float(m["deadline_at"]),
        refusal=None if m["refusal"] is None else str(m["refusal"]),
    )
