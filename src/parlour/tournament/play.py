"""Playing one scheduled game, in whatever process or Ray worker runs it.

``play_job`` is idempotent per scheduled game: if the game was already started (a worker
was lost, or the tournament was interrupted) it is resumed from its stored actions; if
it already finished, its outcome is read back by replaying it. The stored game's id is
written before the first action, so nothing a worker did is ever played twice.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from functools import cache
from typing import Any

from parlour.core.game import Game, Result
from parlour.runtime import session as sessions
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


@cache
def _store(url: str) -> Store:
    return Store(url)  # one per process and database, reused by its games


@cache
def _llm(url: str, base_url: str | None) -> LlmFactory:
    return LlmFactory(store=_store(url), base_url=base_url)  # a local model loads once


def _start(job: GameJob, store: Store) -> sessions.Session:
    game_id = storage.game_id_of(store, job.tournament_id, job.idx)
    llm = _llm(job.db_url, job.base_url)
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


def play_job(job: GameJob) -> dict[str, Any]:
    """Play (or finish) one scheduled game; its outcome as JSON-ready data."""
    started = time.perf_counter()
    store = _store(job.db_url)
    session = _start(job, store)
    result = session.game.result() or asyncio.run(session.run())
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
