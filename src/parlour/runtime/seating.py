"""Seat specs, parsed once into a typed ``SeatSpec``, and turned into seats.

A spec names who plays a seat: ``scripted`` or a game's named policy (``dumbbot``),
``random``, ``human``, a model (``local``, ``openai:MODEL``, any registered backend), a
stored game's recording (``replay:GAME_ID``), the user's own Python callable
(``python:MODULE:CALLABLE``, ``agent:NAME``; ``seats/agents.py``) or
``chaos(rate=R[,seed=S]):SPEC``, which wraps any other spec and injects faults. Whether
a spec is a model is decided here, once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

from parlour.core.errors import ParlourError
from parlour.core.game import SeatInfo
from parlour.core.module import GameModule
from parlour.core.rng import hash_seed
from parlour.models.base import ModelError
from parlour.models.chaos import KINDS
from parlour.models.registry import parse_spec, registered
from parlour.runtime.seat_context import ContextPlan
from parlour.runtime.seat_context import split_spec as split_context_spec
from parlour.seats import agents
from parlour.seats.base import Seat
from parlour.seats.chaos import ChaosSeat
from parlour.seats.human import HumanSeat
from parlour.seats.llm import AttemptSink
from parlour.seats.python_seat import PythonSeat
from parlour.seats.random_seat import RandomSeat
from parlour.seats.scripted import ScriptedSeat

BUILTIN = ("scripted", "random", "human")
SPEC_FORMS = (
    "scripted",
    "random",
    "human",
    "local",
    "local:PATH.gguf",
    "openai:MODEL",
    "anthropic:MODEL",
    "replay:GAME_ID",
    "python:MODULE:CALLABLE",
    "agent:NAME",
    "chaos(rate=R[,seed=S]):SPEC",
    "context(memory,journal,recall):SPEC",
    "bot[(persona=P,chat=N,orders=N)]:SPEC",
)


@dataclass(frozen=True)
class PolicySpec:
    """``scripted`` or one of the game's named policies."""

    name: str

    @property
    def text(self) -> str:
        return self.name


@dataclass(frozen=True)
class RandomSpec:
    text: str = "random"


@dataclass(frozen=True)
class HumanSpec:
    text: str = "human"


@dataclass(frozen=True)
class ModelSpec:
    """A model backend spec (``local``, ``openai(format=json_object):llama3.1:8b``)."""

    text: str
    backend: str


@dataclass(frozen=True)
class PythonSpec:
    """``python:MODULE:CALLABLE``, ``python:FILE.py:CALLABLE`` or ``agent:NAME``: the
    user's own callable answers (``seats/agents.py``); checked to resolve when parsed."""

    text: str


@dataclass(frozen=True)
class ReplaySpec:
    """Answers from the model calls stored for game ``game_id``. ``strict``: each prompt
    must match the recorded one (else the seat falls back); off, answers go by order."""

    game_id: str
    strict: bool = True

    @property
    def text(self) -> str:
        return f"replay:{self.game_id}" if self.strict else f"replay(strict=false):{self.game_id}"


@dataclass(frozen=True)
class ChaosSpec:
    """Faults at ``rate`` over ``inner``. ``seed`` None: derived from the game and seat."""

    inner: SeatSpec
    rate: float = 0.5
    seed: int | None = None
    kinds: tuple[str, ...] = KINDS
    text: str = field(default="", compare=False)


@dataclass(frozen=True)
class ContextSpec:
    """``context(memory,journal,recall[,k=K,limit=L,embed=SPEC]):SPEC``: the model seat
    ``inner`` gathers context before answering (``runtime/seat_context.py``)."""

    inner: SeatSpec
    plan: ContextPlan
    text: str = field(default="", compare=False)


@dataclass(frozen=True)
class BotSpec:
    """``bot[(persona=P,chat=N,orders=N)]:SPEC``: the seat plays the game's bot protocol
    (Diplomacy: plan, negotiate, finalise) with ``inner`` answering; ``chat``/``orders``
    are token budgets for the game (0: unlimited)."""

    inner: SeatSpec
    options: tuple[tuple[str, str], ...] = ()
    chat_tokens: int = 0
    orders_tokens: int = 0
    text: str = field(default="", compare=False)


SeatSpec = (
    PolicySpec
    | RandomSpec
    | HumanSpec
    | ModelSpec
    | ReplaySpec
    | PythonSpec
    | ChaosSpec
    | ContextSpec
    | BotSpec
)


