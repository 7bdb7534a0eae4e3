"""Planning, starting, resuming and running one stored game: where games, seats and
storage meet.

``plan`` decides who plays what, once, for every surface (CLI, evaluations, the web
server): the game's config and seed (a replay takes its recording's), each seat's typed
spec (the default, ``--seat`` overrides, system seats, human options, seats that need a
capable model), and it probes every model before anything is stored. ``start`` stores
the planned game and runs it; ``resume`` continues a stored one exactly.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from parlour.core.commands import command
from parlour.core.errors import IllegalAction, ParlourError
from parlour.core.game import Game, Result, SeatInfo
from parlour.core.module import GameModule
from parlour.core.rng import Rng
from parlour.games import registry
from parlour.runtime.llm_seating import LlmFactory, StoreSink, effective_calls, resume_streams
from parlour.runtime.runner import Observer, Runner
from parlour.runtime.seating import (
    BotSpec,
    HumanSpec,
    LlmSeatFactory,
    PolicySpec,
    ReplaySpec,
    SeatPlan,
    SeatSpec,
    build_seat,
    is_model,
    module_spec,
    parse_overrides,
    replay_source,
    resolve_seat,
)
from parlour.runtime.store import ActionRow, GameRow, Store
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


@dataclass(frozen=True)
class SessionPlan:
    """Everything decided before a game is stored (or, resuming, continued)."""

    game_name: str
    module: GameModule
    config: BaseModel
    seed: int
    #: The game, built once: fresh for a new game, replayed to its last action on resume.
    game: Game
    specs: dict[str, SeatSpec]
    #: Seats played by a person.
    humans: tuple[str, ...] = ()
    #: The stored game whose recording (seed, config, answers) this game replays.
    replay_of: str | None = None
    #: One line each, for people: choices the plan made that they did not ask for.
    notes: tuple[str, ...] = ()
    llm: LlmFactory | None = None
    #: Set when resuming: the stored game and the index of its next action.
    game_id: str | None = None
    next_idx: int = 0

    @property
    def texts(self) -> dict[str, str]:
        return {seat: spec.text for seat, spec in self.specs.items()}


def plan(
    store: Store,
    game_name: str,
    *,
    players: int | None = None,
    seed: int | None = None,
    options: Mapping[str, object] | None = None,
    model: str = "local",
    system_model: str | None = None,
    seats: Sequence[str] | Mapping[str, str] = (),
    human: str | None = None,
    random_human: bool = False,
    llm: LlmFactory | None = None,
    base_url: str | None = None,
    probe: bool = True,
) -> SessionPlan:
    """Decide who plays what in a new game of ``game_name``.

    ``model`` plays the players; ``system_model`` the system seats (default: ``model`` if
    it is a model, else the game's script); ``seats`` are overrides (``SEAT=SPEC`` items,
    or a mapping of seat id → spec); ``human`` is a seat key a person plays, or with
    ``random_human`` a player seat drawn from the seed. ``options`` are game settings. A
    strict ``replay:GAME_ID`` default takes that game's seed, config and seating, and
    refuses options that contradict them. ``probe`` loads/contacts every model now.
    """
    module = registry.load(game_name)
    options = dict(options or {})
    default = module_spec(model, module)
    system = module_spec(system_model, module) if system_model else None
    source = replay_source(default)
    recorded: dict[str, str] = {}
    if source is not None:
        config, seed, recorded = _recording(
            store, source, game_name, module, players, seed, options
        )
    else:
        config = module.make_config(players, options)
        seed = secrets.randbelow(1_000_000) if seed is None else seed
    game = module.game.new(config, seed)
    if human is not None and module.as_options is not None and source is None:
        wanted = module.as_options(human, config)  # e.g. deal the character --as names
        if wanted:
            options.update(wanted)
            config = module.make_config(players, options)
            game = module.game.new(config, seed)
    infos = game.seats()
    overrides = dict(seats) if isinstance(seats, Mapping) else parse_overrides(list(seats), infos)
    if random_human and human is None:
        human = Rng(seed).choice([s for s in infos if not s.system]).id
    if human is not None:
        overrides[resolve_seat(human, infos)] = "human"
    explicit = {seat: module_spec(text, module) for seat, text in overrides.items()}
    humans = tuple(sorted(s for s, spec in explicit.items() if isinstance(spec, HumanSpec)))
    if humans and module.human_options is not None and source is None:
        for seat_id in humans:
            for key, value in module.human_options(seat_id).items():
                merged = options.get(key)
                if isinstance(merged, list) and isinstance(value, list):
                    value = [*merged, *value]
                options[key] = value
        merged_config = module.make_config(players, options)
        if merged_config != config:  # build again only when a human changes the rules
            config, game = merged_config, module.game.new(merged_config, seed)
    bots = {s: spec for s, spec in explicit.items() if isinstance(spec, BotSpec)}
    if isinstance(default, BotSpec):
        bots.update({i.id: default for i in infos if not i.system and i.id not in explicit})
    if bots and source is None:
        if module.bot_options is None:
            raise ParlourError(f"{game_name} has no bot protocol; drop bot: from the seat spec")
        for seat_id, bot in sorted(bots.items()):
            for key, value in module.bot_options(seat_id, dict(bot.options)).items():
                merged = options.get(key)
                if isinstance(merged, list) and isinstance(value, list):
                    value = [*merged, *value]
                elif isinstance(merged, dict) and isinstance(value, dict):
                    value = {**merged, **value}
                options[key] = value
        config = module.make_config(players, options)
        game = module.game.new(config, seed)
    notes: list[str] = []
    specs: dict[str, SeatSpec] = {}
    for info in game.seats():
        if info.id in explicit:
            specs[info.id] = explicit[info.id]
        elif source is not None:
            specs[info.id] = _replayed_seat(info, recorded, default, module, notes)
        else:
            specs[info.id] = _default_seat(info, module, default, system)
    models = {spec for spec in specs.values() if is_model(spec)}
    if models and llm is None:
        llm = LlmFactory(store=store, base_url=base_url)
    if llm is not None:
        for info in game.seats():
            spec = specs[info.id]
            if (
                info.needs_capable_model
                and info.id not in explicit
                and is_model(spec)
                and llm.capabilities(spec).small
            ):
                specs[info.id] = PolicySpec("scripted")
                notes.append(
                    f"{info.name}: scripted ({spec.text} is too small for this seat; "
                    f"--seat {info.id}={spec.text} to use it anyway)"
                )
        models = {spec for spec in specs.values() if is_model(spec)}
        played = [i.id for i in game.seats() if not i.system and is_model(specs[i.id])]
        small = tuple(s for s in played if llm.capabilities(specs[s]).small)
        capable = tuple(s for s in played if s not in small)
        small_system = tuple(
            i.id
            for i in game.seats()
            if i.system and is_model(specs[i.id]) and llm.capabilities(specs[i.id]).small
        )
        hooks = (
            (small, module.small_model_options),
            (capable, module.capable_model_options),
            (small_system, module.small_system_options),
        )
        extra: dict[str, object] = {}
        for seats, hook in hooks:
            if not seats or hook is None or source is not None:
                continue
            for key, value in hook(seats).items():
                if key in options:
                    continue
                before = extra.get(key)
                if isinstance(before, list) and isinstance(value, list):
                    value = [*before, *value]
                extra[key] = value
        if extra:
            options.update(extra)
            config = module.make_config(players, options)
            game = module.game.new(config, seed)
        if probe and models:
            llm.check(models)
    return SessionPlan(
        game_name=game_name,
        module=module,
        config=config,
        seed=seed,
        game=game,
        specs=specs,
        humans=humans,
        replay_of=source.game_id if source else None,
        notes=tuple(notes),
        llm=llm if models else None,
    )


_plan = plan  # ``start`` has a parameter named ``plan``


def _default_seat(
    info: SeatInfo, module: GameModule, default: SeatSpec, system: SeatSpec | None
) -> SeatSpec:
    if not info.system:
        return default
    if system is not None:  # asked for explicitly: every system seat
        return system
    if info.id in module.scripted_system_seats:
        return PolicySpec("scripted")
    return default if is_model(default) else PolicySpec("scripted")


def _replayed_seat(
    info: SeatInfo,
    recorded: dict[str, str],
    default: SeatSpec,
    module: GameModule,
    notes: list[str],
) -> SeatSpec:
    """A seat a model played in the recording is replayed; any other seat is played as
    it was (a script), except a person's, which the game's script plays."""
    was = module_spec(recorded.get(info.id, "scripted"), module)
    if is_model(was):
        return default
    if isinstance(was, HumanSpec):
        notes.append(f"{info.name} was played by a person; the game's script plays it now")
        return PolicySpec("scripted")
    return was


def _recording(
    store: Store,
    source: ReplaySpec,
    game_name: str,
    module: GameModule,
    players: int | None,
    seed: int | None,
    options: dict[str, object],
) -> tuple[BaseModel, int, dict[str, str]]:
    """The recorded game's config, seed and seating; an option that contradicts them is
    refused (a replay is only a replay of the same game)."""
    row = store.get_game(source.game_id)
    if row.game != game_name:
        raise ParlourError(
            f"replay:{source.game_id} recorded a {row.game} game, not {game_name}; "
            f"replay it with `{command(f'watch {row.game} --model replay:{source.game_id}')}`"
        )
    if seed is not None and seed != row.seed:
        raise ParlourError(
            f"--seed {seed} contradicts replay:{source.game_id}, recorded with seed "
            f"{row.seed}; drop --seed (a replay takes the recording's)"
        )
    config = module.game.config_model.model_validate_json(row.config)
    if players is not None or options:
        asked = module.make_config(players, options)
        keys = list(options)
        if players is not None and "players" in type(config).model_fields:
            keys.append("players")
        for key in keys:
            if getattr(asked, key, None) != getattr(config, key, None):
                flag = "--players" if key == "players" else f"--set {key}"
                raise ParlourError(
                    f"{flag} contradicts replay:{source.game_id}, recorded with "
                    f"{key}={getattr(config, key, None)!r}; drop it (a replay takes the "
                    "recording's settings)"
                )
    return config, row.seed, dict(row.seats)


def plan_resume(
    store: Store,
    game_id: str,
    *,
    seats: Sequence[str] | Mapping[str, str] = (),
    llm: LlmFactory | None = None,
    base_url: str | None = None,
    probe: bool = True,
) -> SessionPlan:
    """Who plays a stored game from here: its stored seating, with ``seats`` overrides
    (a takeover, e.g. ``FRANCE=human``). The game is replayed to its last action once."""
    row = store.get_game(game_id)
    store.require_writable()  # before anything is shown: a resumed game writes at once
    module, game, next_idx = rebuild(store, game_id)
    overrides = (
        dict(seats) if isinstance(seats, Mapping) else parse_overrides(list(seats), game.seats())
    )
    specs = {
        info.id: module_spec(overrides.get(info.id, row.seats[info.id]), module)
        for info in game.seats()
    }
    takeovers = {
        s: spec for s, spec in specs.items() if s in overrides and isinstance(spec, BotSpec)
    }
    # a person taking a seat back from the game's bot (``GameModule.seat_returned``)
    returning = [s for s in overrides if isinstance(specs.get(s), HumanSpec)]
    if takeovers or (returning and module.seat_returned is not None):
        game = _take_over(store, game_id, module, game, row.seed, takeovers, returning)
    models = {spec for spec in specs.values() if is_model(spec)}
    if models and llm is None:
        llm = LlmFactory(store=store, base_url=base_url)
    if probe and llm is not None and models:
        llm.check(models)
    return SessionPlan(
        game_name=row.game,
        module=module,
        config=game.config,
        seed=row.seed,
        game=game,
        specs=specs,
        humans=tuple(sorted(s for s, spec in specs.items() if isinstance(spec, HumanSpec))),
        llm=llm if models else None,
        game_id=game_id,
        next_idx=next_idx,
    )


def _take_over(
    store: Store,
    game_id: str,
    module: GameModule,
    game: Game,
    seed: int,
    bots: dict[str, BotSpec],
    returning: Sequence[str] = (),
) -> Game:
    """The stored game under a config where ``bots`` play the game's bot protocol from
    the next phase (the game bootstraps their memory from what they saw), replayed to
    its last action; stored by ``resume_planned``."""
    if bots and module.bot_takeover is None:
        raise ParlourError("this game has no bot protocol; drop bot: from --seat")
    options: dict[str, object] = game.config.model_dump(mode="json")
    for seat_id, bot in sorted(bots.items()):
        assert module.bot_takeover is not None
        for key, value in module.bot_takeover(game, seat_id, dict(bot.options)).items():
            options[key] = _merged(options.get(key), value)
    for seat_id in returning:
        if module.seat_returned is not None:
            for key, value in module.seat_returned(game, seat_id).items():
                options[key] = _merged(options.get(key), value)
    config = module.make_config(None, options)
    if config == game.config:
        return game  # already a bot (an earlier takeover): nothing changes
    again = module.game.new(config, seed)
    for act in store.actions(game_id):
        try:
            again.apply(act.decision_id, act.action)
        except IllegalAction as err:
            raise ParlourError(
                f"game {game_id}: a bot cannot take over here (stored action #{act.idx}: "
                f"{err}); resume without bot: and try again at the next phase"
            ) from err
    return again


def _merged(old: object, new: object) -> object:
    """Config list and dict options grow (another bot joins ``bots``); the rest replace."""
    if isinstance(old, list) and isinstance(new, list):
        return [*old, *(v for v in new if v not in old)]
    if isinstance(old, dict) and isinstance(new, dict):
        return {**old, **new}
    return new


def _seats(
    store: Store,
    planned: SessionPlan,
    llm_factory: LlmSeatFactory | None,
    human: HumanSeat | None,
    game_id: str,
) -> dict[str, Seat]:
    sink = StoreSink(store, game_id)  # a python: seat's calls go to the call log too
    return {
        info.id: build_seat(
            planned.specs[info.id],
            info,
            planned.module,
            planned.seed,
            llm_factory,
            human,
            game_id,
            sink,
        )
        for info in planned.game.seats()
    }


def start_planned(
    store: Store,
    planned: SessionPlan,
    *,
    observers: Sequence[Observer] = (),
    human: HumanSeat | None = None,
    llm_factory: LlmSeatFactory | None = None,
) -> Session:
    """Store the planned game and its opening events; return it ready to run."""
    game = planned.game
    specs = planned.texts
    # The row and the opening events in one transaction: a crash cannot leave a game
    # without its opening (which replay would reject as "the rules changed").
    game_id = store.create_game(
        planned.game_name, planned.config.model_dump_json(), planned.seed, specs, game.events
    )
    seats = _seats(store, planned, llm_factory or planned.llm, human, game_id)
    for observer in observers:
        observer.on_events(game, game.events)
    return _session(store, planned, game_id, seats, observers, next_idx=0)


def _session(
    store: Store,
    planned: SessionPlan,
    game_id: str,
    seats: dict[str, Seat],
    observers: Sequence[Observer],
    *,
    next_idx: int,
) -> Session:
    """The planned game with its runner over ``seats``, stored as ``game_id``; its next
    action gets index ``next_idx``."""
    runner = Runner(
        planned.game,
        seats,
        fallback=planned.module.fallback_policy,
        store=store,
        game_id=game_id,
        observers=observers,
        next_idx=next_idx,
    )
    return Session(game_id, planned.game_name, planned.module, planned.game, planned.texts, runner)


def start(
    store: Store,
    game_name: str,
    *,
    players: int | None,
    seed: int,
    options: dict[str, object],
    plan: SeatPlan,
    observers: Sequence[Observer] = (),
    llm_factory: LlmFactory | None = None,
    human: HumanSeat | None = None,
) -> Session:
    """Plan and start in one call, from a ``SeatPlan`` (tests, benchmarks)."""
    overrides = dict(plan.overrides)
    for seat_id in plan.scripted_system:
        overrides.setdefault(seat_id, "scripted")
    planned = _plan(
        store,
        game_name,
        players=players,
        seed=seed,
        options=options,
        model=plan.default,
        system_model=plan.system_default,
        seats=overrides,
        llm=llm_factory,
        probe=False,
    )
    return start_planned(store, planned, observers=observers, human=human)


def opening(row: GameRow) -> tuple[GameModule, Game]:
    """A stored game as it stood before its first action, from its config and seed."""
    module = registry.load(row.game)
    config = module.game.config_model.model_validate_json(row.config)
    return module, module.game.new(config, row.seed)


def apply_stored(game: Game, game_id: str, actions: Sequence[ActionRow]) -> None:
    """Apply stored actions to ``game`` in order; one the rules now reject is a
    ParlourError naming the action (the game was saved by another version's rules)."""
    for act in actions:
        try:
            game.apply(act.decision_id, act.action)
        except IllegalAction as err:
            raise ParlourError(
                f"game {game_id}: stored action #{act.idx} is no longer legal ({err}); the "
                "game's rules changed since it was saved (use the parlour version that "
                "recorded it)"
            ) from err


def rebuild(store: Store, game_id: str) -> tuple[GameModule, Game, int]:
    """The stored game replayed from config, seed and actions; returns the next action index.

    The actions are the truth. If this parlour derives them into other events than the
    ones stored (a game saved by an earlier version: new wording, a reason moved to a
    private event, audiences resolved), the stored events are re-derived when the
    database is writable; actions the rules now reject are an error.
    """
    module, game = opening(store.get_game(game_id))
    stored = store.actions(game_id)
    apply_stored(game, game_id, stored)
    if store.events(game_id) != list(game.events):
        with contextlib.suppress(ParlourError):  # read-only: show the derived events
            store.replace_events(game_id, game.events)
    return module, game, len(stored)


def resume_planned(
    store: Store,
    planned: SessionPlan,
    *,
    observers: Sequence[Observer] = (),
    human: HumanSeat | None = None,
) -> Session:
    """Continue the stored game ``plan_resume`` planned; replay and chaos streams go on
    from where the stored calls left them."""
    assert planned.game_id is not None, "plan with plan_resume"
    game_id = planned.game_id
    specs = planned.texts
    row = store.get_game(game_id)
    if specs != row.seats:
        store.set_seats(game_id, specs)
    config = planned.config.model_dump_json()
    if config != row.config:  # a bot took a seat over: its config from here on
        store.set_config(game_id, config)
    seats = _seats(store, planned, planned.llm, human, game_id)
    if planned.llm is not None:
        applied = {a.decision_id for a in store.actions(game_id)}
        resume_streams(seats, effective_calls(store.calls(game_id), applied))
    return _session(store, planned, game_id, seats, observers, next_idx=planned.next_idx)


def resume(
    store: Store,
    game_id: str,
    *,
    observers: Sequence[Observer] = (),
    llm_factory: LlmFactory | None = None,
    human: HumanSeat | None = None,
    seat_overrides: dict[str, str] | None = None,
) -> Session:
    """Plan and resume in one call (tests, tools)."""
    planned = plan_resume(store, game_id, seats=seat_overrides or {}, llm=llm_factory, probe=False)
    return resume_planned(store, planned, observers=observers, human=human)
