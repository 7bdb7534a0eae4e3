"""The desk between people and running games: open decisions and answers in the database.

A ``RemoteSeat`` is a person's seat in a hosted game. When the runner asks it, it stores
the decision as an open row (``open_decisions``) and waits for an answer in the inbox
(``answers``). A page (any process) lists the open decisions with ``Desk.open_for`` and
answers with ``Desk.submit``, which checks the answer against the stored Decision first,
so an illegal answer is refused at once with the Decision's own reason and never reaches
the game. The seat polls the inbox (every ``poll`` seconds, 0.1 by default) and wakes at
once when the answer was submitted in its own process (a doorbell shared per ``Store``).

The open row goes when the decision is answered, withdrawn (its task cancelled) or timed
out. When the game's rules reject an answer the Decision admitted (``trial``, given by
the host, applies it to a copy of the game), the decision stays open with the rule's
reason in ``refusal`` for the page to show, and the person answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa

from parlour.core.actions import Action, Text, action_from_json
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction
from parlour.core.view import AnyView
from parlour.runtime import schema
from parlour.runtime.leases import now_sql
from parlour.runtime.store import Store

#: Tries an answer against the game's rules (on a copy); the rule's reason, or None.
Trial = Callable[[Decision, Action], str | None]


@dataclass(frozen=True)
class OpenDecision:
    """A decision a person's seat is waiting to answer."""

    game_id: str
    seat: str
    decision: Decision
    asked_at: float  # unix seconds (database clock)
    deadline_at: float | None  # when the game's default applies, if it has a wall deadline
    refusal: str | None  # the engine's last rejection of an answer, if any


class Doorbell:
    """Wakes a waiting seat at once when its answer is submitted in the same process.

    ``ring`` may be called from any thread (a web framework's worker threads); the seat
    waits on an ``asyncio.Event`` of its own loop.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[tuple[str, str], tuple[asyncio.AbstractEventLoop, asyncio.Event]] = {}

    def listen(self, game_id: str, decision_id: str) -> asyncio.Event:
        event = asyncio.Event()
        with self._lock:
            self._waiting[(game_id, decision_id)] = (asyncio.get_running_loop(), event)
        return event

    def forget(self, game_id: str, decision_id: str) -> None:
        with self._lock:
            self._waiting.pop((game_id, decision_id), None)

    def ring(self, game_id: str, decision_id: str) -> None:
        with self._lock:
            found = self._waiting.get((game_id, decision_id))
        if found is not None:
            loop, event = found
            # A closed loop means nobody waits any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(event.set)


_BELLS: weakref.WeakKeyDictionary[Store, Doorbell] = weakref.WeakKeyDictionary()
_BELLS_LOCK = threading.Lock()


def doorbell(store: Store) -> Doorbell:
    """The doorbell of a store object: desks and seats built on it share it."""
    with _BELLS_LOCK:
        bell = _BELLS.get(store)
        if bell is None:
            bell = _BELLS[store] = Doorbell()
        return bell


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


class Desk:
    """The database-mediated desk between people and running games."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        self._bell = doorbell(store)

    def _open(self, where: sa.ColumnElement[bool]) -> list[OpenDecision]:
        od = schema.open_decisions
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(od).where(where).order_by(od.c.asked_at, od.c.seat))
            return [_open_row(r) for r in rows]

    def open_for(self, game_id: str, seat: str) -> list[OpenDecision]:
        """The decisions ``seat`` may answer now, oldest first."""
        od = schema.open_decisions
        return self._open((od.c.game_id == game_id) & (od.c.seat == seat))

    def open_in(self, game_id: str) -> list[OpenDecision]:
        """Every person's open decision in a game ("waiting for N others")."""
        return self._open(schema.open_decisions.c.game_id == game_id)

    def submit(self, game_id: str, seat: str, decision_id: str, action: Action) -> None:
        """Answer an open decision. Raises ``IllegalAction`` with a one-line reason when
        the decision is not open for this seat, was already answered, or the answer is
        not legal (the Decision's own check and text rules); else stores it."""
        od, an = schema.open_decisions, schema.answers
        with self.engine.begin() as conn:
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
            decision = Decision.model_validate_json(row.decision)
            decision.check(action)
            if isinstance(action, Text) and decision.text_rules is not None:
                problem = decision.text_rules.problem(action.text)
                if problem is not None:
                    raise IllegalAction(problem, decision_id=decision_id)
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
        self._bell.ring(game_id, decision_id)


