"""Running a ``GameHost`` inside a test: serve while a body of checks runs, then stop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from parlour.runtime.host import GameHost


async def until(cond: Callable[[], bool], seconds: float = 30.0) -> None:
    """Wait, polling, until ``cond()`` holds; fail after ``seconds``."""
    end = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.02)


async def serving(host: GameHost, body: Callable[[], Awaitable[None]]) -> None:
    """Serve ``host`` while ``body`` runs; stop it whatever ``body`` does."""
    stop = asyncio.Event()
    serve = asyncio.create_task(host.serve(stop))
    try:
        await body()
    finally:
        stop.set()
        await serve
