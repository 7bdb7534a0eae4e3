"""Starting, resuming and running one stored game: where games, seats and storage meet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from parlour.core.errors import ParlourError
from parlour.core.game import Game, Result
from parlour.core.module import GameModule
from parlour.games import registry
from parlour.runtime.runner import Observer, Runner
from parlour.runtime.seating import LlmSeatFactory, SeatPlan, build_seat
from parlour.runtime.store import Store
from parlour.seats.base import Seat
from parlour.seats.human import HumanSeat


@dataclass
class Session:
    game_id: str
    game_name: str
    module: GameModule
    game: Game
    seat_specs: dict[str, str]
    runner: Runner

    async def run(self, max_batches: int | None = None) -> Result | None:
        return await self.runner.run(max_batches)


def _seats(
    module: GameModule,
    game: Game,
    specs: dict[str, str],
    llm_factory: LlmSeatFactory | None,
    human: HumanSeat | None,
    game_id: str,
) -> dict[str, Seat]:
    return {
        info.id: build_seat(specs[info.id], info, module, game.seed, llm_factory, human, game_id)
        for info in game.seats()
    }


def start(
    store: Store,
    game_name: str,
    *,
    players: int | None,
    seed: int,
    options: dict[str, object],
    plan: SeatPlan,
    observers: Sequence[Observer] = (),
    llm_factory: LlmSeatFactory | None = None,
    human: HumanSeat | None = None,
) -> Session:
    module = registry.load(game_name)
    config = module.make_config(players, options)
    game = module.game.new(config, seed)
    specs = {info.id: plan.spec_for(info) for info in game.seats()}
    # The row and the opening events in one transaction: a crash cannot leave a game
    # without its opening (which replay would reject as "the rules changed").
    game_id = store.create_game(game_name, config.model_dump_json(), seed, specs, game.events)
    seats = _seats(module, game, specs, llm_factory, human, game_id)
    for observer in observers:
        observer.on_events(game, game.events)
    runner = Runner(
        game,
        seats,
        fallback=module.fallback_policy,
        store=store,
        game_id=game_id,
        observers=observers,
    )
    return Session(game_id, game_name, module, game, specs, runner)


def rebuild(store: Store, game_id: str) -> tuple[GameModule, Game, int]:
    """The stored game replayed from config, seed and actions; returns the next action index."""
    row = store.get_game(game_id)
    module = registry.load(row.game)
    config = module.game.config_model.model_validate_json(row.config)
    game = module.game.new(config, row.seed)
    stored = store.actions(game_id)
    for act in stored:
        game.apply(act.decision_id, act.action)
    stored_events = store.event_count(game_id)
    if stored_events != len(game.events):
        raise ParlourError(
            f"game {game_id}: replay gave {len(game.events)} events but {stored_events} are "
            "stored; the game's rules changed since it was saved (use the parlour version "
            "that recorded it)"
        )
    return module, game, len(stored)


def resume(
    store: Store,
    game_id: str,
    *,
    observers: Sequence[Observer] = (),
    llm_factory: LlmSeatFactory | None = None,
    human: HumanSeat | None = None,
    seat_overrides: dict[str, str] | None = None,
    rebuilt: tuple[GameModule, Game, int] | None = None,
) -> Session:
    """Continue a stored game; pass ``rebuilt`` (from ``rebuild``) if the caller already
    replayed it, so the log is not read and replayed twice."""
    row = store.get_game(game_id)
    store.require_writable()  # before anything is shown: a resumed game writes at once
    module, game, next_idx = rebuilt or rebuild(store, game_id)
    specs = dict(row.seats)
    if seat_overrides:
        specs.update(seat_overrides)
        store.set_seats(game_id, specs)
    seats = _seats(module, game, specs, llm_factory, human, game_id)
    runner = Runner(
        game,
        seats,
        fallback=module.fallback_policy,
        store=store,
        game_id=game_id,
        observers=observers,
        next_idx=next_idx,
    )
    return Session(game_id, row.game, module, game, specs, runner)
