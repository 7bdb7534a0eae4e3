"""Model seat specs → backends and LLM seats; every call is logged to the store."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from parlour.core.commands import command
from parlour.core.errors import ParlourError
from parlour.core.game import SeatInfo
from parlour.core.module import GameModule
from parlour.core.policy import Policy
from parlour.core.prompting import Prompter
from parlour.models.base import Capabilities, ModelBackend, ModelError, Resumable
from parlour.models.chaos import ChaosBackend
from parlour.models.limits import CostBudget, LimitedBackend, Limiter, ProviderLimits
from parlour.models.messages import Message, Usage, messages_digest
from parlour.models.pricing import cost
from parlour.models.registry import resolve
from parlour.models.replay import RecordedCall, ReplayBackend
from parlour.runtime.bot_budget import BotBudget, BudgetedSeat, CountingSink
from parlour.runtime.seat_context import StoreReader, build_components, record_retrievals
from parlour.runtime.seating import (
    BotSpec,
    ChaosSpec,
    ContextSpec,
    ModelSpec,
    ReplaySpec,
    SeatSpec,
    is_model,
    parse_seat_spec,
)
from parlour.runtime.store import CallRecord, Store
from parlour.seats.base import Seat
from parlour.seats.context import ContextComponent, ContextReader
from parlour.seats.context_components import Ranker
from parlour.seats.llm import Attempt, AttemptSink, LlmSeat, LlmSeatConfig


class StoreSink:
    """Writes every attempt of every LLM seat into the store's call log."""

    def __init__(self, store: Store, game_id: str) -> None:
        self.store = store
        self.game_id = game_id

    def record(self, attempt: Attempt) -> None:
        if attempt.attempt == 1:  # every decision has a first attempt; log its context once
            record_retrievals(
                self.store, self.game_id, attempt.seat, attempt.decision_id, attempt.context
            )
        self.store.record_call(
            CallRecord(
                **attempt.key_fields(),
                game_id=self.game_id,
                messages=[m.model_dump(mode="json") for m in attempt.messages],
                messages_digest=messages_digest(attempt.messages),
                output_spec=attempt.output.model_dump(mode="json"),
                response_text=attempt.response_text,
                parsed=attempt.parsed,
                outcome=attempt.outcome,
                error=attempt.error,
                input_tokens=attempt.usage.input_tokens,
                output_tokens=attempt.usage.output_tokens,
                cached_tokens=attempt.usage.cached_input_tokens,
                latency_s=attempt.latency_s,
                cost_usd=cost(attempt.model_id, attempt.usage),
            )
        )


#: Backends that run on this machine: no provider limits, no rate limits to wait out.
OFFLINE_BACKENDS = frozenset({"local", "indiscreet"})

#: Told, in one line, when something a person watching should know happens (a replay
#: whose recording stops matching).
Warn = Callable[[str], None]


