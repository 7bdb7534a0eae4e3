"""Creating, running and resuming a stored tournament.

``prepare`` checks everything before anything is stored (game, entrants, models, rules);
``create`` stores the tournament and its schedule; ``run`` plays the games that have no
outcome yet (so ``resume`` is ``run`` again) and records each outcome as it arrives.

A budget cap is exact: what is left of it (outcomes and the calls of started games
counted) is shared out among the workers, and every model call reserves its worst-case
cost before it starts (``models/limits.py``). The first call that would not fit stops
its worker's games where they stand (stored, continued by a resume) and no new game is
started; the tournament is left ``stopped``. Provider limits (requests and tokens per
minute, calls in flight) are stored with the tournament and shared by all the games of
a worker.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from parlour.core.errors import ParlourError
from parlour.core.module import GameModule
from parlour.games import registry
from parlour.models.base import ModelError
from parlour.models.limits import ProviderLimits
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.seating import is_model
from parlour.runtime.store import Store
from parlour.tournament import backends, storage
from parlour.tournament.metrics import metrics_for
from parlour.tournament.play import GameJob, run_here
from parlour.tournament.schedule import Entrant, make_schedule, parse_entrant, rule_sets


@dataclass(frozen=True)
class TournamentParams:
    game: str
    entrants: tuple[Entrant, ...]
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    grid: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    budget: float | None = None
    base_url: str | None = None
    #: Per-provider limits every worker applies to its games' model calls.
    limits: ProviderLimits = field(default_factory=ProviderLimits)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["entrants"] = [asdict(e) for e in self.entrants]
        data["grid"] = {k: list(v) for k, v in self.grid.items()}
        data["limits"] = self.limits.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentParams:
        return cls(
            game=data["game"],
            entrants=tuple(Entrant(**e) for e in data["entrants"]),
            games=int(data["games"]),
            seed=int(data["seed"]),
            options=dict(data.get("options", {})),
            grid={k: tuple(v) for k, v in data.get("grid", {}).items()},
            budget=data.get("budget"),
            base_url=data.get("base_url"),
            limits=ProviderLimits.from_json(data.get("limits") or {}),
        )


def player_seats(module: GameModule, options: Mapping[str, Any]) -> list[str]:
    game = module.game.new(module.make_config(None, dict(options)), 0)
    return [s.id for s in game.seats() if not s.system]


def parse_grid(items: Sequence[str]) -> dict[str, tuple[Any, ...]]:
    """``KEY=V1,V2``; values are read as JSON when they parse (true, 3), else as text."""
    grid: dict[str, tuple[Any, ...]] = {}
    for item in items:
        key, sep, values = item.partition("=")
        if not sep or not key.strip() or not values.strip():
            raise ParlourError(
                f"bad --grid '{item}'; write KEY=V1,V2, e.g. --grid tie_rule=random,no_elimination"
            )
        grid[key.strip()] = tuple(_value(v.strip()) for v in values.split(","))
    return grid


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def prepare(
    store: Store,
    game: str,
    entrant_texts: Sequence[str],
    *,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    grid: Mapping[str, tuple[Any, ...]] | None = None,
    budget: float | None = None,
    base_url: str | None = None,
    limits: ProviderLimits | None = None,
) -> TournamentParams:
    """Validated parameters: nothing is stored until every check passed. A one-entrant
    tournament is a balance check: it crosses the game's registered rule variants."""
    module = registry.load(game)
    if not entrant_texts:
        raise ParlourError("give at least one --entrant NAME=SPEC, e.g. --entrant a=scripted")
    parsed = [parse_entrant(t, module) for t in entrant_texts]
    if grid is None:
        grid = dict(metrics_for(game).balance_grid) if len(parsed) == 1 else {}
    if budget is not None and budget <= 0:
        raise ParlourError(f"--budget {budget}: give a positive amount in USD, e.g. --budget 5")
    params = TournamentParams(
        game=game,
        entrants=tuple(e for e, _ in parsed),
        games=games,
        seed=seed,
        options=dict(options or {}),
        grid=dict(grid),
        budget=budget,
        base_url=base_url,
        limits=limits or ProviderLimits(),
    )
    seats = player_seats(module, params.options)
    for match in make_schedule(seats, params.entrants, 1, seed, params.grid, params.options):
        module.make_config(None, match.options)  # every rule set is valid (one-line error)
    models = [spec for _, spec in parsed if is_model(spec)]
    if models:
        LlmFactory(store=store, base_url=base_url).check(models)
    return params


