"""Creating, running and resuming a stored tournament.

``prepare`` checks everything before anything is stored (game, entrants, models, rules);
``create`` stores the tournament and its schedule; ``run`` plays the games that have no
outcome yet (so ``resume`` is ``run`` again) and records each outcome as it arrives. A
budget cap stops submitting new games once the running cost reaches it; games already
running finish and are recorded, and the tournament is left ``stopped`` for a resume.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from parlour.core.errors import ParlourError
from parlour.core.module import GameModule
from parlour.games import registry
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.seating import is_model
from parlour.runtime.store import Store
from parlour.tournament import backends, storage
from parlour.tournament.metrics import metrics_for
from parlour.tournament.play import GameJob
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

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["entrants"] = [asdict(e) for e in self.entrants]
        data["grid"] = {k: list(v) for k, v in self.grid.items()}
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


def pending_jobs(store: Store, tid: str) -> list[GameJob]:
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
        )
        for g in storage.games(store, tid)
        if g.outcome is None
    ]


def spent(store: Store, tid: str) -> float:
    return sum(float(g.outcome["cost_usd"]) for g in storage.games(store, tid) if g.outcome)


def run(
    store: Store,
    tid: str,
    *,
    jobs: int = 1,
    ray: str | None = None,
    on_done: Callable[[dict[str, Any], float], None] | None = None,
) -> RunReport:
    """Play every game without an outcome; ``on_done(outcome, cost so far)`` after each."""
    params = TournamentParams.from_json(storage.get(store, tid).params)
    todo = pending_jobs(store, tid)
    cost = spent(store, tid)
    budget = params.budget
    storage.set_status(store, tid, "running")

    def keep_going() -> bool:
        return budget is None or cost < budget

    if ray is not None:
        backends.ray_init(ray)
        stream = backends.run_ray(todo, backends.ray_width(), keep_going)
    elif jobs > 1:
        stream = backends.run_processes(todo, jobs, keep_going)
    else:
        stream = backends.run_inline(todo, keep_going)
    played = 0
    for outcome in stream:
        storage.record_outcome(store, tid, int(outcome["idx"]), outcome)
        played += 1
        cost += float(outcome["cost_usd"])
        if on_done is not None:
            on_done(outcome, cost)
    left = len(todo) - played
    status = "finished" if left == 0 else "stopped"
    storage.set_status(store, tid, status)
    return RunReport(played, cost, left > 0 and not keep_going(), status)
