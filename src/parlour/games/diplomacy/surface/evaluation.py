"""Diplomacy evaluation: bot A against bot B, one power against six and six against one.

``run_eval`` plays N games where A holds one power and B the other six, and N games
where B holds one power and A the six; game i gives the single seat the power i % 7.
Every game is a normal stored game (through the runtime's session and seating, so any
seat spec works: scripted policies, random, model specs). The report is A's share of
the 34 centres at the end (per power A played, so parity is 1/7 in both modes) with a
95% CI, solo wins, eliminations, a per-power breakdown and A's share by year.

No CLI code here (see ``eval_cli``); workers are separate processes, each with
its own Store on the same SQLite file (WAL + busy timeout make that safe).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Any, Literal

from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.core.module import GameModule
from parlour.core.rng import hash_seed
from parlour.core.stats import MeanCI, share_ci
from parlour.games.diplomacy.bot_protocol import declared_threats
from parlour.games.diplomacy.game import DiplomacyGame
from parlour.games.diplomacy.guards import violations
from parlour.games.diplomacy.map import load_map
from parlour.games.diplomacy.metrics import conduct
from parlour.games.diplomacy.personas import PERSONAS
from parlour.games.registry import load as load_game
from parlour.runtime import session as sessions
from parlour.runtime.databases import worker_store
from parlour.runtime.llm_seating import LlmFactory
from parlour.runtime.seating import HumanSpec, is_model, module_spec
from parlour.runtime.store import Store

GAME = "diplomacy"
Mode = Literal["1v6", "6v1"]
MODES: tuple[Mode, ...] = ("1v6", "6v1")


@dataclass(frozen=True)
class EvalParams:
    bot: str  # A: the bot under test
    vs: str  # B: the opponents
    games: int  # per mode
    end_year: int = 1910
    seed: int = 0
    jobs: int = 1
    db_url: str = ""
    base_url: str | None = None
    options: dict[str, Any] = field(default_factory=dict)  # more game settings
    modes: tuple[Mode, ...] = MODES  # which of 1v6 / 6v1 to play

    def public(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k not in ("db_url", "base_url")}


@dataclass(frozen=True)
class GameTask:
    mode: Mode
    index: int
    power: str  # the power of the single seat
    seed: int


@dataclass(frozen=True)
class GameOutcome:
    task: GameTask
    game_id: str
    a_powers: tuple[str, ...]
    centres: dict[str, int]
    #: centre counts at the start and after every year: [(year, {power: n})]
    by_year: list[tuple[int, dict[str, int]]]
    winner: str | None
    eliminated: tuple[str, ...]
    seconds: float
    #: "never stupid" counts (``guards.violations``) in the orders A's / B's powers
    #: submitted, and corrections the guards made to A's bot plans before submission
    stupid_a: int = 0
    stupid_b: int = 0
    guard_fixes_a: int = 0
    #: A's own order sets (bot plans and finalise answers) and those that, as answered,
    #: broke a never-stupid rule the guards then repaired
    own_sets_a: int = 0
    stupid_sets_a: int = 0
    #: A's model calls: movement phases played, input+output tokens, latency (seconds)
    a_phases: int = 0
    a_tokens: int = 0
    a_latency_s: float = 0.0
    #: A's conduct summed over its powers (``metrics.conduct``: deals judged and broken,
    #: supports, attacks, movement orders, proposals, messages, ...)
    conduct_a: dict[str, float] = field(default_factory=dict)

    def share_of(self, powers: Sequence[str], counts: dict[str, int] | None = None) -> float:
        """Mean per-power share of the centres (parity: 1 / number of powers)."""
        counts = self.centres if counts is None else counts
        return sum(counts.get(p, 0) for p in powers) / _TOTAL / len(powers)

    @property
    def a_share(self) -> float:
        return self.share_of(self.a_powers)


# The standard map's centre count; checked against the map when a run starts.
_TOTAL = 34


def module() -> GameModule:
    """Diplomacy as installed (found by name, so worker processes find it too)."""
    return load_game("diplomacy")


def powers() -> tuple[str, ...]:
    return load_map("standard").powers


def plan_tasks(games: int, seed: int, modes: Sequence[Mode] = MODES) -> list[GameTask]:
    all_powers = powers()
    return [
        GameTask(mode, i, all_powers[i % len(all_powers)], hash_seed(seed, f"{mode}:{i}") % 10**9)
        for mode in MODES
        if mode in modes
        for i in range(games)
    ]


def check_specs(params: EvalParams, store: Store) -> None:
    """Fail before any game is stored: no human seats; model specs resolve and answer."""
    mod = module()
    specs = [module_spec(s, mod) for s in (params.bot, params.vs)]
    if any(isinstance(spec, HumanSpec) for spec in specs):
        raise ParlourError(
            f"a human cannot sit through an evaluation; use `{command('play diplomacy')}` to play"
        )
    models = [spec for spec in specs if is_model(spec)]
    if models:
        LlmFactory(store=store, base_url=params.base_url).check(models)
    if params.games < 1:
        raise ParlourError("--games must be at least 1")


@cache
def _worker_llm(url: str, base_url: str | None) -> LlmFactory:
    # One factory per process: it keeps one backend per model spec (a local model loads once).
    return LlmFactory(store=worker_store(url), base_url=base_url)


def play_task(task: GameTask, params: EvalParams) -> GameOutcome:
    """Play and store one game; runs in a worker process (or in-process for jobs=1)."""
    started = time.perf_counter()
    store = worker_store(params.db_url)
    single, rest = (params.bot, params.vs) if task.mode == "1v6" else (params.vs, params.bot)
    planned = sessions.plan(
        store,
        GAME,
        seed=task.seed,
        options={**params.options, "end_year": params.end_year},
        model=rest,
        system_model="scripted",
        seats={task.power: single},
        llm=_worker_llm(params.db_url, params.base_url),
        probe=False,  # checked once by ``prepare``
    )
    session = sessions.start_planned(store, planned)
    result = asyncio.run(session.run())
    game = session.game
    assert isinstance(game, DiplomacyGame) and result is not None
    all_powers = game.board.game_map.powers
    a_powers = (
        (task.power,) if task.mode == "1v6" else tuple(p for p in all_powers if p != task.power)
    )
    counts = game.board.centre_counts()
    stupid = never_stupid(game)
    a_calls = [c for c in store.calls(session.game_id) if c.seat in a_powers]
    return GameOutcome(
        task=task,
        game_id=session.game_id,
        a_powers=a_powers,
        centres={p: counts.get(p, 0) for p in all_powers},
        by_year=[(y, dict(c)) for y, c in game.state.centre_history],
        winner=result.winners[0] if result.winners else None,
        eliminated=tuple(game.state.eliminated),
        seconds=time.perf_counter() - started,
        stupid_a=sum(n for p, n in stupid.items() if p in a_powers),
        stupid_b=sum(n for p, n in stupid.items() if p not in a_powers),
        guard_fixes_a=sum(
            sum(m.guards.values()) for p, m in game.state.bots.items() if p in a_powers
        ),
        own_sets_a=sum(m.own_sets for p, m in game.state.bots.items() if p in a_powers),
        stupid_sets_a=sum(m.stupid_sets for p, m in game.state.bots.items() if p in a_powers),
        a_phases=sum(1 for r in game.state.history if r.phase.endswith("M")),
        a_tokens=sum(c.input_tokens + c.output_tokens for c in a_calls),
        a_latency_s=sum(c.latency_s for c in a_calls),
        conduct_a=_summed(conduct(game), a_powers),
    )


def _summed(per_power: dict[str, dict[str, float]], powers: Sequence[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for p in powers:
        for k, v in per_power.get(p, {}).items():
            out[k] = out.get(k, 0.0) + v
    return out


def never_stupid(game: Any) -> dict[str, int]:
    """Per power, the never-stupid rules its submitted movement orders broke over the
    game (``guards.violations`` on the board they were given on; a bot's recorded
    threats count for the open-home rule). Target for a bot: 0."""
    out: dict[str, int] = {}
    for record in game.state.history:
        board = game.board_at(record.phase)
        if not record.phase.endswith("M") or board is None:
            continue
        for power, texts in record.orders:
            orders = {" ".join(t.split()[:2]): t for t in texts}
            memory = game.state.bots.get(power)
            threats = declared_threats(memory, board) if memory is not None else {}
            out[power] = out.get(power, 0) + len(violations(board, power, orders, threats))
    return out


def play_all(
    params: EvalParams,
    tasks: Sequence[GameTask],
    on_done: Callable[[GameOutcome], None] | None = None,
) -> list[GameOutcome]:
    """Every task, in ``params.jobs`` worker processes; outcomes in task order."""
    done: list[GameOutcome] = []
    if params.jobs <= 1:
        for task in tasks:
            done.append(play_task(task, params))
            if on_done:
                on_done(done[-1])
    else:
        # spawn: a clean interpreter per worker (no inherited engine or open connections).
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=params.jobs, mp_context=ctx) as pool:
            futures = [pool.submit(play_task, task, params) for task in tasks]
            for future in as_completed(futures):
                done.append(future.result())
                if on_done:
                    on_done(done[-1])
    order = {(t.mode, t.index): n for n, t in enumerate(tasks)}
    return sorted(done, key=lambda o: order[(o.task.mode, o.task.index)])


# --- the report ---------------------------------------------------------------------------


def _ci(values: Sequence[float]) -> dict[str, float | int | None]:
    """A mean share with its 95% Wilson interval (within 0-100%, also for one game)."""
    ci: MeanCI = share_ci(values)
    return {"mean": ci.mean, "low": ci.low, "high": ci.high, "n": ci.n}


def _by_year(outcomes: Sequence[GameOutcome], end_year: int) -> dict[str, list[Any]]:
    """A's mean per-power share at the start and after every year (carried past a solo)."""
    if not outcomes:
        return {"years": [], "mean": [], "low": [], "high": []}
    first = min(y for o in outcomes for y, _ in o.by_year)
    years = list(range(first, end_year + 1))
    out: dict[str, list[Any]] = {"years": years, "mean": [], "low": [], "high": []}
    for year in years:
        values = []
        for o in outcomes:
            counts = o.by_year[0][1]
            for y, c in o.by_year:
                if y <= year:
                    counts = c
            values.append(o.share_of(o.a_powers, counts))
        ci = _ci(values)
        out["mean"].append(ci["mean"])
        out["low"].append(ci["low"])
        out["high"].append(ci["high"])
    return out


