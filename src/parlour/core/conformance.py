"""The conformance suite every game's tests call: ``check(module)`` runs all of it.

Each check raises ``AssertionError`` with a message that names the seed and step, so a
failure is reproducible from the message alone. The single checks stay public for
tests that need one property with an unusual config.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from pydantic import BaseModel

from parlour.core.actions import Action, Choice, Choices, Structured, Text
from parlour.core.decisions import Decision, DecisionKind
from parlour.core.errors import IllegalAction
from parlour.core.game import Game
from parlour.core.markers import MARKER_SHAPE
from parlour.core.module import GameModule
from parlour.core.random_answers import random_answer
from parlour.core.replay import replay
from parlour.core.rng import Rng

ConfigFactory = Callable[[int], BaseModel]


@dataclass
class Playthrough:
    seed: int
    actions: list[tuple[str, Action]] = field(default_factory=list)
    game: Game | None = None


def random_playthrough(
    game_cls: type[Game], config: BaseModel, seed: int, *, max_steps: int = 20_000
) -> Playthrough:
    """Play a game to the end with random legal answers (answer order: as pending lists them)."""
    rng = Rng(seed * 7919 + 17)
    game = game_cls.new(config, seed)
    run = Playthrough(seed=seed, game=game)
    for _ in range(max_steps):
        if game.is_terminal():
            return run
        pending = game.pending()
        assert pending, f"seed {seed}: game is not terminal but has no pending decision"
        decision = pending[0] if len(pending) == 1 else rng.choice(pending)
        action = random_answer(decision, rng)
        game.apply(decision.id, action)
        run.actions.append((decision.id, action))
    raise AssertionError(f"seed {seed}: no terminal state after {max_steps} steps")


def _log_fingerprint(game: Game) -> str:
    return json.dumps([e.model_dump(mode="json") for e in game.events], sort_keys=True)


def _snapshot(game: Game) -> str:
    return json.dumps(game.snapshot(), sort_keys=True, default=str)


def check_terminates(game_cls: type[Game], configs: ConfigFactory, seeds: Iterable[int]) -> int:
    """Random legal play from every seed ends with a result. Returns the number of games."""
    return _check_terminates(game_cls, configs, seeds, replay_seeds=frozenset())


def _check_terminates(
    game_cls: type[Game],
    configs: ConfigFactory,
    seeds: Iterable[int],
    *,
    replay_seeds: frozenset[int],
) -> int:
    """``check_terminates``; each game of ``replay_seeds`` is also replayed right away
    (``check_deterministic_and_replayable`` without playing the same game a second time)."""
    count = 0
    for seed in seeds:
        run = random_playthrough(game_cls, configs(seed), seed)
        assert run.game is not None
        assert run.game.is_terminal()
        assert run.game.result() is not None, f"seed {seed}: terminal game has no result"
        if seed in replay_seeds:  # a config of its own, as a separate replay check had
            _check_replays(game_cls, configs(seed), run)
        count += 1
    return count


def check_deterministic_and_replayable(
    game_cls: type[Game], configs: ConfigFactory, seeds: Iterable[int]
) -> None:
    """Same seed + same actions → same event log; replaying the log → same state."""
    for seed in seeds:
        config = configs(seed)
        _check_replays(game_cls, config, random_playthrough(game_cls, config, seed))


def _check_replays(game_cls: type[Game], config: BaseModel, run: Playthrough) -> None:
    """Replaying ``run``'s actions (all of them, and half then the rest) rebuilds its game."""
    seed = run.seed
    assert run.game is not None
    again = replay(game_cls, config, seed, run.actions)
    assert _log_fingerprint(again) == _log_fingerprint(run.game), (
        f"seed {seed}: replay produced a different event log"
    )
    assert _snapshot(again) == _snapshot(run.game), (
        f"seed {seed}: replay produced a different state"
    )
    # Resume from the middle: a copy rebuilt from a prefix continues identically.
    half = len(run.actions) // 2
    resumed = replay(game_cls, config, seed, run.actions[:half])
    for decision_id, action in run.actions[half:]:
        resumed.apply(decision_id, action)
    assert _snapshot(resumed) == _snapshot(run.game), (
        f"seed {seed}: resuming after {half} actions diverged"
    )


