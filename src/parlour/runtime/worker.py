"""A hosting worker process: ``python -m parlour.runtime.worker --db URL --worker NAME``.

Runs ``GameHost.serve`` over one database until SIGTERM or SIGINT (then it stops its
games, which are saved, and releases their leases so another worker takes them at once).
Run several over one PostgreSQL database: each claims free games by their lease; a
worker that dies loses its games when their leases expire, and the others resume them.

``HostProcess`` starts such a worker as a child of a server (``parlour serve``): the
games then run on their own interpreter and core, not between the server's page
renders and stream writes (see docs/web.md, "Live updates").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.process
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable

from parlour.core.errors import ParlourError
from parlour.runtime.host import GameHost
from parlour.runtime.store import Store, db_url

log = logging.getLogger(__name__)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m parlour.runtime.worker",
        description="Host live parlour games stored in a database (one worker process).",
    )
    p.add_argument("--db", required=True, help="database URL or SQLite file path")
    p.add_argument("--worker", required=True, help="this worker's name (shown in leases)")
    p.add_argument("--lease", type=float, default=10.0, help="lease seconds (default 10)")
    p.add_argument("--poll", type=float, default=0.2, help="seconds between claim rounds")
    p.add_argument("--capacity", type=int, default=200, help="most games run at once")
    p.add_argument(
        "--pace", type=float, default=0.0, help="seconds to pause after each batch (demo/tests)"
    )
    return p


async def _serve(host: GameHost, parent: int | None = None) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # A server's child leaves Ctrl-C to its server, which then stops it with SIGTERM
    # (else the server would see it die first and start a new one).
    for sig in (signal.SIGTERM,) if parent is not None else (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if parent is not None:
        # A server's host child stops (its games saved, leases freed) when the server is
        # gone, even if the server was killed and could not say so.
        async def orphaned() -> None:
            while os.getppid() == parent:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 1.0)
                    return
            log.warning("worker %s: its server is gone; stopping", host.worker)
            stop.set()

        watch = asyncio.create_task(orphaned())
    await host.serve(stop)
    if parent is not None:
        watch.cancel()


def serve_host(host: GameHost, parent: int | None = None) -> None:
    """Run ``host`` until SIGTERM/SIGINT, or until process ``parent`` is gone."""
    asyncio.run(_serve(host, parent))


#: Runs in the child: (database URL, worker name, the server's pid, *extra args).
HostMain = Callable[..., None]


def host_main(url: str, worker: str, parent: int) -> None:
    """A server's host child: a ``GameHost`` with the default settings."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    serve_host(GameHost(Store(url), worker), parent)


class HostProcess:
    """A game host in a child process of a server, restarted if it dies.

    The child's worker name is ``{name}@{machine}:{pid}`` (unique across machines and
    restarts, and the pid says which process holds a lease). A child that dies is
    started again after ``restart`` seconds: its games are resumed from the store by
    whichever host claims them first once their leases expire.
    """

    def __init__(
        self,
        url: str,
        name: str,
        main: HostMain = host_main,
        args: tuple[object, ...] = (),
        restart: float = 1.0,
    ) -> None:
        self.url = url
        self.name = name
        self.main = main
        self.args = args
        self.restart = restart
        self._context = multiprocessing.get_context("spawn")
        self._proc: multiprocessing.process.BaseProcess | None = None
        self._stopping = threading.Event()
        self._watcher = threading.Thread(target=self._watch, name=f"{name}-watch", daemon=True)

    def start(self) -> None:
        self._spawn()
        self._watcher.start()

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    def _spawn(self) -> None:
        self._proc = self._context.Process(
            target=_child,
            args=(self.main, self.url, self.name, os.getpid(), *self.args),
            name=self.name,
            daemon=False,  # it stops its games itself (saved, leases freed)
        )
        self._proc.start()

    def _watch(self) -> None:
        while not self._stopping.is_set():
            proc = self._proc
            if proc is not None and not proc.is_alive() and not self._stopping.is_set():
                log.warning(
                    "host %s (pid %s) exited with %s; starting a new one",
                    self.name,
                    proc.pid,
                    proc.exitcode,
                )
                if self._stopping.wait(self.restart):
                    return
                self._spawn()
            self._stopping.wait(0.5)

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM the child (it saves its games and frees their leases), then wait."""
        self._stopping.set()
        proc = self._proc
        if proc is None or proc.pid is None:
            return
        if proc.is_alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGTERM)
        proc.join(timeout)
        if proc.is_alive():
            proc.kill()
            proc.join(5)


def _child(main: HostMain, url: str, name: str, parent: int, *args: object) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops it (see ``_serve``)
    worker = f"{name}@{socket.gethostname()}:{os.getpid()}"
    main(url, worker, parent, *args)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s {args.worker} %(message)s")
    if args.lease <= 0 or args.poll <= 0 or args.capacity < 1 or args.pace < 0:
        print(
            "error: --lease and --poll must be positive, --capacity at least 1, --pace >= 0",
            file=sys.stderr,
        )
        return 2
    try:
        store = Store(db_url(args.db))
        host = GameHost(
            store,
            args.worker,
            args.lease,
            capacity=args.capacity,
            poll=args.poll,
            pace=args.pace,
        )
        print(f"worker {args.worker} serving {store.where}", flush=True)
        serve_host(host)
    except ParlourError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
