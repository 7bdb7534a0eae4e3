"""Limits on the games visitors create: per client and for all of them, per minute and
running at once.

The minute windows are kept in this process (with ``--workers N`` each web process
counts its own, so the host's figure is at most N times the limit); the running games
are read from the store, which every process shares.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from parlour.core.errors import ParlourError
from parlour.runtime.store import Store
from parlour.web.policy import Limits

#: Statuses of a game that is still taking the host's time.
LIVE = ("running", "paused", "created")


class Throttle:
    """Admits or refuses a visitor's new game; remembers who created which."""

    def __init__(
        self, store: Store, limits: Limits, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.store = store
        self.limits = limits
        self.clock = clock
        self._lock = threading.Lock()
        self._times: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()
        self._made: dict[str, list[str]] = {}

    def admit(self, client: str) -> None:
        """Counts a new game for ``client``, or raises a one-line ``ParlourError``."""
        limits = self.limits
        running = self.store.list_games(limit=limits.running + 1, status="running")
        if len(running) >= limits.running:
            raise ParlourError(
                f"this host runs {limits.running} games already; try again when one ends"
            )
        with self._lock:
            made = list(self._made.get(client, []))
        mine = [g for g in made if self._live(g)]
        with self._lock:
            self._made[client] = [g for g in self._made.get(client, []) if g not in made] + mine
        if len(mine) >= limits.running_per_client:
            raise ParlourError(
                f"you have {limits.running_per_client} games running on this host; "
                "end one (its admin link) or wait for one to finish"
            )
        now = self.clock()
        with self._lock:
            times = self._times.setdefault(client, deque())
            for window in (times, self._all):
                while window and now - window[0] >= 60:
                    window.popleft()
            if len(times) >= limits.per_client_per_minute:
                raise ParlourError(
                    f"at most {limits.per_client_per_minute} new games a minute from one "
                    "visitor; try again in a minute"
                )
            if len(self._all) >= limits.per_minute:
                raise ParlourError(
                    f"at most {limits.per_minute} new games a minute on this host; "
                    "try again in a minute"
                )
            times.append(now)
            self._all.append(now)

    def created(self, client: str, game_id: str) -> None:
        with self._lock:
            self._made.setdefault(client, []).append(game_id)

    def _live(self, game_id: str) -> bool:
        try:
            return self.store.get_game(game_id).status in LIVE
        except ParlourError:
            return False