@dataclass
class LlmFactory:
    """Backends for model seat specs and the LLM seats that use them.

    Stateless backends (a local model, an endpoint) are shared per spec. A replay is
    per game (its streams are consumed as the game goes); chaos is per seat, seeded from
    the seat's seed (itself derived from the game's) unless the spec gives a seed.

    A hosted backend is wrapped in a ``LimitedBackend``: one ``Limiter`` per provider
    (backend and endpoint) under ``limits``, shared by every game this factory seats, so
    429s and overloads are waited out, never answered by a fallback; with ``budget``, each
    call reserves its worst-case cost first (``models/limits.py``).
    """

    store: Store
    base_url: str | None = None
    retries: int = 2
    on_warning: Warn | None = None
    limits: ProviderLimits = field(default_factory=ProviderLimits)
    budget: CostBudget | None = None
    backends: dict[str, ModelBackend] = field(default_factory=dict)
    limiters: dict[str, Limiter] = field(default_factory=dict)
    #: One recall ranker per embedding spec, shared by every seat (one vector cache).
    rankers: dict[str, Ranker] = field(default_factory=dict)
    _replays: dict[tuple[str, str], ReplayBackend] = field(default_factory=dict)
    _recordings: dict[str, list[RecordedCall]] = field(default_factory=dict)

    def backend(
        self, spec: SeatSpec | str, *, game_id: str = "", seed: int | None = None
    ) -> ModelBackend:
        spec = parse_seat_spec(spec) if isinstance(spec, str) else spec
        if isinstance(spec, ContextSpec | BotSpec):  # `context(...):INNER` plays INNER
            return self.backend(spec.inner, game_id=game_id, seed=seed)
        if isinstance(spec, ChaosSpec) and is_model(spec):
            inner = self.backend(spec.inner, game_id=game_id, seed=seed)
            chaos_seed = spec.seed if spec.seed is not None else seed or 0
            return ChaosBackend(inner, rate=spec.rate, seed=chaos_seed, kinds=spec.kinds)
        if isinstance(spec, ReplaySpec):
            key = (spec.text, game_id)
            if key not in self._replays:
                self._replays[key] = ReplayBackend(
                    self.recording(spec.game_id), strict=spec.strict, on_divergence=self._diverged
                )
            return self._replays[key]
        if isinstance(spec, ModelSpec):
            if spec.text not in self.backends:
                try:
                    backend = resolve(spec.text, base_url=self.base_url)
                except ModelError as err:
                    raise ParlourError(str(err)) from err
                self.backends[spec.text] = self._limited(backend)
            return self.backends[spec.text]
        raise ParlourError(f"seat spec '{spec.text}' is not played by a model")

    def _limited(self, backend: ModelBackend) -> ModelBackend:
        """A hosted backend under its provider's shared limiter (and the budget)."""
        if backend.name in OFFLINE_BACKENDS:
            return backend
        provider = f"{backend.name} {getattr(backend, 'base_url', '')}".strip()
        if provider not in self.limiters:
            self.limiters[provider] = Limiter(self.limits)
        return LimitedBackend(backend, self.limiters[provider], self.budget)

    def recording(self, game_id: str) -> list[RecordedCall]:
        """The answered model calls of stored game ``game_id`` (loaded once)."""
        if game_id not in self._recordings:
            self.store.get_game(game_id)  # a one-line error when there is no such game
            applied = {a.decision_id for a in self.store.actions(game_id)}
            calls = recorded_calls(effective_calls(self.store.calls(game_id), applied))
            if not calls:
                raise ParlourError(
                    f"game {game_id} made no model calls, so there is nothing to replay; "
                    f"pick a game played by a model (`{command('list')}`)"
                )
            self._recordings[game_id] = calls
        return self._recordings[game_id]

    def _diverged(self, message: str) -> None:
        if self.on_warning is not None:
            where = message.split(";")[0].removeprefix("replay: ")
            self.on_warning(
                f"the recording stops matching ({where}); those seats' answers come from "
                "the game's script from here"
            )

    def capabilities(self, spec: SeatSpec) -> Capabilities:
        return self.backend(spec).capabilities

    def check(self, specs: Iterable[SeatSpec | str]) -> None:
        """Resolve and probe every model spec before a game is created (fail fast)."""
        parsed = [parse_seat_spec(s) if isinstance(s, str) else s for s in specs]
        for spec in sorted(parsed, key=lambda s: s.text):
            backend = self.backend(spec)
            if isinstance(spec, ContextSpec):  # e.g. its embed= spec must resolve too
                build_components(spec.plan, backend, self.backend, self.rankers)
            probe = getattr(backend, "check", None)
            if probe is not None:
                try:
                    asyncio.run(probe())
                except ModelError as err:
                    raise ParlourError(str(err)) from err

    def __call__(
        self, spec: SeatSpec, seat: SeatInfo, module: GameModule, seed: int, game_id: str
    ) -> Seat:
        if isinstance(spec, BotSpec):
            budget = BotBudget(spec.chat_tokens, spec.orders_tokens, module.chat_purposes)
            sink = CountingSink(budget, StoreSink(self.store, game_id))
            llm = self.seat(
                spec.inner,
                seat.id,
                module.prompter,
                module.fallback_policy,
                seed,
                sink=sink,
                game_id=game_id,
            )
            return BudgetedSeat(llm, budget)
        context: tuple[ContextComponent, ...] = ()
        inner: SeatSpec = spec
        if isinstance(spec, ContextSpec):
            inner = spec.inner
            context = build_components(spec.plan, self.backend(inner), self.backend, self.rankers)
        return self.seat(
            inner,
            seat.id,
            module.prompter,
            module.fallback_policy,
            seed,
            sink=StoreSink(self.store, game_id),
            game_id=game_id,
            context=context,
            reader=StoreReader(self.store, game_id) if context else None,
        )

    def seat(
        self,
        spec: SeatSpec | str,
        seat_id: str,
        prompter: Prompter,
        fallback: Policy,
        seed: int,
        *,
        sink: AttemptSink | None = None,
        config: LlmSeatConfig | None = None,
        game_id: str = "",
        context: tuple[ContextComponent, ...] = (),
        reader: ContextReader | None = None,
    ) -> LlmSeat:
        """The one place an LLM seat is put together (games, evaluations, casting)."""
        return LlmSeat(
            self.backend(spec, game_id=game_id, seed=seed),
            prompter,
            fallback,
            seat_id=seat_id,
            seed=seed,
            cache_key=seat_id,
            config=config or LlmSeatConfig(retries=self.retries),
            sink=sink,
            context=context,
            reader=reader,
        )


