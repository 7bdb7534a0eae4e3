"""Change notices for SSE streams: one poll of the store per game, shared by its readers.

Games are run by hosts that may live in other processes (``--workers``), so the store
is the only place a change is sure to be seen. Rather than every open stream polling,
one task per followed game reads the game's event count and its open decisions' count
every ``interval`` seconds and wakes all of that game's readers when either changed;
each reader then asks the store for what its own audience may see.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from parlour.runtime.remote import Desk
from starlette.concurrency import run_in_threadpool

from parlour.runtime.store import Store

Mark = tuple[int, str, tuple[tuple[str, str, str], ...]]


class Changes:
    def __init__(self, store: Store, desk: Desk, interval: float = 0.05) -> None:
        self.store = store
        self.desk = desk
        self.interval = interval
        self._bells: dict[str, asyncio.Event] = {}
        self._readers: dict[str, int] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def _mark(self, game_id: str) -> Mark:
        """Stored events, the game's status and its open decisions (with the engine's last
        refusal of each): any change in them is worth a look by the readers."""
        events = self.store.event_count(game_id)
        status = self.store.get_game(game_id).status
        opened = tuple(
            sorted((o.seat, o.decision.id, o.refusal or "") for o in self.desk.open_in(game_id))
        )
        return events, status, opened

    async def _poll(self, game_id: str) -> None:
        last: Mark | None = None
        while True:
            mark = await run_in_threadpool(self._mark, game_id)
            if mark != last:
                last = mark
                bell = self._bells[game_id]
                self._bells[game_id] = asyncio.Event()
                bell.set()
            await asyncio.sleep(self.interval)

    async def follow(self, game_id: str) -> AsyncIterator[None]:
        """Yields once now, then after each change of the game, until the reader stops."""
        self._readers[game_id] = self._readers.get(game_id, 0) + 1
        if game_id not in self._tasks:
            self._bells[game_id] = asyncio.Event()
            self._tasks[game_id] = asyncio.create_task(self._poll(game_id))
        try:
            yield None
            while True:
                bell = self._bells[game_id]
                # A periodic look lets a stream notice its reader left.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(bell.wait(), timeout=10)
                yield None
        finally:
            self._readers[game_id] -= 1
            if not self._readers[game_id]:
                del self._readers[game_id]
                task = self._tasks.pop(game_id)
                task.cancel()
                self._bells.pop(game_id, None)

    def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
