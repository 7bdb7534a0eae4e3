"""A game played by this process holds a local lease while it runs (``store/leases.py``).

The lease is renewed from a thread, so a game waiting minutes for a person at the terminal
still counts as running; a process killed outright stops renewing, and ``parlour list``
shows its game as ``running (stale)`` once the lease has lapsed. The row is dropped when the
game stops here (finished, paused, interrupted): the status says the rest.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from parlour.runtime.store import DatabaseErrors, Store
from parlour.runtime.store.leases import LOCAL_PREFIX

#: Long enough that a busy machine's late renewal does not look like a dead process.
LOCAL_LEASE_SECONDS = 30.0

log = logging.getLogger(__name__)


@contextmanager
def held_here(store: Store, game_id: str, seconds: float = LOCAL_LEASE_SECONDS) -> Iterator[None]:
    """Hold ``game_id``'s local lease for the duration of the block (not for in-memory
    stores, which no other process can read, nor for games a host runs)."""
    worker = f"{LOCAL_PREFIX}{socket.gethostname()}:{os.getpid()}"
    try:
        held = not store.in_memory and store.leases.hold_local(game_id, worker, seconds)
    except DatabaseErrors as err:  # the game matters more than its liveness mark
        log.warning("cannot mark game %s as running here: %s", game_id, err)
        held = False
    if not held:
        yield
        return
    stop = threading.Event()

    def renew() -> None:
        while not stop.wait(seconds / 3):
            try:
                store.leases.renew([game_id], worker, seconds)
            except DatabaseErrors as err:  # a busy database: the next round tries again
                log.warning("cannot renew the lease of game %s: %s", game_id, err)

    thread = threading.Thread(target=renew, name=f"lease-{game_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(5)
        with contextlib.suppress(*DatabaseErrors):
            store.leases.release(game_id, worker, drop=True)