def effective_calls(calls: Sequence[CallRecord], applied: Collection[str]) -> list[CallRecord]:
    """The calls that made the stored game: those of applied decisions, and of each the
    last run of attempts. A process killed between a model call and its action leaves
    calls of a decision that was asked again after the resume (attempts restart at 1)."""
    runs: dict[tuple[str, str], list[CallRecord]] = {}
    for call in calls:
        if call.decision_id not in applied:
            continue
        key = (call.seat, call.decision_id)
        if call.attempt == 1 or key not in runs:
            runs[key] = []
        runs[key].append(call)
    keep = {id(call) for run in runs.values() for call in run}
    return [call for call in calls if id(call) in keep]


def resume_streams(seats: Mapping[str, Seat], calls: Sequence[CallRecord]) -> None:
    """Move every replay and chaos stream of a resumed game to where the stored calls
    (``effective_calls``) left it, so the game goes on exactly as if never stopped."""
    answered: dict[str, list[bool]] = {}
    for call in calls:
        if call.outcome != "fallback":  # a fallback record is no call to the backend
            answered.setdefault(call.cache_key, []).append(call.outcome in ("valid", "invalid"))
    for seat in seats.values():
        if isinstance(seat, LlmSeat) and isinstance(seat.backend, Resumable):
            seat.backend.resume_stream(seat.cache_key, answered.get(seat.cache_key, []))


def recorded_calls(calls: list[CallRecord]) -> list[RecordedCall]:
    """Stored attempts that got an answer, in order. Transport errors are left out: the
    seat retried them with the same messages, so the next recorded answer serves both."""
    out: list[RecordedCall] = []
    for call in calls:
        if call.outcome not in ("valid", "invalid"):
            continue
        out.append(
            RecordedCall(
                cache_key=call.cache_key,
                purpose=call.purpose,
                messages_digest=call.messages_digest,
                messages=tuple(Message.model_validate(m) for m in call.messages),
                text=call.response_text,
                parsed=call.parsed,
                parse_error=None if call.parsed is not None else call.error or None,
                usage=Usage(
                    input_tokens=call.input_tokens,
                    output_tokens=call.output_tokens,
                    cached_input_tokens=call.cached_tokens,
                ),
                model_id=call.model_id,
            )
        )
    return out
