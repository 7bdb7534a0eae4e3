"""``parlour serve --workers 2 --db postgresql://...``: two processes, one database.

The real command runs as a subprocess; the two workers share one port, and the kernel
spreads new connections among them. Every request below opens a new connection, and
the ``X-Parlour-Worker`` header says which worker answered: the test goes on until
both workers have served the person's pages, so a game created through one worker is
played (questions read, answers posted) and watched through the other, with the game
run by whichever worker holds its lease.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import httpx
import pytest

from tests.support.postgres import postgres_server, postgres_url  # noqa: F401
from tests.support.processes import stop
from tests.web.browser import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def served(postgres_url: str, tmp_path: Path) -> Iterator[str]:  # noqa: F811
    yield from _serve(postgres_url, tmp_path)


def _serve(url: str, tmp_path: Path) -> Iterator[str]:
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    # An open table: the test sets a seed, as only the owner may on a guarded host.
    command = [sys.executable, "-m", "parlour", "serve", "--workers", "2", "--open"]
    proc = subprocess.Popen(
        [*command, "--port", str(port), "--db", url],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        seen: set[str] = set()
        deadline = time.monotonic() + 120
        while len(seen) < 2:  # both workers up and answering
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "the workers did not start"
            try:
                seen.add(_get(base, "/").headers["x-parlour-worker"])
            except httpx.TransportError:
                time.sleep(0.5)
        yield base
    finally:
        stop(proc, group=True)


def _get(base: str, path: str) -> httpx.Response:
    # A new client per request: a new connection, which either worker may accept.
    with httpx.Client(base_url=base, timeout=30) as c:
        return c.get(path)


def _post(base: str, path: str, data: dict[str, str]) -> httpx.Response:
    with httpx.Client(base_url=base, timeout=30, headers={"origin": base}) as c:
        return c.post(path, data=data)


def test_a_game_created_on_one_worker_is_played_and_watched_through_the_other(
    served: str,
) -> None:
    base = served
    creator, room, game_id = _create(base, seed=3)
    served_by: dict[str, set[str]] = {"read": set(), "act": set()}
    answered = 0
    deadline = time.monotonic() + 180
    while (step := _answer(base, room, served_by)) != "over":
        assert time.monotonic() < deadline, f"the game did not end; answered {answered}"
        answered += step == "answered"
    assert answered >= 2
    others = {w for w in served_by["read"] | served_by["act"] if w != creator}
    assert others, f"every request landed on {creator}; cannot show cross-worker play"

    # Watched through either worker: the same public log, ending with the result.
    logs = {}
    for _ in range(20):
        r = _get(base, f"/watch/{game_id}")
        logs[r.headers["x-parlour-worker"]] = re.findall(r'data-seq="(\d+)"', r.text)
        if len(logs) == 2:
            break
    assert len(logs) == 2, f"only {set(logs)} answered the spectator page"
    first, second = logs.values()
    assert first == second and first
    # And the live stream of a finished game says so, through whichever worker.
    with (
        httpx.Client(base_url=base, timeout=30) as c,
        c.stream("GET", f"/watch/{game_id}/events") as stream,
    ):
        kinds = [
            line.removeprefix("event: ").strip()
            for line in stream.iter_lines()
            if line.startswith("event:")
        ]
    assert kinds[-1] == "end" and "line" in kinds, kinds


def _create(base: str, seed: int) -> tuple[str, str, str]:
    """Create a six-seat werewolf game, p1 a person and the rest scripted; return the
    worker that created it, the person's room and the game's id."""
    form = {"game": "werewolf", "players": "6", "seed": str(seed), "options": "", "scenario": ""}
    for seat in ("p1", "p2", "p3", "p4", "p5", "p6"):
        form[f"seat.{seat}"] = "person" if seat == "p1" else "scripted"
    made = _post(base, "/create", form)
    assert made.status_code == 200, made.text
    play = re.search(r'class="join-link" data-name="[^"]+" href="(/play/[^"]+)"', made.text)
    game = re.search(r'id="watch-link" href="/watch/([^"]+)"', made.text)
    assert play and game
    return made.headers["x-parlour-worker"], play.group(1), game.group(1)


def _answer(
    base: str, room: str, served_by: dict[str, set[str]] | None = None
) -> Literal["over", "waiting", "answered"]:
    """Answer the person's open question, if any: "over" once the game is over, "waiting"
    while there is nothing to answer. ``served_by`` collects the workers that served the
    question ("read") and took the answer ("act")."""
    page = _get(base, room + "/decision")
    assert page.status_code == 200, page.text
    if served_by is not None:
        served_by["read"].add(page.headers["x-parlour-worker"])
    if "The game is over" in page.text:
        return "over"
    found = re.search(r'name="decision_id" value="([^"]+)"', page.text)
    if found is None:
        time.sleep(0.1)
        return "waiting"
    answer = {"decision_id": found.group(1)}
    option = re.search(r'name="option" value="([^"]+)"', page.text)
    if option:
        answer["option"] = option.group(1)
    else:
        answer["text"] = "Still here."
    posted = _post(base, room + "/act", answer)
    assert posted.status_code in (200, 422), posted.text
    if served_by is not None:
        served_by["act"].add(posted.headers["x-parlour-worker"])
    return "answered"


def test_a_killed_worker_s_game_goes_on_and_the_person_s_page_keeps_working(
    postgres_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    from parlour.runtime.store import Store

    base = next(served_gen := _serve(postgres_url, tmp_path))
    try:
        _, room, game_id = _create(base, seed=4)
        store = Store(postgres_url)
        leases = store.leases.holder("observer", 10.0)
        # Play until the game is well under way, then kill the worker running it.
        deadline = time.monotonic() + 120
        while len(store.actions(game_id)) < 3:
            assert time.monotonic() < deadline, "the game did not start"
            assert _answer(base, room) != "over", "the game ended before the kill"
        lease = leases.get(game_id)
        assert lease is not None and lease.worker, lease
        holder = lease.worker
        pid = int(holder.rsplit(":", 1)[1])  # worker names end with the process id
        os.kill(pid, signal.SIGKILL)
        killed_at = len(store.actions(game_id))
        # The person goes on through the same link; the other worker claims the game
        # when the dead one's lease expires, and it is played to its end.
        deadline = time.monotonic() + 240
        over = False
        while not over:
            assert time.monotonic() < deadline, "the game did not go on after the kill"
            try:
                over = _answer(base, room) == "over"
            except httpx.TransportError:
                time.sleep(0.2)  # a connection queued at the dead worker's socket
        assert store.get_game(game_id).status == "finished"
        assert len(store.actions(game_id)) > killed_at
        survivor = _get(base, "/").headers["x-parlour-worker"]
        assert survivor != holder
        watched = _get(base, f"/watch/{game_id}")
        assert watched.status_code == 200 and "finished" in watched.text
        store.close()
    finally:
        served_gen.close()