def is_model(spec: SeatSpec) -> bool:
    """Played through a model backend (so through an ``LlmSeat``)."""
    if isinstance(spec, ChaosSpec | ContextSpec | BotSpec):
        return is_model(spec.inner)
    return isinstance(spec, ModelSpec | ReplaySpec)


def replay_source(spec: SeatSpec) -> ReplaySpec | None:
    """The strict replay inside ``spec`` (alone or under chaos), if any."""
    if isinstance(spec, ChaosSpec | ContextSpec | BotSpec):
        return replay_source(spec.inner)
    return spec if isinstance(spec, ReplaySpec) and spec.strict else None


def _bad(text: str, why: str, policies: Collection[str]) -> ParlourError:
    names = ", ".join(dict.fromkeys([*SPEC_FORMS[:3], *sorted(policies), *SPEC_FORMS[3:]]))
    return ParlourError(f"bad seat spec '{text}': {why}; valid forms: {names}")


def parse_seat_spec(text: str, policies: Collection[str] = ()) -> SeatSpec:
    """Parse ``text`` once; ``policies``: the game's named policies besides ``scripted``."""
    text = text.strip()
    if text in ("scripted", *policies):
        return PolicySpec(text)
    if text == "random":
        return RandomSpec()
    if text == "human":
        return HumanSpec()
    if agents.is_agent_spec(text):
        agents.load(text)  # a one-line error now, before anything is stored
        return PythonSpec(text)
    if text.startswith("context("):
        plan, rest = split_context_spec(text)
        inner = parse_seat_spec(rest, policies)
        if not is_model(inner):
            why = "context(...) wraps a model spec, e.g. context(recall):local"
            raise _bad(text, why, policies)
        return ContextSpec(inner, plan, text=text)
    try:
        parsed = parse_spec(text)
    except ModelError:
        raise _bad(text, "it is not NAME[(KEY=VALUE,...)][:ARGUMENT]", policies) from None
    if parsed.name == "chaos":
        return _chaos(text, parsed.options, parsed.arg, policies)
    if parsed.name == "bot":
        return _bot(text, parsed.options, parsed.arg, policies)
    if parsed.name == "replay":
        unknown = sorted(set(parsed.options) - {"strict"})
        if unknown or not parsed.arg:
            why = f"unknown option {unknown[0]}" if unknown else "replay needs a stored game id"
            raise _bad(text, why, policies)
        strict = parsed.option("strict", True)
        if not isinstance(strict, bool):
            raise _bad(text, "strict must be true or false", policies)
        return ReplaySpec(parsed.arg, strict)
    if parsed.name not in registered():
        raise _bad(text, f"'{parsed.name}' is no policy of this game and no model", policies)
    return ModelSpec(text, parsed.name)


def _chaos(
    text: str, options: Mapping[str, object], arg: str | None, policies: Collection[str]
) -> ChaosSpec:
    unknown = sorted(set(options) - {"rate", "seed", "kinds"})
    if unknown:
        raise _bad(text, f"chaos has no option {unknown[0]} (rate, seed, kinds)", policies)
    if not arg:
        raise _bad(text, "chaos wraps another spec, e.g. chaos(rate=0.3):scripted", policies)
    rate = options.get("rate", 0.5)
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate <= 1:
        raise _bad(text, "rate must be a number between 0 and 1", policies)
    seed = options.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise _bad(text, "seed must be an integer", policies)
    raw = options.get("kinds", KINDS)
    kinds = (
        (raw,) if isinstance(raw, str) else tuple(map(str, raw)) if isinstance(raw, tuple) else ()
    )
    if not kinds or set(kinds) - set(KINDS):
        raise _bad(text, f"chaos kinds are {'|'.join(KINDS)}", policies)
    inner = parse_seat_spec(arg, policies)
    if isinstance(inner, HumanSpec):
        raise _bad(text, "chaos cannot wrap a human", policies)
    return ChaosSpec(inner, float(rate), seed, kinds, text=text)