def rule_sets_of(params: TournamentParams) -> list[dict[str, Any]]:
    return rule_sets(params.grid)


def create(store: Store, params: TournamentParams) -> str:
    module = registry.load(params.game)
    seats = player_seats(module, params.options)
    matches = make_schedule(
        seats, params.entrants, params.games, params.seed, params.grid, params.options
    )
    return storage.create(store, params.game, params.to_json(), matches)


@dataclass(frozen=True)
class RunReport:
    played: int
    cost_usd: float
    stopped_by_budget: bool
    status: str


def limits_of(
    requests_per_minute: float | None = None,
    tokens_per_minute: float | None = None,
    in_flight: int | None = None,
) -> ProviderLimits:
    """The CLI's ``--rpm``, ``--tpm`` and ``--in-flight``, checked (one-line errors)."""
    try:
        return ProviderLimits(requests_per_minute, tokens_per_minute, in_flight)
    except ModelError as err:
        raise ParlourError(str(err)) from err


def pending_jobs(store: Store, tid: str, budget_share: float | None = None) -> list[GameJob]:
    """Every scheduled game without an outcome; ``budget_share``: the USD each worker may
    spend (``None``: no budget)."""
    row = storage.get(store, tid)
    params = TournamentParams.from_json(row.params)
    specs = {e.name: e.spec for e in params.entrants}
    return [
        GameJob(
            tournament_id=tid,
            idx=g.match.idx,
            game=params.game,
            seed=g.match.seed,
            options=g.match.options,
            seats={seat: specs[name] for seat, name in g.match.seating.items()},
            db_url=store.url,
            base_url=params.base_url,
            limits=params.limits,
            budget_usd=budget_share,
        )
        for g in storage.games(store, tid)
        if g.outcome is None
    ]


def spent(store: Store, tid: str) -> float:
    """USD of the games with an outcome."""
    return sum(float(g.outcome["cost_usd"]) for g in storage.games(store, tid) if g.outcome)


def spent_in_progress(store: Store, tid: str) -> float:
    """USD of the stored calls of games started but without an outcome (interrupted)."""
    return sum(
        c.cost_usd
        for g in storage.games(store, tid)
        if g.outcome is None and g.game_id is not None
        for c in store.calls(g.game_id)
    )


def run(
    store: Store,
    tid: str,
    *,
    jobs: int = 1,
    ray: str | None = None,
    concurrency: int = 1,
    on_done: Callable[[dict[str, Any], float], None] | None = None,
) -> RunReport:
    """Play every game without an outcome, up to ``concurrency`` at once per worker;
    ``on_done(outcome, cost so far)`` after each."""
    if concurrency < 1:
        raise ParlourError(f"--concurrency {concurrency}: give at least 1, e.g. --concurrency 8")
    params = TournamentParams.from_json(storage.get(store, tid).params)
    cost = spent(store, tid)
    budget = params.budget
    width = 1
    if ray is not None:
        backends.ray_init(ray)
        width = backends.ray_width()
    elif jobs > 1:
        width = jobs
    share = None
    if budget is not None:
        share = max(0.0, budget - cost - spent_in_progress(store, tid)) / width
    todo = pending_jobs(store, tid, share)
    storage.set_status(store, tid, "running")
    played = 0
    stopped = False  # a worker's budget share stopped a game

    def keep_going() -> bool:
        return not stopped and (budget is None or cost < budget)

    def record(result: dict[str, Any] | None) -> None:
        nonlocal played, cost, stopped
        if result is None:
            stopped = True
            return
        storage.record_outcome(store, tid, int(result["idx"]), result)
        played += 1
        cost += float(result["cost_usd"])
        if on_done is not None:
            on_done(result, cost)

    if ray is not None:
        for result in backends.run_ray(todo, width, keep_going, concurrency):
            record(result)
    elif jobs > 1:
        for result in backends.run_processes(todo, jobs, keep_going, concurrency):
            record(result)
    else:

        async def drive() -> None:
            async for result in backends.in_flight(todo, concurrency, keep_going):
                record(result)

        run_here(drive())
    left = len(todo) - played
    status = "finished" if left == 0 else "stopped"
    storage.set_status(store, tid, status)
    return RunReport(played, cost, left > 0 and (stopped or not keep_going()), status)
