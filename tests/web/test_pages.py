"""Pages rendered by worker processes: the same bytes as on threads, fresh, no orphans.

A real scripted werewolf game on a real SQLite file is served by two apps at once: one
rendering its pages in a worker process (``page_workers=1``), one on its own threads.
Every read-only page must be byte-identical from both, before the game runs and after
it ended (the worker has its own store engine and replay cache: it must see the new
events, not a copy from before). The workers are other processes, and they are gone
when the app stops, or when their parent is killed outright; when a helper dies, the
app renders its pages on threads.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from parlour.runtime.host import GameHost
from parlour.runtime.seating import parse_seat_spec
from parlour.runtime.store import Store, db_url
from parlour.web.app import create_app


def _gone(pid: int) -> bool:
    """Exited (a zombie waiting for init to reap it counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def _wait_gone(pids: list[int], timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(_gone(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def _play(host: GameHost, store: Store, game: str) -> None:
    async def main() -> None:
        stop = asyncio.Event()
        hosting = asyncio.create_task(host.serve(stop))
        try:
            while store.get_game(game).status not in ("finished", "failed"):
                await asyncio.sleep(0.05)
        finally:
            stop.set()
            await hosting

    asyncio.run(asyncio.wait_for(main(), timeout=300))


@pytest.mark.slow  # page-worker processes
def test_worker_pages_equal_thread_pages_before_and_after_new_events(tmp_path: Path) -> None:
    store = Store(db_url(str(tmp_path / "pages.sqlite")))
    host = GameHost(store, "pages-test", poll=0.05)
    scripted = parse_seat_spec("scripted")
    seats = {f"p{i}": scripted for i in range(1, 7)}
    game = host.create("werewolf", players=6, seed=4, seats=seats, overrides={})
    pooled_app = create_app(store, host, run_host=False, page_workers=1)
    threaded_app = create_app(store, host, run_host=False)
    with TestClient(pooled_app) as pooled, TestClient(threaded_app) as threaded:
        web = pooled_app.state.web
        assert web.pool is not None and threaded_app.state.web.pool is None
        pids = web.pool.pids
        assert pids and os.getpid() not in pids
        token = web.links.issue(game, "seat", "p2")
        paths = ["/", f"/watch/{game}", f"/watch/{game}?level=everything"]
        paths += [f"/play/{token}{part}" for part in ("", "/facts", "/decision", "/board")]

        def pages() -> dict[str, str]:
            got = {}
            for path in paths:
                a, b = pooled.get(path), threaded.get(path)
                assert a.status_code == b.status_code == 200, path
                assert a.text == b.text, path
                got[path] = a.text
            return got

        before = pages()
        _play(host, store, game)
        after = pages()
        watch = f"/watch/{game}"
        # The worker saw the new events: more lines, the final status, a new sidebar.
        count = [len(re.findall(r'<li class="ev ', p[watch])) for p in (before, after)]
        assert count[1] > count[0] > 0
        assert "finished" in after[watch] and "finished" not in before[watch]
        assert before[f"/play/{token}"] != after[f"/play/{token}"]
        # Refusals come out the same: an unknown game, a forged seat link.
        assert pooled.get("/watch/no-such-game").status_code == 404
        assert pooled.get("/play/forged-token").status_code == 404
        assert pooled.get(f"/play/{web.links.issue(game, 'admin')}").status_code == 404
        # A helper killed outright: pages go on, from the app's threads.
        os.kill(pids[0], signal.SIGKILL)
        assert _wait_gone(pids[:1])
        page = pooled.get(watch)
        assert page.status_code == 200 and page.text == after[watch]
        assert web.pool is None
    assert web.pool is None
    assert _wait_gone(pids), "page workers outlived the app"


@pytest.mark.slow  # kill -9 of a real server process
def test_page_workers_leave_when_their_parent_is_killed(tmp_path: Path) -> None:
    db = db_url(str(tmp_path / "orphans.sqlite"))
    Store(db).close()
    script = (
        "import asyncio, sys, time\n"
        "from parlour.web.pages import PagePool\n"
        "pool = PagePool(sys.argv[1], 2)\n"
        "print(*asyncio.run(pool.ready()), flush=True)\n"
        "time.sleep(600)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script, db], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) == 2 and not any(_gone(p) for p in pids)
    finally:
        proc.send_signal(signal.SIGKILL)  # no shutdown: what a crashed worker leaves
        proc.wait(timeout=30)
    assert _wait_gone(pids), "page workers outlived their killed parent"


def test_a_cached_game_advances_to_what_a_whole_replay_gives(tmp_path: Path) -> None:
    """The sidebar's game is advanced by the actions stored since it was cached; at every
    point it must be the game a replay of all the stored actions gives, and reading a
    live game must never write its stored events (``rebuild`` would re-derive them from
    the actions it read, and drop the events of an action committed meanwhile)."""
    from parlour.runtime import session as sessions
    from parlour.runtime.seating import SeatPlan
    from parlour.web.tables import Games

    store = Store(db_url(str(tmp_path / "advance.sqlite")))
    plan = SeatPlan(default="scripted", system_default="scripted", overrides={})
    live = sessions.start(store, "werewolf", players=6, seed=2, options={}, plan=plan)
    gid = live.game_id
    shared, alone = Games(store), Games(store, shared=False)
    for step in range(40):  # day plans add batches: room for the whole game
        if store.get_game(gid).status != "running":
            break
        asyncio.run(live.run(max_batches=2))
        for games in (shared, alone):
            whole = sessions.rebuild(store, gid)[1]
            cached = games.game(gid)
            assert cached.spectator_view(False) == whole.spectator_view(False), step
            assert [games.private_facts(gid, s) for s in ("p1", "p4")] == [
                Games(store).private_facts(gid, s) for s in ("p1", "p4")
            ]
    assert store.get_game(gid).status == "finished"
    assert shared.game(gid).is_terminal() and alone.game(gid).is_terminal()
    # Advanced, not replayed: one replay from the opening, one rebuild at the end.
    assert shared.applied > 10 and shared.replays == 2

    # A live game whose stored events run ahead of the actions read (as when the host
    # commits between a page's two reads): the page leaves them as they are.
    live2 = sessions.start(store, "werewolf", players=6, seed=3, options={}, plan=plan)
    asyncio.run(live2.run(max_batches=2))
    stored = store.events(live2.game_id)
    ahead = stored[-1].model_copy(update={"seq": stored[-1].seq + 1, "text": "committed meanwhile"})
    store.record_events(live2.game_id, [ahead])
    Games(store).game(live2.game_id)
    assert store.events(live2.game_id) == [*stored, ahead]