def _bot(
    text: str, options: Mapping[str, object], arg: str | None, policies: Collection[str]
) -> BotSpec:
    if not arg:
        raise _bad(text, "bot plays through another spec, e.g. bot:local or bot:scripted", policies)
    inner = parse_seat_spec(arg, policies)
    if isinstance(inner, HumanSpec | BotSpec):
        raise _bad(text, "bot wraps a model or a script, not a human or another bot", policies)
    budgets: dict[str, int] = {}
    for key in ("chat", "orders"):
        value = options.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise _bad(text, f"{key} is a token budget, a whole number >= 0", policies)
        budgets[key] = value
    rest = tuple((k, str(v)) for k, v in options.items() if k not in budgets)
    return BotSpec(inner, rest, budgets["chat"], budgets["orders"], text=text)


def bot_inner(spec: SeatSpec) -> SeatSpec:
    return spec.inner if isinstance(spec, BotSpec) else spec


def module_spec(text: str, module: GameModule) -> SeatSpec:
    return parse_seat_spec(text, tuple(module.policies))


#: Builds an LLM seat: (spec, seat, game module, seat seed, game id) → seat (see llm_seating).
LlmSeatFactory = Callable[[SeatSpec, SeatInfo, GameModule, int, str], Seat]


@dataclass(frozen=True)
class SeatPlan:
    """Who plays by default: ``default`` for players, ``system_default`` for system seats,
    ``overrides`` per seat id. ``session.plan`` turns it into each seat's ``SeatSpec``."""

    default: str
    system_default: str
    overrides: dict[str, str]

    scripted_system: frozenset[str] = frozenset()


def parse_overrides(items: list[str], seats: tuple[SeatInfo, ...]) -> dict[str, str]:
    """``--seat 3=human`` / ``--seat p3=openai:gpt-4o-mini`` / ``--seat Kenji=scripted``."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, spec = item.partition("=")
        if not sep or not spec:
            raise ParlourError(f"bad --seat '{item}'; write SEAT=SPEC, e.g. --seat 3=human")
        out[resolve_seat(key.strip(), seats)] = spec.strip()
    return out


def resolve_seat(key: str, seats: tuple[SeatInfo, ...]) -> str:
    """A seat id from an id, a name or a player number (1-based)."""
    for seat in seats:
        if key in (seat.id, seat.name) or key.lower() == seat.name.lower():
            return seat.id
    if key.isdigit():
        players = [s for s in seats if not s.system]
        n = int(key)
        if 1 <= n <= len(players):
            return players[n - 1].id
    names = ", ".join(f"{s.id} ({s.name})" for s in seats)
    raise ParlourError(f"no seat '{key}'; seats are: {names}")


def build_seat(
    spec: SeatSpec | str,
    seat: SeatInfo,
    module: GameModule,
    seed: int,
    llm_factory: LlmSeatFactory | None,
    human: HumanSeat | None = None,
    game_id: str = "",
    sink: AttemptSink | None = None,
) -> Seat:
    """The seat for ``spec``; ``seed`` is the game's seed (each seat derives its own);
    ``sink`` logs the calls of a ``python:`` seat."""
    if isinstance(spec, str):
        spec = module_spec(spec, module)
    if isinstance(spec, BotSpec) and not is_model(spec):
        return build_seat(spec.inner, seat, module, seed, llm_factory, human, game_id, sink)
    seat_seed = hash_seed(seed, seat.id)
    if isinstance(spec, PythonSpec):
        return PythonSeat(
            agents.for_seat(agents.load(spec.text)),
            name=spec.text,
            fallback=module.fallback_policy,
            seat_id=seat.id,
            seed=seat_seed,
            sink=sink,
        )
    if isinstance(spec, PolicySpec):
        policy = module.named_policy(spec.name)
        assert policy is not None, spec  # parse_seat_spec accepted only known names
        return ScriptedSeat(policy, seat_seed, name=spec.name)
    if isinstance(spec, RandomSpec):
        return RandomSeat(seat_seed)
    if isinstance(spec, HumanSpec):
        return human or HumanSeat()
    if isinstance(spec, ChaosSpec) and not is_model(spec):
        inner = build_seat(spec.inner, seat, module, seed, llm_factory, human, game_id, sink)
        chaos_seed = seat_seed if spec.seed is None else hash_seed(spec.seed, seat.id)
        return ChaosSeat(inner, rate=spec.rate, seed=chaos_seed, kinds=spec.kinds)
    if llm_factory is None:
        raise ParlourError(f"seat spec '{spec.text}' needs a model factory (LlmFactory)")
    return llm_factory(spec, seat, module, seat_seed, game_id)