def check_no_leaks(game_cls: type[Game], configs: ConfigFactory, seeds: Iterable[int]) -> int:
    """Scan everything each seat is given, at every step, for markers it may not know.

    ``configs`` must build configs with marker planting switched on. Scanned per seat: every
    string of its view (event text and every field of every event's ``data``, the view's
    ``public`` and ``private`` parts) and of its pending decisions (prompt, options,
    context). Every answer also carries a ``reason`` holding a marker only the answering
    seat may know (a reason is the seat's own aside), so a game that publishes what a seat
    wrote for itself is caught too; except a choose-one with ``phrase_words``, whose reason
    is a public phrase by the decision's own terms (no reason is given there, so a game
    that leaks it into another seat's private data is not excused either: the random answer
    carries no marker). Returns the number of views scanned.
    """
    scanned = 0
    for seed in seeds:
        config = configs(seed)
        rng = Rng(seed * 7919 + 17)  # the same answers as ``random_playthrough``
        game = game_cls.new(config, seed)
        assert game.secret_markers(), (
            f"seed {seed}: no markers planted; enable plant_markers in the config"
        )
        reasons: dict[str, frozenset[str]] = {}
        for step in range(20_001):
            markers = {**game.secret_markers(), **reasons}
            in_json = {m for m in markers if _found_in_json(m)}
            open_decisions = game.pending()
            for seat in game.seats():
                scanned += 1
                view = game.view(seat.id)
                mine = [d for d in open_decisions if d.seat == seat.id]
                # One JSON text per seat, searched for the markers it holds in one regex
                # pass; the strings one by one only for a marker JSON could hide, or to
                # name where a leaked marker sits.
                text = "\n".join([view.model_dump_json(), *(d.model_dump_json() for d in mine)])
                found = set(MARKER_SHAPE.findall(text))
                everything: str | None = None
                for marker, allowed in markers.items():
                    if seat.id in allowed:
                        continue
                    if marker in in_json:
                        if marker not in found:
                            continue
                    else:
                        if everything is None:
                            everything = "\n".join(texts_in(_given(view, mine)))
                        if marker not in everything:
                            continue
                    where = next(w for w, t in strings_in(_given(view, mine), "") if marker in t)
                    raise AssertionError(
                        f"seed {seed} step {step}: seat {seat.id} sees marker "
                        f"{marker} in {where} (allowed: {sorted(allowed)})"
                    )
            if game.is_terminal():
                break
            pending = game.pending()
            assert pending, f"seed {seed}: game is not terminal but has no pending decision"
            decision = pending[0] if len(pending) == 1 else rng.choice(pending)
            answer = random_answer(decision, rng)
            if not decision.phrase_words:
                marker = f"[[mk:reason:{decision.seat}:{step}]]"
                reasons[marker] = frozenset({decision.seat})
                answer = answer.model_copy(update={"reason": marker})
            game.apply(decision.id, answer)
        else:
            raise AssertionError(f"seed {seed}: no terminal state after 20000 steps")
    return scanned


def _given(view: BaseModel, decisions: list[Decision]) -> dict[str, object]:
    """What a seat is given, as the leak scan reads it: its view and its open decisions."""
    return {
        "view": view.model_dump(mode="json"),
        "decisions": [d.model_dump(mode="json") for d in decisions],
    }


#: What JSON escapes inside a string (pydantic writes every other character as it is).
_JSON_ESCAPED = re.compile(r'["\\\x00-\x1f]')


def _found_in_json(marker: str) -> bool:
    """Whether a JSON text of a value holds ``marker`` exactly when one of the value's
    strings (or keys) does: true of a marker-shaped one without a character JSON escapes.
    It is then written unchanged, cannot span two strings (a quote would sit between), and
    JSON's own brackets never spell its opening ``[[mk:`` (no letter follows ``[`` outside
    a string)."""
    return MARKER_SHAPE.fullmatch(marker) is not None and not _JSON_ESCAPED.search(marker)


def texts_in(value: object) -> list[str]:
    """The strings of ``strings_in(value, "")`` in the same order, without their paths:
    what a scan reads when it only needs to know whether a text is there."""
    out: list[str] = []
    _collect_texts(value, out)
    return out


