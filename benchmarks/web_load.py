"""Web load: scripted games streamed live to many SSE clients, on loopback.

A server process (this script with ``--as-server``) runs the real app (uvicorn, its
GameHost, a SQLite store) and timestamps every commit of events (``time.time()`` right
after ``Store.record_actions``, per event seq). The main process creates ``--games``
scripted werewolf games through ``POST /create``, opens ``--clients`` spectator streams
(``/watch/{id}/events``, spread evenly over the games) and timestamps each event line as
it arrives. It reports:

* delivery latency p50/p99: arrival at a client minus the commit of that event (same
  machine, same wall clock); the app reads the store when the host (in the same
  process) rings after a commit, else every 50 ms;
* requests/s and page latency p50/p99: page requests (the lobby and the games'
  spectator pages) from ``--concurrency`` clients for ``--seconds`` while the games and
  streams run, each client asking for the next page as soon as it has the last.

The server renders pages as ``parlour serve`` does: in worker processes (as many as it
would start here; ``--page-workers N`` to choose, 0 for the server's own threads); its
CPU per event includes those workers' (their start-up excluded).

Games run at ``--pace`` seconds per batch (the host's pacing for people following a
game), so they are live while the clients watch.

    uv run python benchmarks/web_load.py                      # 50 games, 200 clients
    uv run python benchmarks/web_load.py --games 5 --clients 20 --seconds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from benchmarks._common import free_port, percentile  # noqa: E402
from parlour.runtime.store import ActionWrite, Store, db_url  # noqa: E402

if TYPE_CHECKING:
    from parlour.runtime.host import GameHost


def _timed(store: Store) -> dict[str, dict[int, float]]:
    """Stamps every commit of events: ``committed[game][seq]`` = wall time of the commit."""
    committed: dict[str, dict[int, float]] = {}
    record = store.record_actions

    def timed(game_id: str, writes: Sequence[ActionWrite]) -> None:
        record(game_id, writes)
        now = time.time()
        seqs = committed.setdefault(game_id, {})
        for w in writes:
            for e in w.events:
                seqs[e.seq] = now

    store.record_actions = timed  # type: ignore[method-assign]
    return committed


def _gated(store: Store, worker: str, gate: Path, pace: float) -> GameHost:
    from parlour.runtime.host import GameHost

    class GatedHost(GameHost):
        """Claims no game until the clients are all watching (``gate`` exists): else the
        first games would finish while the rest are still being created, and their
        events would reach streams opened later, measuring creation, not delivery."""

        async def tick(self) -> None:
            if gate.exists():
                await super().tick()

    return GatedHost(store, worker, capacity=500, poll=0.1, pace=pace)


def _as_server(db: str, port: int, pace: float, out: Path, page_workers: int) -> int:
    import uvicorn

    from parlour.web.app import create_app

    store = Store(db)
    gate = out.with_suffix(".go")
    committed = _timed(store)
    host = _gated(store, "web-load", gate, pace)
    # Older code (A/B runs with PYTHONPATH=old/src) has no page workers.
    app = (
        create_app(store, host, page_workers=page_workers)
        if page_workers >= 0
        else create_app(store, host)
    )
    stages = _stage_stamps(app.state.web.casts)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    started = time.process_time()  # imports and the app's set-up are not load
    signal.signal(signal.SIGTERM, lambda *_: setattr(server, "should_exit", True))
    server.run()
    # CPU seconds of the whole server (hosting the games, pages, streams), for a cost per
    # event that does not depend on how busy the rest of the machine was. The page
    # workers have ended (the app's shutdown waits for them), so their CPU is counted
    # among this process's children; their start-up is set-up, like the imports.
    cpu = time.process_time() - started
    children = os.times()
    pool_cpu = children.children_user + children.children_system
    pool_cpu -= getattr(app.state.web, "pool_start_cpu", 0.0)
    casts = getattr(app.state.web, "casts", None)
    shared = [casts.rounds, casts.reads, getattr(casts, "rings", 0)] if casts else None
    out.write_text(
        json.dumps(
            {
                "committed": committed,
                "cpu": cpu,
                "pool_cpu": pool_cpu,
                "casts": shared,
                "stages": stages,
            }
        )
    )
    return 0


def _stage_stamps(casts: Any) -> dict[str, list[tuple[str, int, float]]]:
    """Where a line's time goes in the server, for the report: when the broadcaster's
    poll had read it (``seen``), and when a stream picked it up to send (``woke``)."""
    stages: dict[str, list[tuple[str, int, float]]] = {"seen": [], "woke": []}
    fill, follow = casts._fill, casts.follow

    def timed_fill(game_id: str, audience: str, feed: Any) -> None:
        before = feed.last
        fill(game_id, audience, feed)
        now = time.time()
        stages["seen"] += [(game_id, q, now) for q in feed.seqs if q > before]

    async def timed_follow(game_id: str, audience: str, after: int) -> Any:
        cursor = after
        async for payloads, last, status in follow(game_id, audience, after):
            now = time.time()
            stages["woke"] += (
                [
                    (game_id, q, now)
                    for q in casts._casts[game_id].feeds[audience].seqs
                    if cursor < q <= last
                ]
                if game_id in casts._casts
                else []
            )
            cursor = last
            yield payloads, last, status

    casts._fill, casts.follow = timed_fill, timed_follow
    return stages


async def _create(client: httpx.AsyncClient, seed: int) -> tuple[str, str]:
    form = {"game": "werewolf", "players": "6", "seed": str(seed), "options": "", "scenario": ""}
    form.update({f"seat.p{i}": "scripted" for i in range(1, 7)})
    r = await client.post("/create", data=form)
    r.raise_for_status()
    game = re.search(r'id="watch-link" href="/watch/([^"]+)"', r.text)
    admin = re.search(r'id="admin-link" href="(/admin/[^"]+)"', r.text)
    assert game and admin
    return game.group(1), admin.group(1)


async def _watch(
    base: str,
    game_id: str,
    arrivals: list[tuple[str, int, float]],
    ready: asyncio.Queue[None] | None,
) -> None:
    async with (
        httpx.AsyncClient(base_url=base, timeout=None) as client,
        client.stream("GET", f"/watch/{game_id}/events") as stream,
    ):
        kind = ""
        async for line in stream.aiter_lines():
            if line.startswith("event:"):
                kind = line[6:].strip()
                if kind == "end":
                    return
                if kind == "tick" and ready is not None:
                    ready.put_nowait(None)  # this stream is open and caught up
                    ready = None
            elif line.startswith("data:") and kind == "line":
                seq = int(json.loads(line[5:])["seq"])
                arrivals.append((game_id, seq, time.time()))


async def _pages(
    base: str, paths: list[str], seconds: float, concurrency: int
) -> dict[str, list[float]]:
    """Seconds each page request took, by kind (``lobby``, ``watch``)."""
    took: dict[str, list[float]] = {"lobby": [], "watch": []}
    stop = time.monotonic() + seconds

    async def one(i: int) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            k = i
            while time.monotonic() < stop:
                path = paths[k % len(paths)]
                t = time.monotonic()
                r = await client.get(path)
                r.raise_for_status()
                took["lobby" if path == "/" else "watch"].append(time.monotonic() - t)
                k += concurrency

    await asyncio.gather(*(one(i) for i in range(concurrency)))
    return took


async def _load(
    base: str, games: int, clients: int, seconds: float, concurrency: int, gate: Path
) -> dict:
    async with httpx.AsyncClient(base_url=base, timeout=60, headers={"origin": base}) as c:
        created = [await _create(c, seed) for seed in range(1, games + 1)]
    ids = [g for g, _ in created]
    arrivals: list[tuple[str, int, float]] = []
    ready: asyncio.Queue[None] = asyncio.Queue()
    watchers = [
        asyncio.create_task(_watch(base, ids[i % games], arrivals, ready)) for i in range(clients)
    ]
    for _ in range(clients):
        await asyncio.wait_for(ready.get(), timeout=600)
    gate.touch()  # every client watches: the games may start
    lags: list[float] = []
    lagging = asyncio.create_task(_lag(lags))
    cpu = time.process_time()
    paths = ["/"] + [f"/watch/{g}" for g in ids]
    started = time.monotonic()
    took = await _pages(base, paths, seconds, concurrency)
    page_seconds = time.monotonic() - started
    await asyncio.wait_for(asyncio.gather(*watchers), timeout=600)
    lagging.cancel()
    cpu = time.process_time() - cpu
    return {
        "ids": ids,
        "arrivals": arrivals,
        "took": took,
        "seconds": page_seconds,
        "client_lag": lags,
        "client_cpu": cpu,
    }


async def _lag(lags: list[float], every: float = 0.01) -> None:
    """How late this loop wakes from a short sleep: a busy client reads its streams late,
    and would be counted as the server's delay."""
    while True:
        t = time.monotonic()
        await asyncio.sleep(every)
        lags.append(time.monotonic() - t - every)


