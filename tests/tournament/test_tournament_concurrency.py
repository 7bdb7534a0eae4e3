"""Many games in flight per worker (``--concurrency``), against real HTTP on 127.0.0.1.

A local OpenAI-compatible server (``benchmarks/latency_server.py``, started here in a
thread) answers every request validly after a short latency, from the request alone; so
the same seeds must give the same results whatever the number of games in flight, with
or without a rate limit the server enforces with 429s.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.latency_server import LatencyServer
from parlour.models.base import ModelError, RateLimited
from parlour.models.limits import (
    BudgetSpent,
    CostBudget,
    LimitedBackend,
    Limiter,
    ProviderLimits,
)
from parlour.models.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    OutputSpec,
    Settings,
    Usage,
)
from parlour.runtime.store import Store, db_url
from parlour.tournament import run as runs
from parlour.tournament import storage
from parlour.tournament.play import _start, play_job, same_result

MODEL = ["m=openai:latency", "s=scripted"]
SMALL = {"players": 5}


@pytest.fixture
def server() -> Iterator[LatencyServer]:
    with LatencyServer(latency=0.05) as srv:
        yield srv


def _tournament(store: Store, base_url: str, games: int, seed: int = 21, **more: Any) -> str:
    params = runs.prepare(
        store, "werewolf", MODEL, games=games, seed=seed, options=SMALL, base_url=base_url,
        **more,
    )  # fmt: skip
    return runs.create(store, params)


def _outcomes(store: Store, tid: str) -> list[dict[str, Any]]:
    out = [g.outcome for g in storage.games(store, tid)]
    assert all(o is not None for o in out)
    return out  # type: ignore[return-value]


@pytest.mark.slow  # sixteen model games over HTTP
def test_concurrency_8_gives_the_results_of_concurrency_1(
    store: Store, server: LatencyServer
) -> None:
    one = _tournament(store, server.base_url, games=8)
    report = runs.run(store, one, concurrency=1)
    assert report.status == "finished" and report.played == 8
    alone, server.peak_in_flight = server.peak_in_flight, 0  # a game's simultaneous calls
    eight = _tournament(store, server.base_url, games=8)
    report = runs.run(store, eight, concurrency=8)
    assert report.status == "finished" and report.played == 8
    assert server.peak_in_flight > alone  # several games were waiting on the server at once
    a, b = _outcomes(store, one), _outcomes(store, eight)
    assert all(o["calls"] > 0 for o in a)  # the model really played
    for x, y in zip(a, b, strict=True):
        assert same_result(x, y), (x["idx"], x["winners"], y["winners"])
    calls = [c for g in storage.games(store, eight) for c in store.calls(g.game_id or "")]
    assert calls and all(c.outcome != "error" for c in calls)


@pytest.mark.slow  # waits out a real rate limit
def test_an_enforced_rate_limit_is_waited_out_not_failed(store: Store) -> None:
    with LatencyServer(latency=0.01) as free:
        reference = _tournament(store, free.base_url, games=3, seed=4)
        runs.run(store, reference, concurrency=3)
    with LatencyServer(latency=0.01, rpm=1200) as limited:  # 20 a second, no burst
        tid = _tournament(store, limited.base_url, games=3, seed=4)
        started = time.perf_counter()
        report = runs.run(store, tid, concurrency=3)
        seconds = time.perf_counter() - started
        assert report.status == "finished"
        assert limited.limited > 0  # the server did answer 429 ...
    calls = [c for g in storage.games(store, tid) for c in store.calls(g.game_id or "")]
    assert all(c.outcome != "error" for c in calls)  # ... and no seat ever saw one
    assert limited.answered / seconds <= 20 * 1.1 + 1  # the limit held
    for x, y in zip(_outcomes(store, reference), _outcomes(store, tid), strict=True):
        assert same_result(x, y)


def test_the_budget_stops_games_in_flight_and_is_never_overspent(
    store: Store, server: LatencyServer
) -> None:
    # a priced model name: the server answers it, the price table prices its usage
    params = runs.prepare(
        store, "werewolf", ["m=openai:gpt-4o-mini", "s=scripted"], games=4, seed=3,
        options=SMALL, base_url=server.base_url, budget=0.002,
    )  # fmt: skip
    tid = runs.create(store, params)
    report = runs.run(store, tid, concurrency=4)
    assert report.status == "stopped" and report.stopped_by_budget
    games = storage.games(store, tid)
    spent = sum(c.cost_usd for g in games if g.game_id for c in store.calls(g.game_id))
    assert 0.001 < spent <= 0.002  # it spent, and never past the budget
    stopped = [g for g in games if g.game_id and g.outcome is None]
    assert stopped  # games in flight stopped where they stood, stored for a resume
    assert all(store.get_game(g.game_id or "").status == "running" for g in stopped)
    again = runs.run(store, tid, concurrency=4)  # the same stored budget: no new game
    assert again.played == 0 and again.status == "stopped"
    after = sum(c.cost_usd for g in games if g.game_id for c in store.calls(g.game_id))
    # Calls cancelled in flight released their reservations, so what is left may pay for
    # a call or two more (how much depends on which calls were in flight), never past it.
    assert spent <= after <= 0.002


def test_resume_at_concurrency_4_plays_each_missing_game_once(store: Store) -> None:
    reference = storage.games(store, _full_scripted(store, concurrency=1))
    params = runs.prepare(store, "werewolf", ["a=scripted", "b=random"], games=6, seed=11)
    tid = runs.create(store, params)
    jobs = runs.pending_jobs(store, tid)
    storage.record_outcome(store, tid, 0, _done(play_job(jobs[0])))
    for job in jobs[1:4]:  # three games a lost worker had in flight
        session = _start(job, store)
        asyncio.run(session.run(max_batches=3))
        assert session.game.result() is None
    started = {i: storage.game_id_of(store, tid, i) for i in range(1, 4)}
    report = runs.run(store, tid, concurrency=4)
    assert report.played == 5 and report.status == "finished"
    done = storage.games(store, tid)
    assert {i: done[i].game_id for i in range(1, 4)} == started  # continued, not restarted
    for a, b in zip(reference, done, strict=True):
        assert a.outcome is not None and b.outcome is not None
        assert same_result(a.outcome, b.outcome)


def _done(outcome: dict[str, Any] | None) -> dict[str, Any]:
    assert outcome is not None
    return outcome


def _full_scripted(store: Store, concurrency: int) -> str:
    params = runs.prepare(store, "werewolf", ["a=scripted", "b=random"], games=6, seed=11)
    tid = runs.create(store, params)
    assert runs.run(store, tid, concurrency=concurrency).played == 6
    return tid


def _count(db: Path, sql: str) -> int:
    try:
        with sqlite3.connect(db) as conn:
            return int(conn.execute(sql).fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow  # kill -9 of a real tournament process
def test_kill_9_at_concurrency_4_then_resume_loses_and_repeats_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "200"}
    base = [sys.executable, "-m", "parlour", "tournament"]
    args = ["werewolf", "-e", "a=scripted", "-e", "b=random", "--games", "12", "--seed", "5"]
    whole = Store(db_url(str(tmp_path / "whole.sqlite")))
    reference = runs.create(
        whole, runs.prepare(whole, "werewolf", ["a=scripted", "b=random"], games=12, seed=5)
    )
    runs.run(whole, reference)
    killed = tmp_path / "killed.sqlite"
    proc = subprocess.Popen(
        [*base, *args, "--concurrency", "4", "--db", str(killed), "--report", str(tmp_path / "r2")],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    outcomes = "SELECT count(*) FROM tournament_games WHERE outcome IS NOT NULL"
    deadline = time.monotonic() + 120
    while _count(killed, outcomes) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    recorded = _count(killed, outcomes)
    assert 3 <= recorded < 12, "the kill came too early or too late"
    with sqlite3.connect(killed) as conn:
        (tid,) = conn.execute("SELECT id FROM tournaments").fetchone()
        before = dict(conn.execute("SELECT idx, game_id FROM tournament_games").fetchall())
        cut = conn.execute(
            "SELECT count(*) FROM tournament_games WHERE game_id IS NOT NULL AND outcome IS NULL"
        ).fetchone()[0]
    assert cut >= 1, "no game was in flight when the tournament was killed"
    again = subprocess.run(
        [*base, "resume", tid, "--concurrency", "4", "--db", str(killed),
         "--report", str(tmp_path / "r3")],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    b = Store(db_url(str(killed)))
    ga, gb = storage.games(whole, reference), storage.games(b, tid)
    for x, y in zip(ga, gb, strict=True):
        assert x.outcome is not None and y.outcome is not None
        assert same_result(x.outcome, y.outcome)
        if before.get(y.match.idx) is not None:
            assert y.game_id == before[y.match.idx]  # a started game was continued
    # no game played twice: every stored game that got past its opening is a scheduled one
    played = _count(killed, "SELECT count(DISTINCT game_id) FROM actions")
    assert played == 12 == len({g.game_id for g in gb})


# -- the limiter and the budget, without a network -----------------------------------------


class _Priced:
    """A backend that answers after a pause, at a price, or raises what it is told."""

    name = "openai"
    model_id = "openai:gpt-4o"  # priced in the built-in table
    capabilities = None

    def __init__(self, fail: list[ModelError] | None = None) -> None:
        self.fail = fail or []
        self.calls = 0

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.calls += 1
        if self.fail:
            raise self.fail.pop(0)
        await asyncio.sleep(0.01)
        usage = Usage(input_tokens=100, output_tokens=20)
        return ModelResponse(text="ok", usage=usage, model_id=self.model_id)


def _request(max_tokens: int = 50) -> ModelRequest:
    return ModelRequest(
        messages=(Message(role="user", content="x" * 300),),
        output=OutputSpec.text(),
        settings=Settings(max_tokens=max_tokens),
    )


def test_a_429_pauses_the_provider_for_its_retry_after_then_the_call_goes_through() -> None:
    inner = _Priced(fail=[RateLimited("slow", retry_after=0.2)])
    limiter = Limiter(ProviderLimits())
    backend = LimitedBackend(inner, limiter)  # type: ignore[arg-type]
    started = time.perf_counter()
    response = asyncio.run(backend.complete(_request()))
    assert response.text == "ok" and inner.calls == 2
    assert limiter.pauses == [0.2] and time.perf_counter() - started >= 0.2


def test_refusals_widen_the_learned_spacing_once_per_objection() -> None:
    """The first 429 sets the spacing from the answers' recent rate; calls refused
    together (started before that 429 was seen) widen it no further; a refusal of a call
    started after widens it by GROW; answers shrink it by SHRINK."""
    from parlour.models import limits

    now = [0.0]
    limiter = Limiter(ProviderLimits(), clock=lambda: now[0])
    for t in (1.0, 1.25, 1.5, 1.75):  # answered 4 a second
        now[0] = t
        limiter.answered()
    now[0] = 2.0
    limiter.pause(0.1, started=1.9)
    assert limiter.spacing == pytest.approx(0.25)
    for _ in range(63):  # the rest of a burst refused together
        limiter.pause(0.1, started=1.95)
    assert limiter.spacing == pytest.approx(0.25) and len(limiter.pauses) == 64
    now[0] = 3.0
    limiter.pause(0.1, started=2.5)
    assert limiter.spacing == pytest.approx(0.25 * limits.GROW)
    limiter.answered()
    assert limiter.spacing == pytest.approx(0.25 * limits.GROW * limits.SHRINK)


def test_limits_cap_calls_in_flight_and_requests_per_minute() -> None:
    limiter = Limiter(ProviderLimits(requests_per_minute=1200, in_flight=2))
    backend = LimitedBackend(_Priced(), limiter)  # type: ignore[arg-type]

    async def many() -> float:
        started = time.perf_counter()
        await asyncio.gather(*(backend.complete(_request()) for _ in range(40)))
        return time.perf_counter() - started

    seconds = asyncio.run(many())
    assert limiter.peak_in_flight == 2
    # 20 a second, a second's worth at once: the 20 after the first 20 take a second
    assert 0.95 <= seconds < 3


def test_the_budget_is_reserved_before_each_call_and_never_overspent() -> None:
    budget = CostBudget(limit_usd=0.01)
    backend = LimitedBackend(_Priced(), Limiter(ProviderLimits()), budget)  # type: ignore[arg-type]

    async def spend() -> int:
        made = 0
        try:
            while True:
                await asyncio.gather(*(backend.complete(_request()) for _ in range(4)))
                made += 4
        except BudgetSpent:
            return made

    made = asyncio.run(spend())
    assert made > 0 and budget.exhausted
    assert budget.spent_usd <= budget.limit_usd and budget.reserved_usd == pytest.approx(0.0)
    with pytest.raises(BudgetSpent):  # exhausted stays exhausted
        asyncio.run(backend.complete(_request(max_tokens=1)))


def test_bad_limits_are_one_line_errors() -> None:
    from parlour.core.errors import ParlourError

    with pytest.raises(ParlourError, match="--rpm 0"):
        runs.limits_of(requests_per_minute=0)
    with pytest.raises(ParlourError, match="--in-flight -1"):
        runs.limits_of(in_flight=-1)
