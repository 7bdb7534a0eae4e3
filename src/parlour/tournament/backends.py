"""Where games run: inline, in worker processes, or as Ray tasks or actors.

Each backend keeps a bounded number of games in flight and hands back outcomes as they
finish, so the caller records each one at once and can stop submitting (a budget cap)
without abandoning games already running. A result is ``None`` when the worker's budget
stopped that game (it stays stored where it stopped). Ray is imported only here, only
when asked.

With ``concurrency`` N > 1 each worker keeps N games in flight on one event loop
(``in_flight``): in the driver itself, in each worker process (which is handed batches
of games), or in each Ray actor (an async actor with ``max_concurrency=N``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from parlour.core.commands import checkout, pip_install
from parlour.core.errors import ParlourError
from parlour.tournament.play import GameJob, play_job, play_job_async, run_here

Outcome = dict[str, Any]
Result = Outcome | None


async def in_flight(
    jobs: Sequence[GameJob], width: int, keep_going: Callable[[], bool]
) -> AsyncIterator[Result]:
    """Up to ``width`` games at once on the running event loop, each result as its game
    ends. Each game keeps its own seeds, so results do not depend on ``width``."""
    if width == 1:  # one game at a time, alone on the loop (its store writes inline)
        for job in jobs:
            if not keep_going():
                return
            yield await play_job_async(job)
        return
    queue = list(reversed(jobs))
    running: set[asyncio.Task[Result]] = set()
    try:
        while queue or running:
            while queue and len(running) < width and keep_going():
                job = queue.pop()
                running.add(asyncio.create_task(play_job_async(job), name=f"game-{job.idx}"))
            if not running:
                return
            done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in sorted(done, key=lambda t: t.get_name()):
                yield task.result()
    finally:
        for task in running:  # the caller stopped early (an error): leave nothing behind
            task.cancel()
        if running:
            await asyncio.gather(*running, return_exceptions=True)


def play_batch(jobs: Sequence[GameJob], width: int) -> list[Result]:
    """``jobs`` with up to ``width`` in flight on one event loop (one worker process)."""

    async def every() -> list[Result]:
        return [result async for result in in_flight(jobs, width, lambda: True)]

    return run_here(every())


def run_processes(
    jobs: Sequence[GameJob],
    width: int,
    keep_going: Callable[[], bool],
    concurrency: int = 1,
) -> Iterator[Result]:
    """``width`` worker processes; with ``concurrency`` > 1 each is handed batches of
    twice that many games and keeps ``concurrency`` of them in flight."""
    # spawn: a clean interpreter per worker (no inherited engine or open connections).
    ctx = multiprocessing.get_context("spawn")
    queue = list(reversed(jobs))
    batch = 1 if concurrency == 1 else 2 * concurrency
    with ProcessPoolExecutor(max_workers=width, mp_context=ctx) as pool:
        running: set[Future[list[Result]]] = set()
        while queue or running:
            while queue and len(running) < width and keep_going():
                part = [queue.pop() for _ in range(min(batch, len(queue)))]
                running.add(pool.submit(play_batch, part, concurrency))
            if not running:
                return
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield from future.result()


def ray_init(address: str, num_cpus: int | None = None) -> None:
    """Connect to ``address`` (``local``: start a Ray instance on this machine)."""
    # Under `uv run`, Ray would start each worker through `uv run` again (its uv hook),
    # which re-resolves the project per worker; the driver's interpreter is already right.
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    try:
        import ray
    except ModuleNotFoundError:
        raise ParlourError(
            f"--ray needs Ray: {pip_install('ray' if checkout() else repr('parlour[ray]'))}"
        ) from None
    if ray.is_initialized():
        return
    if address == "local":
        ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
    else:
        ray.init(address=address, log_to_driver=False)


def run_ray(
    jobs: Sequence[GameJob],
    width: int,
    keep_going: Callable[[], bool],
    concurrency: int = 1,
) -> Iterator[Result]:
    """One Ray task per game. ``max_retries``: a task whose worker died is run again, and
    ``play_job`` resumes the game from its stored actions (the database is the truth).
    With ``concurrency`` > 1: ``width`` async actors, each playing up to ``concurrency``
    games on its event loop (restarted and retried the same way if its worker dies)."""
    import ray

    if concurrency > 1:
        yield from _run_ray_actors(jobs, width, keep_going, concurrency)
        return
    remote = ray.remote(max_retries=3, retry_exceptions=False)(play_job)
    queue = list(reversed(jobs))
    running: list[Any] = []
    while queue or running:
        while queue and len(running) < width and keep_going():
            running.append(remote.remote(queue.pop()))
        if not running:
            return
        done, running = ray.wait(running, num_returns=1)
        for ref in done:
            yield ray.get(ref)


class GamePlayer:
    """A Ray actor's body: games on the actor's event loop, sharing its store, limiters
    and budget share like the games of any worker."""

    async def play(self, job: GameJob) -> Result:
        return await play_job_async(job)


def _run_ray_actors(
    jobs: Sequence[GameJob], width: int, keep_going: Callable[[], bool], concurrency: int
) -> Iterator[Result]:
    import ray

    actor = ray.remote(max_restarts=3, max_task_retries=3)(GamePlayer)
    players: list[Any] = [actor.options(max_concurrency=concurrency).remote() for _ in range(width)]
    load = [0] * width
    owner: dict[Any, int] = {}
    queue = list(reversed(jobs))
    running: list[Any] = []
    try:
        while queue or running:
            while queue and len(running) < width * concurrency and keep_going():
                k = min(range(width), key=load.__getitem__)  # the least busy actor
                ref = players[k].play.remote(queue.pop())
                owner[ref] = k
                load[k] += 1
                running.append(ref)
            if not running:
                return
            done, running = ray.wait(running, num_returns=1)
            for ref in done:
                load[owner.pop(ref)] -= 1
                yield ray.get(ref)
    finally:
        for player in players:
            ray.kill(player)


def ray_width() -> int:
    import ray

    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    return max(1, int(resources.get("CPU", 1)))
