"""The loop: ask seats for the pending decisions, validate, apply, persist, notify.

A batch is what ``pending()`` lists at the start of a step. By default ("ordered") its
decisions are asked concurrently and the answers applied in the order ``pending()``
listed them, so the action log does not depend on which seat answered first. When a
batch holds a decision with ``batch="as_arrived"``, each answer is applied when it
arrives; after every apply ``pending()`` is read again, the seat tasks of decisions
that vanished are cancelled and recorded as withdrawn (never applied, never a
fallback), and newly pending as-arrived decisions are asked. Either way the stored
action log, not arrival order, is the truth that replay follows.

A seat that crashes or answers illegally never stalls the game: the game's scripted
policy answers instead (``by="fallback"``). A decision with a deadline whose seat has
not answered in time gets the game's default (``by="timeout"``).

Store writes run in one dedicated writer thread, in action order, whenever another task
shares the event loop (seats still thinking, other games, a server), so a slow disk
never blocks them; when the runner is alone on the loop it writes inline, as nothing
could run meanwhile. Each commit is awaited before the runner goes on, so the
guarantee is the same either way: an applied action is committed before any observer
sees its events and before any further question is asked, and the answers of an
ordered batch are committed in one transaction.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction, ParlourError
from parlour.core.events import Event
from parlour.core.game import Game, Result
from parlour.core.gate import Gated
from parlour.core.policy import Policy
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng, hash_seed
from parlour.runtime.store import ActionWrite, Store
from parlour.seats.base import Seat, answered_by
from parlour.seats.human import HumanSeat

#: How long before a person's deadline the runner asks whether their typing holds it.
HOLD_LOOK = 0.5

log = logging.getLogger(__name__)


class Observer(Protocol):
    """Sees every applied action's events and the result.

    Optional methods are called only when an observer defines them (so observers
    written before them keep working): ``on_withdrawn(game, decision)`` when an open
    decision vanished before its answer was applied, ``on_timeout(game, decision)``
    when a deadline passed and the game's default is applied (before its events), and
    ``on_answer(game, decision, by)`` for every applied answer, before its events, with
    who gave it as stored (a seat's label, ``"fallback"``, ``"timeout"``).
    """

    def on_events(self, game: Game, events: Sequence[Event]) -> None: ...

    def on_finish(self, game: Game, result: Result) -> None: ...


class GameStalled(RuntimeError):
    pass


def _alone_on_the_loop() -> bool:
    """True when no other task (a seat still thinking, another game, a server) is pending."""
    current = asyncio.current_task()
    return all(task is current for task in asyncio.all_tasks())


Answer = tuple[Action, str]  # the action and who gave it (seat label, fallback, timeout)


@dataclass
class _Outcome:
    """What one step changed, published only after it is committed."""

    applied: list[tuple[Decision, ActionWrite]] = field(default_factory=list)
    withdrawn: list[tuple[Decision, int]] = field(default_factory=list)  # (decision, after_idx)


class Runner:
    def __init__(
        self,
        game: Game,
        seats: Mapping[str, Seat],
        *,
        fallback: Policy,
        store: Store | None = None,
        game_id: str = "",
        observers: Sequence[Observer] = (),
        next_idx: int = 0,
        pace: float = 0.0,
        decision_timeout: float | None = None,
    ) -> None:
        missing = [s.id for s in game.seats() if s.id not in seats]
        if missing:
            raise ValueError(f"no seat assigned for: {', '.join(missing)}")
        self.game = game
        self.seats = dict(seats)
        self.fallback = fallback
        self.store = store
        self.game_id = game_id
        self.observers = list(observers)
        self.next_idx = next_idx
        self.decisions_applied = 0
        #: Seconds to pause after each batch, so people can follow a fast game.
        self.pace = pace
        #: Caps every decision: a seat that has not answered after this many seconds is
        #: replaced by the fallback (in Diplomacy: civil disorder). A decision's own
        #: shorter deadline still applies its default.
        self.decision_timeout = decision_timeout
        self._writer: ThreadPoolExecutor | None = None
        #: The game's gate on engine roles' answers (``core/gate.py``), if it has one:
        #: seats that can retry with its feedback are given it, and every answer passes it
        #: again before it is applied.
        self.screen = game.screen if isinstance(game, Gated) else None
        if self.screen is not None:
            for seat in self.seats.values():
                use = getattr(seat, "use_screen", None)
                if callable(use):
                    use(self._screen_for_seat)

    def _screen_for_seat(self, decision: Decision, action: Action) -> str | None:
        return self.screen(decision.id, action) if self.screen is not None else None

    # -- asking --------------------------------------------------------------------------

    def _wall_seconds(self, decision: Decision, seat: Seat) -> float | None:
        deadline = decision.deadline
        if deadline is None or deadline.clock != "wall":
            return None
        person = isinstance(seat, HumanSeat) or getattr(seat, "is_person", False) is True
        if person and deadline.human_seconds is not None:
            return deadline.human_seconds
        return deadline.seconds

    async def _ask(self, decision: Decision) -> Answer:
        seat = self.seats[decision.seat]
        view = self.game.view(decision.seat)
        wall = self._wall_seconds(decision, seat)
        limits = [s for s in (wall, self.decision_timeout) if s]
        limit = min(limits) if limits else None
        timer = asyncio.timeout(limit) if limit else None
        held_for = getattr(seat, "held_for", None)
        try:
            if timer is None:
                action = await seat.decide(view, decision)
            elif callable(held_for) and limit == wall:
                async with timer:
                    asking = seat.decide(view, decision)
                    action = await self._held(asking, timer, held_for, decision)
            else:
                async with timer:
                    action = await seat.decide(view, decision)
            decision.check(action)
            return action, answered_by(seat, decision.id)
        except IllegalAction as err:
            log.warning("seat %s answered illegally (%s); fallback answers", decision.seat, err)
        except (asyncio.CancelledError, EOFError, KeyboardInterrupt):
            # A closed terminal or Ctrl-C stops the game (it is saved); it is not a bad answer.
            raise
        except TimeoutError as err:
            if timer is None or not timer.expired():  # the seat timed out itself (HTTP): a failure
                log.warning("seat %s failed (%r); fallback answers", decision.seat, err)
            elif wall is not None and limit == wall and decision.default is not None:
                log.info("seat %s missed its deadline; the default applies", decision.seat)
                return decision.default, "timeout"
            else:
                log.warning("seat %s did not answer in time; fallback answers", decision.seat)
        except Exception as err:  # a crashing seat must not end the game
            log.warning("seat %s failed (%r); fallback answers", decision.seat, err)
        return self._fallback(decision), "fallback"

    async def _held(
        self,
        asking: Awaitable[Action],
        timer: asyncio.Timeout,
        held_for: Callable[[Decision], float | None],
        decision: Decision,
    ) -> Action:
        """A person's answer under a wall deadline that their typing holds open: when the
        deadline comes, the seat says how long the person still holds it (a keystroke
        moves it on, ``Desk.hold``) and the timer is moved there; the decision's default
        applies only once they have stopped typing. ``decision_timeout`` still caps it."""
        loop = asyncio.get_running_loop()
        ceiling = None if not self.decision_timeout else loop.time() + self.decision_timeout

        async def hold() -> None:
            while (when := timer.when()) is not None:
                await asyncio.sleep(max(0.0, when - loop.time() - HOLD_LOOK))
                left = held_for(decision)
                if left is None:
                    return
                until = loop.time() + left
                if ceiling is not None:
                    until = min(until, ceiling)
                if until <= when + HOLD_LOOK / 2:
                    return  # not typing: the deadline stands
                timer.reschedule(until)

        holding = asyncio.ensure_future(hold())
        try:
            return await asking
        finally:
            holding.cancel()

    def _fallback(self, decision: Decision) -> Action:
        rng = Rng(hash_seed(self.game.seed, decision.id))
        return self.fallback(self.game.view(decision.seat), decision, rng)

    # -- applying ------------------------------------------------------------------------

    def _open(self) -> dict[str, Decision]:
        return {d.id: d for d in self.game.pending()}

    def _clock_passed(self, decision: Decision) -> bool:
        """A game-clock deadline is absolute: passed once ``game.clock()`` reaches it."""
        deadline = decision.deadline
        if deadline is None or deadline.clock != "game":
            return False
        clock: Callable[[], float] | None = getattr(self.game, "clock", None)
        if clock is None:
            raise ParlourError(
                f"{decision.id} has a game-clock deadline but the game has no clock(); "
                "implement Game.clock() or use a wall deadline"
            )
        return clock() >= deadline.seconds

    def _apply(self, decision: Decision, answer: Answer, out: _Outcome) -> bool:
        """Apply one answer; False when its decision is no longer open (withdrawn)."""
        action, by = answer
        try:
            refused = self.screen(decision.id, action) if self.screen is not None else None
            if refused is not None:
                raise IllegalAction(f"the gate refused it: {refused}", decision_id=decision.id)
            events = self.game.apply(decision.id, action)
        except IllegalAction as err:
            if decision.id not in self._open():
                # An earlier answer of the batch closed it: withdrawn, not a rule rejection.
                out.withdrawn.append((decision, self.next_idx - 1))
                return False
            # Legal per the decision but not per a game rule: fall back, then random legal.
            log.warning("rule rejected %s for %s: %s", action, decision.id, err)
            action, events = self._apply_safely(decision)
            by = "fallback"
        write = ActionWrite(self.next_idx, decision.id, decision.seat, action, events, by)
        out.applied.append((decision, write))
        self.next_idx += 1
        self.decisions_applied += 1
        return True

    def _apply_safely(self, decision: Decision) -> tuple[Action, list[Event]]:
        rng = Rng(hash_seed(self.game.seed, decision.id))
        candidates = [self._fallback(decision)]
        candidates += [random_answer(decision, rng) for _ in range(50)]
        for candidate in candidates:
            if self.screen is not None and self.screen(decision.id, candidate) is not None:
                continue
            try:
                events = self.game.apply(decision.id, candidate)
            except IllegalAction:
                continue
            return candidate, events
        raise GameStalled(f"no legal answer found for {decision.id}")

    def _expire(self, out: _Outcome) -> list[Decision]:
        """Apply the default of every open decision whose game-clock deadline has passed;
        returns those decisions (their seats need not, or no longer, answer)."""
        expired: list[Decision] = []
        while True:
            due = next((d for d in self.game.pending() if self._clock_passed(d)), None)
            if due is None:
                return expired
            assert due.default is not None  # a deadline always comes with a default
            self._apply(due, (due.default, "timeout"), out)
            expired.append(due)

    # -- persisting and publishing -------------------------------------------------------

    def _write(self, out: _Outcome) -> None:
        assert self.store is not None
        self.store.record_actions(self.game_id, [w for _, w in out.applied])
        for decision, after in out.withdrawn:
            self.store.record_withdrawal(self.game_id, decision.id, decision.seat, after)

    async def _commit(self, out: _Outcome) -> None:
        """Commit (in the writer thread), then tell the observers, in action order."""
        if self.store is not None and (out.applied or out.withdrawn):
            if _alone_on_the_loop():
                # Nothing else could run meanwhile, and a hop to the writer thread costs
                # milliseconds of GIL hand-over on a busy machine: write here.
                self._write(out)
            else:
                if self._writer is None:
                    self._writer = ThreadPoolExecutor(1, thread_name_prefix="parlour-store")
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(self._writer, self._write, out)
        for decision, write in out.applied:
            if write.by == "timeout":
                self._notify("on_timeout", decision)
            self._notify("on_answer", decision, write.by)
            for observer in self.observers:
                observer.on_events(self.game, write.events)
        for decision, _ in out.withdrawn:
            self._notify("on_withdrawn", decision)

    def _notify(self, hook: str, decision: Decision, *more: str) -> None:
        for observer in self.observers:
            method = getattr(observer, hook, None)
            if method is not None:
                method(self.game, decision, *more)

    # -- steps ---------------------------------------------------------------------------

    async def step(self) -> bool:
        """Answer and apply one batch of pending decisions. False when the game is over."""
        if self.game.is_terminal():
            return False
        pending = self.game.pending()
        if any(self._clock_passed(d) for d in pending):
            out = _Outcome()
            try:
                self._expire(out)
            finally:
                await self._commit(out)
            if self.game.is_terminal():
                return False
            pending = self.game.pending()
        if not pending:
            raise GameStalled("the game is not over but offers no decision")
        if any(d.batch == "as_arrived" for d in pending):
            await self._step_as_arrived(pending)
        else:
            await self._step_ordered(pending)
        return not self.game.is_terminal()

    async def _step_ordered(self, batch: Sequence[Decision]) -> None:
        asking = [asyncio.ensure_future(self._ask(d)) for d in batch]
        try:
            answers = await asyncio.gather(*asking)
        except BaseException:
            # The game stops here (e.g. a budget ran out): no seat keeps thinking, or
            # paying, for a batch that will never be applied.
            for task in asking:
                task.cancel()
            await asyncio.gather(*asking, return_exceptions=True)
            raise
        out = _Outcome()
        try:
            for decision, answer in zip(batch, answers, strict=True):
                # An earlier answer may have moved the game clock past this deadline.
                if self._clock_passed(decision) and decision.id in self._open():
                    assert decision.default is not None
                    answer = (decision.default, "timeout")
                self._apply(decision, answer, out)
        finally:
            # Whatever was applied is committed, even when the game then stalls.
            await self._commit(out)

    async def _step_as_arrived(self, batch: Sequence[Decision]) -> None:
        asked: dict[str, tuple[Decision, asyncio.Task[Answer]]] = {}

        def ask(decisions: Sequence[Decision]) -> None:
            for d in decisions:
                if d.id not in asked:
                    asked[d.id] = (d, asyncio.create_task(self._ask(d), name=d.id))

        ask(batch)
        try:
            while asked:
                tasks = [task for _, task in asked.values()]
                done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                # Of several ready answers take the one asked first (deterministic for
                # scripts); the others are picked up next, if still open.
                decision, task = next((d, t) for d, t in asked.values() if t in done)
                del asked[decision.id]
                out = _Outcome()
                try:
                    current = self._open().get(decision.id)
                    if current is None:
                        out.withdrawn.append((decision, self.next_idx - 1))
                    else:
                        self._apply(current, task.result(), out)
                    expired = self._expire(out)
                finally:
                    await self._commit(out)
                if self.game.is_terminal():
                    break
                still = self._open()
                timed_out = {e.id for e in expired}
                gone = _Outcome()
                for did in list(asked):
                    if did in timed_out or did not in still:
                        d, t = asked.pop(did)
                        t.cancel()
                        if did not in timed_out:  # its default was applied instead
                            gone.withdrawn.append((d, self.next_idx - 1))
                await self._commit(gone)
                ask([d for d in still.values() if d.batch == "as_arrived"])
        finally:
            for _, task in asked.values():
                task.cancel()
            if asked:
                await asyncio.gather(*(t for _, t in asked.values()), return_exceptions=True)

    async def run(self, max_batches: int | None = None) -> Result | None:
        batches = 0
        try:
            while await self.step():
                batches += 1
                if self.pace:
                    await asyncio.sleep(self.pace)
                if max_batches is not None and batches >= max_batches:
                    return None
            result = self.game.result()
            assert result is not None
            if self.store is not None:
                self.store.finish_game(self.game_id, result.model_dump(mode="json"))
            for observer in self.observers:
                observer.on_finish(self.game, result)
            return result
        finally:
            self.close()

    def close(self) -> None:
        """Stop the writer thread (after its queued writes); a later step starts a new one."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None
