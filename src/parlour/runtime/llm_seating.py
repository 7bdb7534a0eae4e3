"""Model specs → LLM seats, sharing one backend per spec and logging every call."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

from parlour.core.errors import ParlourError
from parlour.core.game import SeatInfo
from parlour.core.module import GameModule
from parlour.core.policy import Policy
from parlour.core.prompting import Prompter
from parlour.models.base import ModelBackend, ModelError
from parlour.models.messages import Message, Usage, messages_digest
from parlour.models.pricing import cost
from parlour.models.replay import RecordedCall
from parlour.runtime.seat_context import StoreReader, build_components, record_retrievals
from parlour.runtime.seat_context import split_spec as split_context_spec
from parlour.runtime.store import CallRecord, Store
from parlour.seats.base import Seat
from parlour.seats.context import ContextComponent, ContextReader
from parlour.seats.context_components import Ranker
from parlour.seats.llm import Attempt, AttemptSink, LlmSeat, LlmSeatConfig

#: Room per decision purpose (tokens). Speech stays short; structured answers need room.
MAX_TOKENS = {
    "speak": 70,
    "interject": 70,
    "wolf_chat": 50,
    "diary": 160,
    "debrief": 80,
    "narrate": 200,
    "act": 60,
    "classify": 40,
    "vote": 60,
    "route": 60,
    # Diplomacy: one JSON object of orders for every unit of a power, and its press.
    "orders": 600,
    "retreats": 200,
    "builds": 200,
    "removals": 200,
    "press": 400,
}


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
                game_id=self.game_id,
                seat=attempt.seat,
                decision_id=attempt.decision_id,
                purpose=attempt.purpose,
                phase=attempt.phase,
                attempt=attempt.attempt,
                model_id=attempt.model_id,
                cache_key=attempt.cache_key,
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


@dataclass
class LlmFactory:
    store: Store
    base_url: str | None = None
    retries: int = 2
    backends: dict[str, ModelBackend] = field(default_factory=dict)
    #: One recall ranker per embedding spec, shared by every seat (one vector cache).
    rankers: dict[str, Ranker] = field(default_factory=dict)

    def backend(self, spec: str) -> ModelBackend:
        spec = split_context_spec(spec)[1]  # `context(...):INNER` plays INNER
        if spec not in self.backends:
            self.backends[spec] = resolve_spec(spec, self.store, self.base_url)
        return self.backends[spec]

    def check(self, specs: set[str]) -> None:
        """Resolve and probe every model spec before a game is created (fail fast)."""
        for spec in sorted(specs):
            backend = self.backend(spec)
            plan = split_context_spec(spec)[0]
            build_components(plan, backend, self.backend, self.rankers)  # e.g. embed= works
            probe = getattr(backend, "check", None)
            if probe is not None:
                try:
                    asyncio.run(probe())
                except ModelError as err:
                    raise ParlourError(str(err)) from err

    def __call__(
        self, spec: str, seat: SeatInfo, module: GameModule, seed: int, game_id: str
    ) -> Seat:
        plan, inner = split_context_spec(spec)
        context = build_components(plan, self.backend(inner), self.backend, self.rankers)
        return self.seat(
            inner,
            seat.id,
            module.prompter,
            module.fallback_policy,
            seed,
            sink=StoreSink(self.store, game_id),
            context=context,
            reader=StoreReader(self.store, game_id) if context else None,
        )

    def seat(
        self,
        spec: str,
        seat_id: str,
        prompter: Prompter,
        fallback: Policy,
        seed: int,
        *,
        sink: AttemptSink | None = None,
        config: LlmSeatConfig | None = None,
        context: tuple[ContextComponent, ...] = (),
        reader: ContextReader | None = None,
    ) -> LlmSeat:
        """The one place an LLM seat is put together (games, evaluations, casting)."""
        return LlmSeat(
            self.backend(spec),
            prompter,
            fallback,
            seat_id=seat_id,
            seed=seed,
            cache_key=seat_id,
            config=config or LlmSeatConfig(retries=self.retries, max_tokens=dict(MAX_TOKENS)),
            sink=sink,
            context=context,
            reader=reader,
        )


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


_REPLAY_SOURCE = re.compile(r"replay(?:\([^()]*\))?:(?P<game>[\w.-]+)$")


def resolve_spec(spec: str, store: Store, base_url: str | None) -> ModelBackend:
    """Model spec → backend. ``replay:GAME_ID`` (also inside ``chaos(...)``) answers from
    that stored game's call log."""
    from parlour.models.registry import resolve

    calls: list[RecordedCall] | None = None
    found = _REPLAY_SOURCE.search(spec)
    if found:
        source = found.group("game")
        store.get_game(source)
        calls = recorded_calls(store.calls(source))
        spec = spec[: found.start()] + spec[found.start() :].split(":", 1)[0]
    try:
        return resolve(spec, base_url=base_url, calls=calls)
    except ModelError as err:
        raise ParlourError(str(err)) from err