def _collect_texts(value: object, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.append(str(key))
            if isinstance(item, str):
                out.append(item)
            else:
                _collect_texts(item, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, str):
                out.append(item)
            else:
                _collect_texts(item, out)


def strings_in(value: object, path: str) -> Iterator[tuple[str, str]]:
    """Every string of a JSON-like value (keys too) and where it sits (``view.events.3.text``)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}<key>", str(key)
            yield from strings_in(item, f"{path}.{key}".lstrip("."))
    elif isinstance(value, list | tuple):
        for n, item in enumerate(value):
            yield from strings_in(item, f"{path}.{n}")


def _illegal_answer(decision: Decision) -> Action:
    if decision.kind is DecisionKind.CHOOSE_ONE:
        return Choice(option="__not_an_option__")
    if decision.kind is DecisionKind.CHOOSE_MANY:
        return Choices(options=("__not_an_option__",))
    if decision.kind is DecisionKind.FREE_TEXT:
        return Text(text="x" * (decision.max_length + 1))
    return (
        Structured(value={"__unexpected__": [1, 2, 3]}) if decision.json_schema else Text(text="")
    )


def _legal_answers(decision: Decision, rng: Rng, samples: int) -> list[Action]:
    # A deadline's default is a legal answer the runner will apply unasked: try it too.
    extra = [decision.default] if decision.default is not None else []
    if decision.kind is DecisionKind.CHOOSE_ONE:
        return [Choice(option=o) for o in decision.option_ids] + extra
    return [random_answer(decision, rng) for _ in range(samples)] + extra


def _check_clock(game: Game, decision: Decision, seed: int) -> None:
    if decision.deadline is None or decision.deadline.clock != "game":
        return
    clock = getattr(game, "clock", None)
    if not callable(clock):
        raise AssertionError(
            f"seed {seed}: {decision.id} has a game-clock deadline but the game has no clock()"
        )


def check_decisions(
    game_cls: type[Game], configs: ConfigFactory, seeds: Iterable[int], *, samples: int = 3
) -> int:
    """Every offered decision accepts every legal answer and rejects an illegal one.

    Returns the number of (decision, answer) pairs tried.
    """
    tried = 0
    for seed in seeds:
        config = configs(seed)
        rng = Rng(seed + 1)
        run = random_playthrough(game_cls, config, seed)
        game = game_cls.new(config, seed)
        for step in run.actions:
            for decision in game.pending():
                _check_clock(game, decision, seed)
                for answer in _legal_answers(decision, rng, samples):
                    probe = copy.deepcopy(game)
                    try:
                        probe.apply(decision.id, answer)
                    except IllegalAction as err:
                        raise AssertionError(
                            f"seed {seed}: legal answer {answer!r} to {decision.id} rejected: {err}"
                        ) from err
                    tried += 1
                probe = copy.deepcopy(game)
                bad = _illegal_answer(decision)
                try:
                    probe.apply(decision.id, bad)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"seed {seed}: illegal {bad!r} to {decision.id} accepted")
            probe = copy.deepcopy(game)
            try:
                probe.apply("__no_such_decision__", step[1])
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"seed {seed}: an unknown decision id was accepted")
            game.apply(*step)
    return tried


@dataclass(frozen=True)
class Report:
    """What ``check`` covered, so a caller can see that no property was vacuous."""

    games_terminated: int
    games_replayed: int
    views_scanned: int
    answers_tried: int


def _marked_by_default(configs: ConfigFactory) -> ConfigFactory:
    def marked(seed: int) -> BaseModel:
        config = configs(seed)
        if "plant_markers" not in type(config).model_fields:
            raise AssertionError(
                f"{type(config).__name__} has no plant_markers field; add one (see "
                "docs/writing-a-game.md) or pass marked= to check()"
            )
        return config.model_copy(update={"plant_markers": True})

    return marked


def check(
    module: GameModule,
    *,
    seeds: Iterable[int] = range(20),
    configs: ConfigFactory | None = None,
    marked: ConfigFactory | None = None,
    replay_seeds: Iterable[int] | None = None,
    leak_seeds: Iterable[int] | None = None,
    decision_seeds: Iterable[int] | None = None,
    samples: int = 3,
) -> Report:
    """Every conformance property of a game module, as PettingZoo's ``api_test(env)``.

    * random legal play from each of ``seeds`` terminates with a result;
    * same seed + same actions give the same event log, replay rebuilds the same state,
      and resuming from the middle continues identically (``replay_seeds``);
    * no seat's view ever holds a marker planted in a secret it may not know
      (``leak_seeds``, with ``marked`` configs: by default ``configs`` with
      ``plant_markers=True``);
    * every offered decision accepts every legal answer (its deadline default included),
      rejects an illegal one, and game-clock deadlines come with a ``clock()``
      (``decision_seeds``).

    ``configs(seed)`` builds each game's config (default: ``module.make_config(None, {})``).
    The per-property seeds default to ``seeds``; pass an empty range to skip a property
    (e.g. to run it once more with another config). A property that was run but checked
    nothing (no markers planted, no answer tried) fails.
    """
    seeds = list(seeds)
    factory: ConfigFactory = configs or (lambda _seed: module.make_config(None, {}))
    replay_list = seeds if replay_seeds is None else list(replay_seeds)
    leak_list = seeds if leak_seeds is None else list(leak_seeds)
    decision_list = seeds if decision_seeds is None else list(decision_seeds)
    game = module.game
    # A seed both played to the end and replayed is played once (random play is seeded).
    both = frozenset(seeds) & frozenset(replay_list)
    terminated = _check_terminates(game, factory, seeds, replay_seeds=both)
    check_deterministic_and_replayable(game, factory, [s for s in replay_list if s not in both])
    scanned = 0
    if leak_list:
        scanned = check_no_leaks(game, marked or _marked_by_default(factory), leak_list)
        assert scanned > 0, "the leak scan looked at no view"
    tried = 0
    if decision_list:
        tried = check_decisions(game, factory, decision_list, samples=samples)
        assert tried > 0, "no decision was offered, so none was checked"
    return Report(terminated, len(replay_list), scanned, tried)
