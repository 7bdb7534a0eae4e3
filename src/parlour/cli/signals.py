"""SIGTERM stops a game the way Ctrl-C does: the game is marked paused and can be resumed.

Without a handler a terminated process dies mid-loop and leaves its game "running" for
ever (seen with `timeout` and `kill` on background games). The handler raises
``Terminated``, a ``KeyboardInterrupt``, so every path that already saves a game on Ctrl-C
saves it on SIGTERM too. Only the main thread may install it (Python's rule); elsewhere,
and where the platform has no SIGTERM, this does nothing.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

#: The shell's exit status for a process ended by SIGTERM (128 + 15).
EXIT_TERMINATED = 143


class Terminated(KeyboardInterrupt):
    """The process was sent SIGTERM."""


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@contextmanager
def sigterm_interrupts() -> Iterator[None]:
    term = getattr(signal, "SIGTERM", None)
    if term is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(term, _raise)
    try:
        yield
    finally:
        signal.signal(term, previous)