def _stages(
    committed: dict[str, dict[str, float]],
    stages: dict[str, list[list[Any]]] | None,
    arrivals: list[tuple[str, int, float]],
) -> None:
    """p50/p99 of each stage of a line's way: commit -> poll read it -> a stream woke
    with it -> the client got it (stream wakes and arrivals of a line paired in order)."""
    if not stages:
        return
    seen = {(g, q): t for g, q, t in stages["seen"]}
    woke: dict[tuple[str, int], list[float]] = {}
    for g, q, t in stages["woke"]:
        woke.setdefault((g, q), []).append(t)
    got: dict[tuple[str, int], list[float]] = {}
    for g, q, t in arrivals:
        got.setdefault((g, q), []).append(t)
    poll, wake, send = [], [], []
    for key, times in got.items():
        g, q = key
        commit = committed.get(g, {}).get(str(q))
        if commit is None or key not in seen:
            continue
        poll.append(seen[key] - commit)
        for w, a in zip(sorted(woke.get(key, [])), sorted(times), strict=False):
            wake.append(w - seen[key])
            send.append(a - w)
    for name, values in (("commit->read", poll), ("read->stream", wake), ("stream->client", send)):
        if values:
            p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
            print(f"  {name}: p50 {1000 * p50:.0f} ms, p99 {1000 * p99:.0f} ms")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--clients", type=int, default=200)
    p.add_argument("--seconds", type=float, default=10.0, help="page-request phase length")
    p.add_argument("--concurrency", type=int, default=20, help="page-request clients")
    p.add_argument("--pace", type=float, default=0.3, help="seconds after each batch")
    p.add_argument(
        "--page-workers",
        type=int,
        default=None,
        help="page worker processes (default: as parlour serve sizes it; 0: the server's "
        "threads; -1: old code without the option)",
    )
    p.add_argument("--as-server", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--db", default="", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--out", default="", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.as_server:
        return _as_server(args.db, args.port, args.pace, Path(args.out), args.page_workers)
    if args.page_workers is None:  # as parlour serve sizes it
        try:
            from parlour.web.pages import default_size
        except ImportError:  # older code: no page workers, no such option
            args.page_workers = -1
        else:
            args.page_workers = default_size()

    with tempfile.TemporaryDirectory() as tmp:
        db = db_url(str(Path(tmp) / "web_load.sqlite"))
        Store(db).close()
        port, out = free_port(), Path(tmp) / "commits.json"
        cmd = [sys.executable, __file__, "--as-server", "--db", db, "--port", str(port)]
        cmd += ["--pace", str(args.pace), "--out", str(out)]
        cmd += ["--page-workers", str(args.page_workers)]
        server = subprocess.Popen(cmd, cwd=ROOT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    httpx.get(base + "/", timeout=5).raise_for_status()
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.3)
            result = asyncio.run(
                _load(
                    base,
                    args.games,
                    args.clients,
                    args.seconds,
                    args.concurrency,
                    out.with_suffix(".go"),
                )
            )
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
        written = json.loads(out.read_text())
        committed: dict[str, dict[str, float]] = written["committed"]
        store = Store(db)
        unfinished = [g for g in result["ids"] if store.get_game(g).status != "finished"]
        store.close()
    latencies = [
        t - committed[g][str(seq)]
        for g, seq, t in result["arrivals"]
        if str(seq) in committed.get(g, {})  # the games' opening events predate the host
    ]
    per_game = args.clients // args.games if args.clients % args.games == 0 else 0
    if per_game:  # every client of a game must have been sent each of its public lines
        got: dict[tuple[str, int], int] = {}
        for g, seq, _ in result["arrivals"]:
            got[(g, seq)] = got.get((g, seq), 0) + 1
        short = [
            (g, int(seq), max(int(s) for s in committed[g]), got.get((g, int(seq)), 0))
            for g in committed
            for seq in committed[g]
            if 0 < got.get((g, int(seq)), 0) < per_game
        ]
        if short:
            print(f"lines some clients missed (game, seq, last seq, clients): {short[:8]}")
    if not latencies or unfinished:
        raise SystemExit(f"no deliveries measured, or unfinished games: {unfinished[:3]}")
    workers = "the server's threads" if args.page_workers <= 0 else args.page_workers
    print(f"games {args.games}, SSE clients {args.clients}, pace {args.pace} s")
    print(f"pages rendered by: {workers} (page worker processes)")
    print(f"events delivered to clients: {len(result['arrivals'])} ({len(latencies)} timed)")
    p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
    print(f"delivery latency: p50 {1000 * p50:.0f} ms, p99 {1000 * p99:.0f} ms (target p99 < 250)")
    events = sum(len(seqs) for seqs in committed.values())
    stamps = [t for seqs in committed.values() for t in seqs.values()]
    span = max(stamps) - min(stamps)
    print(f"events committed: {events} in {span:.1f} s = {events / span:.0f} events/s")
    _stages(committed, written.get("stages"), result["arrivals"])
    cpu = float(written["cpu"]) + float(written.get("pool_cpu", 0.0))
    print(
        f"server CPU: {cpu:.1f} s (page workers {float(written.get('pool_cpu', 0.0)):.1f} s) "
        f"for {events} events committed and "
        f"{len(result['arrivals'])} delivered = {1000 * cpu / events:.1f} ms per event "
        f"({1000 * cpu / len(result['arrivals']):.2f} ms per delivery)"
    )
    casts = written.get("casts")
    if casts:
        print(
            f"store reads for streams: {casts[0]} polling rounds, {casts[1]} audience reads"
            f" ({casts[2] if len(casts) > 2 else 0} doorbell rings from the host's commits)"
        )
    lags = result["client_lag"]
    if lags:
        print(
            f"client loop lag: p50 {1000 * percentile(lags, 0.5):.0f} ms, "
            f"p99 {1000 * percentile(lags, 0.99):.0f} ms; client CPU {result['client_cpu']:.1f} s"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (2 cores)")
    took = result["took"]
    requests = sum(len(v) for v in took.values())
    rps = requests / result["seconds"]
    print(f"page requests: {requests} in {result['seconds']:.1f} s = {rps:.0f} req/s")
    for kind, values in (("all", [t for v in took.values() for t in v]), *took.items()):
        if values:
            print(
                f"  page latency ({kind}, {len(values)}): p50 "
                f"{1000 * percentile(values, 0.5):.0f} ms, "
                f"p99 {1000 * percentile(values, 0.99):.0f} ms"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
