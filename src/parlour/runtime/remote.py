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
import weakref
from collections.abc import Callable

from parlour.core.actions import Action, Text
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction
from parlour.core.view import AnyView
from parlour.runtime.store import OpenDecision, Store

#: Seconds a person's keystroke keeps their decision open past its deadline: the page
#: reports typing at most every 2 s, so a person who types on is never timed out, and
#: one who stops is waited for this long at most (people are never blocked; AIs never
#: wait for ever on a person).
TYPING_HOLD = 8.0

#: Tries an answer against the game's rules (on a copy); the rule's reason, or None.
Trial = Callable[[Decision, Action], str | None]


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


def _check(decision: Decision, action: Action) -> None:
    """The Decision's own check and text rules: ``IllegalAction`` with the reason."""
    decision.check(action)
    if isinstance(action, Text) and decision.text_rules is not None:
        problem = decision.text_rules.problem(action.text)
        if problem is not None:
            raise IllegalAction(problem, decision_id=decision.id)


class Desk:
    """The database-mediated desk between people and running games."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._bell = doorbell(store)

    def open_for(self, game_id: str, seat: str) -> list[OpenDecision]:
        """The decisions ``seat`` may answer now, oldest first."""
        return self.store.desk.open_for(game_id, seat)

    def open_in(self, game_id: str) -> list[OpenDecision]:
        """Every person's open decision in a game ("waiting for N others")."""
        return self.store.desk.open_in(game_id)

    def hold(self, game_id: str, seat: str, decision_id: str) -> float | None:
        """The person at ``seat`` is typing an answer to ``decision_id``: its wall
        deadline moves to at least ``TYPING_HOLD`` seconds from now, so they are never
        timed out mid-sentence (the runner asks the seat before it applies the default).
        The deadline now (unix seconds, database clock), or None (not open for this
        seat, or no deadline)."""
        return self.store.desk.hold(game_id, seat, decision_id, TYPING_HOLD)

    def submit(self, game_id: str, seat: str, decision_id: str, action: Action) -> None:
        """Answer an open decision. Raises ``IllegalAction`` with a one-line reason when
        the decision is not open for this seat, was already answered, or the answer is
        not legal (the Decision's own check and text rules); else stores it."""
        self.store.desk.submit(game_id, seat, decision_id, action, _check)
        self._bell.ring(game_id, decision_id)


def clear_game(store: Store, game_id: str, keep: set[str] | None = None) -> None:
    """Drop a game's open rows (a worker that held it died), and its inbox answers
    except those for the decision ids in ``keep`` (still pending: not lost)."""
    store.desk.clear_game(game_id, keep)


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
        self.game_id = game_id
        self.seat = seat
        self._trial = trial
        self._poll = poll
        #: The runner's cap on every decision (``Runner.decision_timeout``), for deadline_at.
        self._timeout = timeout
        self._bell = doorbell(store)

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
        self.store.desk.post(self.game_id, self.seat, decision, self._seconds(decision))

    def held_for(self, decision: Decision) -> float | None:
        """Seconds left on the decision's deadline as the desk holds it: the page moves
        it on while the person types (``Desk.hold``), so the runner waits for them
        (``Runner`` asks this when the deadline comes). None: not open, or no deadline."""
        return self.store.desk.seconds_left(self.game_id, decision.id)

    def _take(self, decision_id: str) -> Action | None:
        """The submitted answer, removed from the inbox; None while there is none."""
        return self.store.desk.take(self.game_id, decision_id)

    def _refuse(self, decision_id: str, why: str) -> None:
        self.store.desk.refuse(self.game_id, decision_id, why)

    def _close(self, decision_id: str) -> None:
        self.store.desk.close(self.game_id, decision_id)

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
            _check(decision, action)
        except IllegalAction as err:
            return str(err)
        return self._trial(decision, action) if self._trial is not None else None
