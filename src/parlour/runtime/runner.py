"""The loop: ask seats for the pending decisions, validate, apply, persist, notify.

Independent decisions (several pending at once) are asked concurrently; answers are
applied in the order ``pending()`` listed them, so the action log does not depend on
which seat answered first. A seat that crashes or answers illegally never stalls the
game: the game's scripted policy answers instead and the action is marked as such.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from typing import Protocol

from parlour.core.actions import Action
from parlour.core.decisions import Decision
from parlour.core.errors import IllegalAction
from parlour.core.events import Event
from parlour.core.game import Game, Result
from parlour.core.policy import Policy
from parlour.core.random_answers import random_answer
from parlour.core.rng import Rng, hash_seed
from parlour.runtime.store import Store
from parlour.seats.base import Seat, answered_by

log = logging.getLogger(__name__)


class Observer(Protocol):
    def on_events(self, game: Game, events: Sequence[Event]) -> None: ...

    def on_finish(self, game: Game, result: Result) -> None: ...


class GameStalled(RuntimeError):
    pass


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
        #: A seat that has not answered after this many seconds is replaced by the
        #: fallback for that decision (in Diplomacy: civil disorder).
        self.decision_timeout = decision_timeout

    async def _ask(self, decision: Decision) -> tuple[Action, str]:
        seat = self.seats[decision.seat]
        view = self.game.view(decision.seat)
        try:
            if self.decision_timeout:
                action = await asyncio.wait_for(seat.decide(view, decision), self.decision_timeout)
            else:
                action = await seat.decide(view, decision)
            decision.check(action)
            return action, answered_by(seat, decision.id)
        except IllegalAction as err:
            log.warning("seat %s answered illegally (%s); fallback answers", decision.seat, err)
        except (asyncio.CancelledError, EOFError, KeyboardInterrupt):
            # A closed terminal or Ctrl-C stops the game (it is saved); it is not a bad answer.
            raise
        except TimeoutError:
            log.warning("seat %s did not answer in time; fallback answers", decision.seat)
        except Exception as err:  # a crashing seat must not end the game
            log.warning("seat %s failed (%r); fallback answers", decision.seat, err)
        return self._fallback(decision), "fallback"

    def _fallback(self, decision: Decision) -> Action:
        rng = Rng(hash_seed(self.game.seed, decision.id))
        return self.fallback(self.game.view(decision.seat), decision, rng)

    def _apply(self, decision: Decision, action: Action, by: str) -> list[Event]:
        try:
            events = self.game.apply(decision.id, action)
        except IllegalAction as err:
            # Legal per the decision but not per a game rule: fall back, then random legal.
            log.warning("rule rejected %s for %s: %s", action, decision.id, err)
            action, events = self._apply_safely(decision)
            by = "fallback"
        if self.store is not None:
            self.store.record_action(
                self.game_id, self.next_idx, decision.id, decision.seat, action, events, by
            )
        self.next_idx += 1
        self.decisions_applied += 1
        for observer in self.observers:
            observer.on_events(self.game, events)
        return events

    def _apply_safely(self, decision: Decision) -> tuple[Action, list[Event]]:
        rng = Rng(hash_seed(self.game.seed, decision.id))
        candidates = [self._fallback(decision)]
        candidates += [random_answer(decision, rng) for _ in range(50)]
        for candidate in candidates:
            try:
                events = self.game.apply(decision.id, candidate)
            except IllegalAction:
                continue
            return candidate, events
        raise GameStalled(f"no legal answer found for {decision.id}")

    async def step(self) -> bool:
        """Answer and apply one batch of pending decisions. False when the game is over."""
        if self.game.is_terminal():
            return False
        pending = self.game.pending()
        if not pending:
            raise GameStalled("the game is not over but offers no decision")
        answers = await asyncio.gather(*(self._ask(d) for d in pending))
        for decision, (action, by) in zip(pending, answers, strict=True):
            self._apply(decision, action, by)
        return not self.game.is_terminal()

    async def run(self, max_batches: int | None = None) -> Result | None:
        batches = 0
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