def _mode_summary(mode: Mode, outcomes: Sequence[GameOutcome], parity: float) -> dict[str, Any]:
    shares = [o.a_share for o in outcomes]
    share = _ci(shares)
    low = share["low"]
    per_power: dict[str, dict[str, Any]] = {}
    for power in powers():
        mine = [o for o in outcomes if o.task.power == power]
        if not mine:
            continue
        single = [o.centres.get(power, 0) / _TOTAL for o in mine]
        per_power[power] = {
            "games": len(mine),
            # 1v6: A's share as this power; 6v1: A's per-power share against B as this power.
            "a_share": sum(o.a_share for o in mine) / len(mine),
            "single_seat_share": sum(single) / len(single),
        }
    return {
        "mode": mode,
        "games": len(outcomes),
        "a_share": share,
        "above_parity": low is not None and low > parity,
        "below_parity": share["high"] is not None and float(share["high"] or 0) < parity,
        "solo_wins_a": sum(1 for o in outcomes if o.winner in o.a_powers),
        "solo_wins_b": sum(1 for o in outcomes if o.winner and o.winner not in o.a_powers),
        "a_eliminations": sum(len(set(o.eliminated) & set(o.a_powers)) for o in outcomes),
        "b_eliminations": sum(len(set(o.eliminated) - set(o.a_powers)) for o in outcomes),
        "per_power": per_power,
        "mean_seconds": sum(o.seconds for o in outcomes) / max(len(outcomes), 1),
        # never stupid, per game: rules broken in submitted orders (A: target 0) and
        # corrections the guards made to A's plans; B's count is for reference
        "stupid_a_per_game": _per_game(outcomes, "stupid_a"),
        "stupid_b_per_game": _per_game(outcomes, "stupid_b"),
        "guard_fixes_a_per_game": _per_game(outcomes, "guard_fixes_a"),
        "stupid_a_games": [o.stupid_a for o in outcomes],
        # never stupid BEFORE the guards: A's own order sets that broke a rule as answered
        "own_sets_a": sum(o.own_sets_a for o in outcomes),
        "stupid_sets_a": sum(o.stupid_sets_a for o in outcomes),
        # cost and latency per movement phase of A's model calls (0 for scripted bots)
        "a_tokens_per_phase": sum(o.a_tokens for o in outcomes)
        / max(sum(o.a_phases for o in outcomes), 1),
        "a_latency_per_phase": sum(o.a_latency_s for o in outcomes)
        / max(sum(o.a_phases for o in outcomes), 1),
        # A's conduct (docs/diplomacy-bot.md, Personas): rates over the mode's games
        "conduct_a": _conduct(outcomes),
    }


