"""Playing one scheduled game, in whatever process or Ray worker runs it.

``play_job`` is idempotent per scheduled game: if the game was already started (a worker
was lost, or the tournament was interrupted) it is resumed from its stored actions; if
it already finished, its outcome is read back by replaying it. The stored game's id is
written before the first action, so nothing a worker did is ever played twice.

``play_job_async`` is the same on the caller's event loop, so one worker can keep many
games in flight: they share the worker's store, its model factory and so its
per-provider limiters and budget share (``models/limits.py``). A game the budget stops
returns ``None`` (no outcome): it stays stored where it stopped, for a resume.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

from parlour.core.game import Game, Result
from parlour.models.limits import BudgetSpent, CostBudget, ProviderLimits
from parlour.runtime import session as sessions
from parlour.runtime.databases import worker_store
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.store import Store
from parlour.tournament import storage
from parlour.tournament.metrics import metrics_for


@dataclass(frozen=True)
class GameJob:
    tournament_id: str
    idx: int
    game: str
    seed: int
    options: dict[str, Any]
    seats: dict[str, str]  # player seat → seat spec text
    db_url: str
    base_url: str | None = None
    limits: ProviderLimits = field(default_factory=ProviderLimits)
    #: The USD this worker may still spend (its share of what the tournament has left).
    budget_usd: float | None = None


@cache
def _llm(
    url: str,
    base_url: str | None,
    limits: ProviderLimits,
    tournament_id: str = "",
    budget_usd: float | None = None,
) -> LlmFactory:
    # One per process and run: a local model loads once, and the games of a worker share
    # its providers' limiters and its budget share.
    budget = CostBudget(budget_usd) if budget_usd is not None else None
    return LlmFactory(store=worker_store(url), base_url=base_url, limits=limits, budget=budget)


def factory_of(job: GameJob) -> LlmFactory:
    """The model factory (limiters, budget) the games of ``job``'s worker share."""
    return _llm(job.db_url, job.base_url, job.limits, job.tournament_id, job.budget_usd)


def _start(job: GameJob, store: Store) -> sessions.Session:
    game_id = storage.game_id_of(store, job.tournament_id, job.idx)
    llm = factory_of(job)
    if game_id is not None:
        planned = sessions.plan_resume(store, game_id, llm=llm, probe=False)
        return sessions.resume_planned(store, planned)
    planned = sessions.plan(
        store,
        job.game,
        seed=job.seed,
        options=job.options,
        model="scripted",
        system_model="scripted",
        seats=job.seats,
        llm=llm,
        probe=False,  # probed once before the tournament started
    )
    session = sessions.start_planned(store, planned)
    storage.set_game_id(store, job.tournament_id, job.idx, session.game_id)
    return session


T = TypeVar("T")
_here = threading.local()


def run_here(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` on this thread's one event loop. A worker's games share its model
    clients and limiters, whose connections and locks belong to a loop: one loop for the
    worker's life keeps them usable from game to game."""
    loop: asyncio.AbstractEventLoop | None = getattr(_here, "loop", None)
    if loop is None or loop.is_closed():
        loop = _here.loop = asyncio.new_event_loop()
    return loop.run_until_complete(work)


def play_job(job: GameJob) -> dict[str, Any] | None:
    """Play (or finish) one scheduled game; its outcome as JSON-ready data (``None``:
    the budget stopped it)."""
    return run_here(play_job_async(job))


async def play_job_async(job: GameJob) -> dict[str, Any] | None:
    """``play_job`` on the running event loop, beside the worker's other games."""
    started = time.perf_counter()
    store = worker_store(job.db_url)
    session = _start(job, store)
    try:
        result = session.game.result() or await session.run()
    except BudgetSpent:
        return None
    assert result is not None, "a tournament game runs to its end"
    return outcome(job, session.game_id, session.game, result, store, time.perf_counter() - started)


def outcome(
    job: GameJob, game_id: str, game: Game, result: Result, store: Store, seconds: float
) -> dict[str, Any]:
    players = list(job.seats)
    facts = metrics_for(job.game).facts(game, result, players)
    calls = store.calls(game_id)
    return {
        "idx": job.idx,
        "game_id": game_id,
        "winners": list(result.winners),
        "returns": dict(result.returns),
        "summary": result.summary,
        **facts.to_json(),
        "cost_usd": sum(c.cost_usd for c in calls),
        "seat_cost": {s: sum(c.cost_usd for c in calls if c.seat == s) for s in players},
        "calls": len(calls),
        "seconds": seconds,
    }


def same_result(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Equal up to what differs between runs by design (ids, timing)."""
    skip = {"game_id", "seconds"}
    return {k: v for k, v in a.items() if k not in skip} == {
        k: v for k, v in b.items() if k not in skip
    }
