"""Live streams share one read per game change and audience, and never cross audiences.

A real scripted werewolf game is hosted on a real SQLite store while three readers per
audience (every seat, and the spectators' public view) follow it through the app's
broadcaster until the end. Each reader must have been sent exactly what the store's
audited query gives its audience (no other seat's private lines, nothing missing), and
the store must have been read once per change and audience, not once per reader.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from parlour.runtime.host import GameHost
from parlour.runtime.seating import parse_seat_spec
from parlour.runtime.store import Store, db_url
from parlour.web.app import FINAL, create_app
from parlour.web.tables import _flat

READERS = 3


def _seqs(payloads: list[bytes]) -> list[int]:
    out = []
    for p in payloads:
        data = re.search(rb"^data: (.*)$", p, re.M)
        assert data is not None and p.startswith(b"event: line")
        out.append(int(json.loads(data.group(1))["seq"]))
    return out


def test_broadcaster_sends_each_audience_only_its_own_events(tmp_path: Path) -> None:
    store = Store(db_url(str(tmp_path / "streams.sqlite")))
    host = GameHost(store, "stream-test", poll=0.05, pace=0.02)
    web = create_app(store, host, run_host=False).state.web
    scripted = parse_seat_spec("scripted")
    seats = [f"p{i}" for i in range(1, 7)]
    game = host.create(
        "werewolf", players=6, seed=5, seats=dict.fromkeys(seats, scripted), overrides={}
    )
    audiences = ["public"] + [f"seat:{s}" for s in seats]

    async def read(audience: str) -> list[int]:
        got: list[bytes] = []
        async for payloads, _, status in web.casts.follow(game, audience, -1):
            got.extend(payloads)
            if status in FINAL:
                return _seqs(got)
        raise AssertionError("the stream ended before the game")

    async def main() -> dict[str, list[list[int]]]:
        stop = asyncio.Event()
        hosting = asyncio.create_task(host.serve(stop))
        readers = {a: [asyncio.create_task(read(a)) for _ in range(READERS)] for a in audiences}
        try:
            return {a: list(await asyncio.gather(*ts)) for a, ts in readers.items()}
        finally:
            stop.set()
            await hosting

    got = asyncio.run(asyncio.wait_for(main(), timeout=300))
    assert store.get_game(game).status == "finished"
    everything = {e.seq for e in store.events(game)}
    for audience, per_reader in got.items():
        if audience == "public":
            allowed = [e.seq for e in store.spectator_events(game, "public")]
        else:
            allowed = [e.seq for e in store.events_for(game, audience.removeprefix("seat:"))]
        for seqs in per_reader:
            assert seqs == allowed, audience  # all of its own, in order, nothing else
    # The test means something: seats were sent different things, some not public.
    private = {s: set(got[f"seat:{s}"][0]) - set(got["public"][0]) for s in seats}
    assert any(private.values())
    assert len({frozenset(v) for v in private.values()}) > 1
    assert set().union(*private.values(), got["public"][0]) <= everything
    # One store read per change and audience, shared by the audience's readers (read
    # per reader, it would be READERS times as many).
    assert web.casts.changes > 5
    assert web.casts.reads <= (web.casts.changes + 1) * len(audiences)


def test_facts_read_as_words_without_doubled_stops() -> None:
    facts = _flat({"seer_table": {"Ann": "a wolf.", "Bob": "not a wolf."}, "notes": ["A.", "B."]})
    assert facts == {"seer table": "Ann: a wolf; Bob: not a wolf.", "notes": "A. B."}
    assert ".;" not in "".join(facts.values())


def test_the_host_in_this_process_rings_the_streams_instead_of_waiting_for_the_poll(
    tmp_path: Path,
) -> None:
    """With the poll slowed to once per 30 s, a game hosted by this app's own host still
    reaches its stream line by line: each commit rings the broadcaster's doorbell."""
    store = Store(db_url(str(tmp_path / "bell.sqlite")))
    host = GameHost(store, "bell-test", poll=0.05, pace=0.02)
    # run_host=True attaches the doorbell; the host is served below, on this loop.
    web = create_app(store, host, run_host=True).state.web
    web.casts.interval = 30.0
    scripted = parse_seat_spec("scripted")
    seats = dict.fromkeys([f"p{i}" for i in range(1, 7)], scripted)
    game = host.create("werewolf", players=6, seed=5, seats=seats, overrides={})

    async def main() -> tuple[list[int], float]:
        stop = asyncio.Event()
        got: list[bytes] = []

        async def read() -> None:
            async for payloads, _, status in web.casts.follow(game, "public", -1):
                got.extend(payloads)
                if status in FINAL:
                    return

        reading = asyncio.create_task(read())
        await asyncio.sleep(0.2)  # the stream is open before the game starts
        hosting = asyncio.create_task(host.serve(stop))
        started = asyncio.get_running_loop().time()
        try:
            await reading
        finally:
            stop.set()
            await hosting
        return _seqs(got), asyncio.get_running_loop().time() - started

    seqs, took = asyncio.run(asyncio.wait_for(main(), timeout=120))
    assert seqs == [e.seq for e in store.spectator_events(game, "public")]
    assert web.casts.rings > 5
    # Dozens of changes: at one poll per 30 s the stream would take many minutes.
    assert web.casts.changes > 10 and took < 25, (web.casts.changes, took)
