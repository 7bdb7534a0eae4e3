"""Live streams: one store read per game change and audience, shared by all its readers.

Games are run by hosts that may live in other processes (``--workers``), so the store
is the only place a change is sure to be seen. One task polls the store for every
followed game at once (one round: the games' statuses, their last event seq and their
open decisions) every ``interval`` seconds, and at once when the host in this process
rings (``ring``: it committed a followed game's events), at most once per ``gap``
seconds, so a line of a game hosted here does not wait for the next poll. When a game
changed, each of its *feeds*
(one per audience that has readers: ``seat:ID`` or ``public``) reads what is new for
that audience with the store's audited queries (``events_for`` / ``spectator_events``)
and renders each new event once, to the bytes of a server-sent event. Every reader of
that audience then sends those same bytes. So the cost of a change is one query and
one render per audience, not per reader, and who sees what is decided by the same
queries as before: a feed's audience comes from the reader's link, never from the data.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from sse_starlette.event import ServerSentEvent

from parlour.core.events import Event
from parlour.runtime.store import Store

#: Reads an audience's events after a seq (the store's audited query for it).
Reader = Callable[[str, str, int], list[Event]]
#: Renders new events of a game (with its seat names) to SSE ``line`` payloads.
Renderer = Callable[[str, list[Event]], list[tuple[int, bytes]]]

Mark = tuple[str, int, tuple[tuple[str, str, str], ...]]
_T = TypeVar("_T")


def sse(kind: str, payload: dict[str, object]) -> bytes:
    """One server-sent event, encoded once (readers send these bytes as they are)."""
    return ServerSentEvent(data=json.dumps(payload), event=kind).encode()


@dataclass
class Feed:
    """What one audience of one game has been sent: rendered lines, in seq order."""

    seqs: list[int] = field(default_factory=list)
    payloads: list[bytes] = field(default_factory=list)
    last: int = -1
    readers: int = 0
    filling: asyncio.Future[None] | None = None

    def after(self, seq: int) -> tuple[list[bytes], int]:
        """The payloads of lines after ``seq``, and the seq of the last of them."""
        # A round (another thread) may be adding lines meanwhile: take a count first and
        # return the seq of the last line returned, never a later one, so no line is
        # skipped (``add`` appends the seq, then the payload).
        n = len(self.payloads)
        i = bisect.bisect_right(self.seqs, seq, 0, n)
        return self.payloads[i:n], (self.seqs[n - 1] if n else -1)

    def add(self, rendered: list[tuple[int, bytes]]) -> None:
        for seq, payload in rendered:
            if seq > self.last:
                self.seqs.append(seq)
                self.payloads.append(payload)
                self.last = seq


@dataclass
class Cast:
    """One followed game: its feeds, its last mark, and the bell its readers wait on."""

    feeds: dict[str, Feed] = field(default_factory=dict)
    mark: Mark | None = None
    bell: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def status(self) -> str:
        return self.mark[0] if self.mark else "running"


class Broadcaster:
    def __init__(
        self,
        store: Store,
        read: Reader,
        render: Renderer,
        interval: float = 0.05,
        gap: float = 0.01,
    ) -> None:
        self.store = store
        self.read = read
        self.render = render
        self.interval = interval
        self.gap = min(gap, interval)
        self._casts: dict[str, Cast] = {}
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        #: Doorbell rings that asked for a round (the benchmark reports them).
        self.rings = 0
        #: Store rounds and audience reads done (the benchmark reports them).
        self.rounds = 0
        self.reads = 0
        self.changes = 0
        self._lock = threading.Lock()  # a feed is filled by one thread at a time
        # Store reads for streams on a thread of their own: never queued behind pages in
        # the shared pool (a page may take tens of milliseconds; a poll round one or two).
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="parlour-casts")

    async def _off_loop(self, fn: Callable[..., _T], *args: object) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._reader, fn, *args)

    # -- the store side (runs in a worker thread) -----------------------------------------

    def _marks(self, game_ids: list[str]) -> dict[str, Mark]:
        """Status, last event seq and open decisions of every followed game: 3 queries.
        The status is read first, so a game seen finished has all its events stored."""
        progress = self.store.events.progress(game_ids)
        return {
            gid: (status, _seq(last), tuple(sorted(opened)))
            for gid, (status, last, opened) in progress.items()
        }

    def _fill(self, game_id: str, audience: str, feed: Feed) -> None:
        with self._lock:
            new = self.read(game_id, audience, feed.last)
            self.reads += 1
            feed.add(self.render(game_id, new))

    def _round(self) -> list[str]:
        """One poll of every followed game; the ids of those that changed."""
        casts = dict(self._casts)
        if not casts:
            return []
        marks = self._marks(list(casts))
        self.rounds += 1
        changed = []
        for gid, mark in marks.items():
            cast = casts[gid]
            if mark == cast.mark:
                continue
            if cast.mark is None or mark[1] != cast.mark[1]:
                for audience, feed in list(cast.feeds.items()):
                    self._fill(gid, audience, feed)
            # Only now: a reader that sees the new status (e.g. finished) must find the
            # lines stored before it already in its feed.
            cast.mark = mark
            self.changes += 1
            changed.append(gid)
        return changed

    # -- the loop side ---------------------------------------------------------------------

    def ring(self, game_id: str) -> None:
        """``game_id``'s events were committed (called from the host's thread, after the
        commit): poll now rather than at the next tick. Safe from any thread."""
        loop, wake = self._loop, self._wake
        if loop is None or wake is None or game_id not in self._casts:
            return
        self.rings += 1
        with contextlib.suppress(RuntimeError):  # the loop has closed
            loop.call_soon_threadsafe(wake.set)

    async def _poll(self) -> None:
        self._loop = asyncio.get_running_loop()
        wake = self._wake = asyncio.Event()
        while self._casts:
            wake.clear()  # a ring during the round brings the next one early
            changed = await self._off_loop(self._round)
            for gid in changed:
                cast = self._casts.get(gid)
                if cast is not None:
                    bell, cast.bell = cast.bell, asyncio.Event()
                    bell.set()
            # The next round: at a ring (a commit here) but not within ``gap`` of this
            # one (commits come in bursts), else after ``interval`` (another worker's).
            await asyncio.sleep(self.gap)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), self.interval - self.gap)
        self._task = None

    async def follow(
        self, game_id: str, audience: str, after: int
    ) -> AsyncIterator[tuple[list[bytes], int, str]]:
        """Yields (new line payloads, last seq of the feed, game status) now and after each
        change of the game, until the reader stops."""
        cast = self._casts.setdefault(game_id, Cast())
        feed = cast.feeds.setdefault(audience, Feed())
        feed.readers += 1
        if self._task is None:
            self._task = asyncio.create_task(self._poll())
        try:
            if cast.mark is None:
                # Read before the feed's history: a status read after it could be a
                # "finished" whose last lines the history did not have yet.
                mark = (await self._off_loop(self._marks, [game_id]))[game_id]
                if cast.mark is None:
                    cast.mark = mark
            if feed.filling is None:
                # The first reader of an audience reads its history, once for all who come
                # meanwhile (later rounds read only what is new).
                feed.filling = asyncio.ensure_future(
                    self._off_loop(self._fill, game_id, audience, feed)
                )
            await asyncio.shield(feed.filling)
            cursor = after
            while True:
                bell = cast.bell
                status = cast.status  # before the lines: they are at least this fresh
                payloads, cursor_now = feed.after(cursor)
                cursor = max(cursor, cursor_now)
                yield payloads, cursor, status
                # A periodic look lets a stream notice its reader left.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(bell.wait(), timeout=10)
        finally:
            feed.readers -= 1
            if not feed.readers:
                cast.feeds.pop(audience, None)
                if not cast.feeds:
                    self._casts.pop(game_id, None)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._casts.clear()
        self._reader.shutdown(wait=False, cancel_futures=True)


def _seq(value: object) -> int:
    return -1 if value is None else int(str(value))
