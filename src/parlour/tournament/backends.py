"""Where games run: inline, in worker processes, or as Ray tasks.

Each backend keeps at most ``width`` games in flight and hands back outcomes as they
finish, so the caller records each one at once and can stop submitting (a budget cap)
without abandoning games already running. Ray is imported only here, only when asked.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from parlour.core.commands import checkout, pip_install
from parlour.core.errors import ParlourError
from parlour.tournament.play import GameJob, play_job

Outcome = dict[str, Any]


def run_inline(jobs: Sequence[GameJob], keep_going: Callable[[], bool]) -> Iterator[Outcome]:
    for job in jobs:
        if not keep_going():
            return
        yield play_job(job)


def run_processes(
    jobs: Sequence[GameJob], width: int, keep_going: Callable[[], bool]
) -> Iterator[Outcome]:
    # spawn: a clean interpreter per worker (no inherited engine or open connections).
    ctx = multiprocessing.get_context("spawn")
    queue = list(reversed(jobs))
    with ProcessPoolExecutor(max_workers=width, mp_context=ctx) as pool:
        running: set[Future[Outcome]] = set()
        while queue or running:
            while queue and len(running) < width and keep_going():
                running.add(pool.submit(play_job, queue.pop()))
            if not running:
                return
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()


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
    jobs: Sequence[GameJob], width: int, keep_going: Callable[[], bool]
) -> Iterator[Outcome]:
    """One Ray task per game. ``max_retries``: a task whose worker died is run again, and
    ``play_job`` resumes the game from its stored actions (the database is the truth)."""
    import ray

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


def ray_width() -> int:
    import ray

    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    return max(1, int(resources.get("CPU", 1)))