def clear_game(store: Store, game_id: str, keep: set[str] | None = None) -> None:
    """Drop a game's open rows (a worker that held it died), and its inbox answers
    except those for the decision ids in ``keep`` (still pending: not lost)."""
    od, an = schema.open_decisions, schema.answers
    with store.engine.begin() as conn:
        conn.execute(od.delete().where(od.c.game_id == game_id))
        stale = an.c.game_id == game_id
        if keep:
            stale = stale & an.c.decision_id.not_in(sorted(keep))
        conn.execute(an.delete().where(stale))


class RemoteSeat:
    """A person playing through the desk (``seats.base.Seat``; label ``person``)."""

    #: The runner gives people a decision's ``human_seconds`` (see ``Deadline``).
    is_person = True

    def __init__(
        self,
        store: Store,
        game_id: str,
        seat: str,
        *,
        trial: Trial | None = None,
        poll: float = 0.1,
        timeout: float | None = None,
    ) -> None:
        self.store = store
        self.engine = store.engine
        self.game_id = game_id
        self.seat = seat
        self._trial = trial
        self._poll = poll
        #: The runner's cap on every decision (``Runner.decision_timeout``), for deadline_at.
        self._timeout = timeout
        self._bell = doorbell(store)
        self._now = now_sql(self.engine.dialect)

    @property
    def label(self) -> str:
        return "person"

    def _seconds(self, decision: Decision) -> float | None:
        limits: list[float] = []
        deadline = decision.deadline
        if deadline is not None and deadline.clock == "wall":
            limits.append(deadline.human_seconds or deadline.seconds)
        if self._timeout:
            limits.append(self._timeout)
        return min(limits) if limits else None

    def _post(self, decision: Decision) -> None:
        od = schema.open_decisions
        seconds = self._seconds(decision)
        with self.engine.begin() as conn:
            conn.execute(
                od.delete().where(
                    (od.c.game_id == self.game_id) & (od.c.decision_id == decision.id)
                )
            )
            conn.execute(
                od.insert().values(
                    game_id=self.game_id,
                    decision_id=decision.id,
                    seat=self.seat,
                    decision=decision.model_dump_json(),
                    asked_at=self._now,
                    deadline_at=None if seconds is None else self._now + seconds,
                    refusal=None,
                )
            )

    def _take(self, decision_id: str) -> Action | None:
        """The submitted answer, removed from the inbox; None while there is none."""
        an = schema.answers
        mine = (an.c.game_id == self.game_id) & (an.c.decision_id == decision_id)
        with self.engine.begin() as conn:
            raw = conn.execute(sa.select(an.c.action).where(mine)).scalar()
            if raw is None:
                return None
            conn.execute(an.delete().where(mine))
        return action_from_json(raw)

    def _refuse(self, decision_id: str, why: str) -> None:
        od = schema.open_decisions
        with self.engine.begin() as conn:
            conn.execute(
                od.update()
                .where((od.c.game_id == self.game_id) & (od.c.decision_id == decision_id))
                .values(refusal=why)
            )

    def _close(self, decision_id: str) -> None:
        od, an = schema.open_decisions, schema.answers
        with self.engine.begin() as conn:
            for table in (od, an):
                conn.execute(
                    table.delete().where(
                        (table.c.game_id == self.game_id) & (table.c.decision_id == decision_id)
                    )
                )

    async def decide(self, view: AnyView, decision: Decision) -> Action:
        bell = self._bell.listen(self.game_id, decision.id)
        try:
            self._post(decision)
            while True:
                bell.clear()
                action = self._take(decision.id)
                if action is not None:
                    why = self._refusal(decision, action)
                    if why is None:
                        return action
                    self._refuse(decision.id, why)
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(bell.wait(), self._poll)
        finally:
            # Answered, withdrawn (cancelled) or timed out: the decision is no longer open.
            self._bell.forget(self.game_id, decision.id)
            self._close(decision.id)

    def _refusal(self, decision: Decision, action: Action) -> str | None:
        """Why the answer cannot be applied, or None. The desk checked the Decision; this
        checks again (the inbox is a table anyone could write) and asks the rules."""
        try:
            decision.check(action)
        except IllegalAction as err:
            return str(err)
        if isinstance(action, Text) and decision.text_rules is not None:
            problem = decision.text_rules.problem(action.text)
            if problem is not None:
                return problem
        return self._trial(decision, action) if self._trial is not None else None
