"""A hosting worker process: ``python -m parlour.runtime.worker --db URL --worker NAME``.

Runs ``GameHost.serve`` over one database until SIGTERM or SIGINT (then it stops its
games, which are saved, and releases their leases so another worker takes them at once).
Run several over one PostgreSQL database: each claims free games by their lease; a
worker that dies loses its games when their leases expire, and the others resume them.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from parlour.core.errors import ParlourError
from parlour.runtime.host import GameHost
from parlour.runtime.store import Store, db_url


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


async def _serve(host: GameHost) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await host.serve(stop)


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
        asyncio.run(_serve(host))
    except ParlourError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
