"""The worker processes of ``parlour serve --workers N``: they live and die with the server.

The main process only supervises. SIGTERM or SIGINT to it stops every worker the way
uvicorn stops on its own signal (the game host stops its games and releases their leases),
waits for them, and kills what has not stopped in time; without this a terminated server
left its workers running under PID 1, still answering and holding leases. A worker that
dies is started again with a line saying so; one that keeps dying right after it starts is
given up with a loud line saying the server runs short, so an operator never mistakes a
half-sized server for a whole one. Each worker also stops itself when its parent is gone
(``watch_parent``), which covers a main process killed with SIGKILL.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.process import BaseProcess

#: A worker that dies this soon after starting counts as failing to start.
QUICK_DEATH_SECONDS = 10.0
#: Failed starts in a row after which a worker is given up.
MAX_QUICK_DEATHS = 3
#: How long stopping workers may take (the host gives its games 15 s) before SIGKILL.
STOP_SECONDS = 30.0


@dataclass
class _Slot:
    name: str
    process: BaseProcess
    started: float
    quick_deaths: int = 0
    given_up: bool = False


def describe_exit(code: int | None) -> str:
    """``exit code 1`` or ``killed by SIGKILL``: how a worker ended, in an operator's words."""
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class Supervisor:
    """Starts the named workers, restarts the dead, and stops them all when told to."""

    def __init__(
        self,
        start: Callable[[str], BaseProcess],
        names: Sequence[str],
        *,
        say: Callable[[str], None],
        poll: float = 0.5,
        quick_death: float = QUICK_DEATH_SECONDS,
        max_quick_deaths: int = MAX_QUICK_DEATHS,
        stop_seconds: float = STOP_SECONDS,
    ) -> None:
        self._start = start
        self._names = list(names)
        self._say = say
        self._poll = poll
        self._quick = quick_death
        self._max_quick = max_quick_deaths
        self._stop_seconds = stop_seconds
        self.slots: list[_Slot] = []

    def run(self, stop: threading.Event) -> int:
        """Supervise until ``stop`` is set (0) or no worker is left (1)."""
        for name in self._names:
            self.slots.append(_Slot(name, self._start(name), time.monotonic()))
        try:
            while not stop.wait(self._poll):
                for slot in self.slots:
                    if not slot.given_up and slot.process.exitcode is not None:
                        self._replace(slot)
                if all(slot.given_up for slot in self.slots):
                    self._say("parlour serve: no worker is left running; stopping")
                    return 1
            return 0
        finally:
            self._stop_all()

    def running(self) -> int:
        return sum(1 for s in self.slots if not s.given_up and s.process.exitcode is None)

    def _replace(self, slot: _Slot) -> None:
        how = describe_exit(slot.process.exitcode)
        lived = time.monotonic() - slot.started
        slot.process.join(0)  # reap it
        slot.quick_deaths = slot.quick_deaths + 1 if lived < self._quick else 0
        if slot.quick_deaths >= self._max_quick:
            slot.given_up = True
            self._say(
                f"parlour serve RUNS SHORT: worker {slot.name} died {slot.quick_deaths} times "
                f"within {self._quick:.0f} s of starting (last: {how}); not starting it again. "
                f"{self.running()} of {len(self.slots)} workers running; see the lines above "
                "for the cause and restart the server"
            )
            return
        self._say(
            f"parlour serve: worker {slot.name} (pid {slot.process.pid}) died ({how}); "
            "starting it again"
        )
        try:
            slot.process = self._start(slot.name)
        except OSError as err:
            slot.given_up = True
            self._say(
                f"parlour serve RUNS SHORT: worker {slot.name} cannot be started again "
                f"({err}); {self.running()} of {len(self.slots)} workers running"
            )
            return
        slot.started = time.monotonic()
        self._say(f"parlour serve: worker {slot.name} runs again as pid {slot.process.pid}")

    def _stop_all(self) -> None:
        alive = [s.process for s in self.slots if s.process.exitcode is None]
        for process in alive:
            process.terminate()  # SIGTERM: uvicorn's graceful stop, leases released
        deadline = time.monotonic() + self._stop_seconds
        for process in alive:
            process.join(max(0.0, deadline - time.monotonic()))
        for slot in self.slots:
            if slot.process.exitcode is None:
                self._say(
                    f"parlour serve: worker {slot.name} (pid {slot.process.pid}) did not stop "
                    f"in {self._stop_seconds:.0f} s; killing it (its leases lapse on their own)"
                )
                slot.process.kill()
                slot.process.join(5)


@contextmanager
def stop_on_signals(stop: threading.Event) -> Iterator[None]:
    """SIGTERM and SIGINT set ``stop`` instead of ending the process (main thread only)."""
    wanted = [s for s in (getattr(signal, "SIGTERM", None), signal.SIGINT) if s is not None]
    previous = {s: signal.signal(s, lambda _n, _f: stop.set()) for s in wanted}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def watch_parent(poll: float = 1.0) -> None:
    """In a worker: send ourselves SIGTERM (uvicorn's graceful stop) once the process that
    started us is gone, so a supervisor killed outright leaves no worker behind."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()