def _conduct(outcomes: Sequence[GameOutcome]) -> dict[str, float | None]:
    total: dict[str, float] = {}
    for o in outcomes:
        for k, v in o.conduct_a.items():
            total[k] = total.get(k, 0.0) + v

    def ratio(num: str, den: str) -> float | None:
        d = total.get(den, 0.0)
        return total.get(num, 0.0) / d if d else None

    return {
        "betrayal_rate": ratio("deals_broken", "deals_judged"),
        "support_rate": ratio("supports", "move_orders"),
        "attack_rate": ratio("attacks", "move_orders"),
        "lies_per_phase": ratio("lies", "move_phases"),
        "proposals_per_phase": ratio("proposals", "move_phases"),
        **total,
    }


def _per_game(outcomes: Sequence[GameOutcome], name: str) -> float:
    return sum(float(getattr(o, name)) for o in outcomes) / max(len(outcomes), 1)


def summarise(params: EvalParams, outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    parity = 1 / len(powers())
    modes = {m: [o for o in outcomes if o.task.mode == m] for m in MODES}
    return {
        "game": GAME,
        "params": params.public(),
        "parity": parity,
        "total_centres": _TOTAL,
        "modes": {m: _mode_summary(m, os, parity) for m, os in modes.items() if os},
        "overall": {
            "games": len(outcomes),
            "a_share": _ci([o.a_share for o in outcomes]),
        },
        "by_year": {m: _by_year(os, params.end_year) for m, os in modes.items() if os},
        "games": [
            {
                "game_id": o.game_id,
                "mode": o.task.mode,
                "index": o.task.index,
                "power": o.task.power,
                "seed": o.task.seed,
                "a_share": o.a_share,
                "winner": o.winner,
                "centres": o.centres,
            }
            for o in outcomes
        ],
    }


@dataclass(frozen=True)
class EvalRun:
    run_id: str
    summary: dict[str, Any]
    outcomes: list[GameOutcome]


def prepare(params: EvalParams) -> EvalParams:
    """Validate before anything is stored: seat specs, model endpoints, the database."""
    store = Store(params.db_url or None)
    params = EvalParams(**{**asdict(params), "db_url": store.url})
    check_specs(params, store)
    module().make_config(None, {**params.options, "end_year": params.end_year})
    if _standard_total() != _TOTAL:  # pragma: no cover - the standard map has 34 centres
        raise ParlourError(f"expected {_TOTAL} supply centres on the standard map")
    return params


def run_eval(
    params: EvalParams,
    on_done: Callable[[GameOutcome], None] | None = None,
    *,
    prepared: bool = False,
) -> EvalRun:
    """Play every game and store the summary with ``record_eval`` (``prepare`` first,
    unless the caller already did)."""
    if not prepared:
        params = prepare(params)
    store = Store(params.db_url)
    started = time.perf_counter()
    outcomes = play_all(params, plan_tasks(params.games, params.seed, params.modes), on_done)
    summary = summarise(params, outcomes)
    summary["seconds"] = time.perf_counter() - started
    run_id = store.record_eval(GAME, params.public(), summary)
    summary["run_id"] = run_id
    return EvalRun(run_id, summary, outcomes)


def persona_variants(bot: str) -> list[tuple[str, str]]:
    """``bot[(...)]:INNER`` persona-free and once per persona: (label, seat spec), so the
    harness measures a persona's effect instead of assuming it."""
    match = re.fullmatch(r"bot(?:\((?P<opts>[^)]*)\))?:(?P<inner>.+)", bot.strip())
    if match is None:
        raise ParlourError(f"--personas needs a bot spec, bot[(...)]:SPEC, got '{bot}'")
    opts = [o for o in (match["opts"] or "").split(",") if o and not o.startswith("persona=")]
    inner = match["inner"]

    def spec(extra: list[str]) -> str:
        return f"bot({','.join(extra)}):{inner}" if extra else f"bot:{inner}"

    return [("persona-free", spec(opts))] + [
        (name, spec([f"persona={name}", *opts])) for name in PERSONAS
    ]


def _standard_total() -> int:
    return len(load_map("standard").supply_centres)
