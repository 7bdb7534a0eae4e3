"""An LLM seat answering from recorded calls, and a sink that keeps its attempts: what the
tests of retries, guards and fallbacks drive (a real LlmSeat and ReplayBackend, no fake)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from parlour.core.policy import Policy
from parlour.core.prompting import Prompter
from parlour.models.base import ModelBackend
from parlour.models.replay import RecordedCall, ReplayBackend
from parlour.seats.llm import Attempt, LlmSeat


class Attempts:
    """An attempt sink that keeps every attempt, in order."""

    def __init__(self) -> None:
        self.items: list[Attempt] = []

    def record(self, attempt: Attempt) -> None:
        self.items.append(attempt)


def replay_seat(
    prompter: Prompter,
    policy: Policy,
    answers: Sequence[Any],
    *,
    seat_id: str,
    purpose: str,
    seed: int,
    cache_key: str = "seat",
) -> tuple[LlmSeat, Attempts]:
    """A seat whose model gives ``answers`` in order, one per attempt: a string is the raw
    text; anything else is sent as its JSON and parsed as it is."""
    calls = [
        RecordedCall(
            cache_key=cache_key,
            purpose=purpose,
            messages_digest="-",
            text=a if isinstance(a, str) else json.dumps(a),
            parsed=None if isinstance(a, str) else a,
        )
        for a in answers
    ]
    backend = ReplayBackend(calls, strict=False)
    return kept_seat(backend, prompter, policy, seat_id=seat_id, seed=seed, cache_key=cache_key)


def kept_seat(
    backend: ModelBackend,
    prompter: Prompter,
    policy: Policy,
    *,
    seat_id: str,
    seed: int,
    cache_key: str = "",
) -> tuple[LlmSeat, Attempts]:
    """An LLM seat over ``backend`` whose every attempt is kept (its cache key: ``seat_id``
    unless given)."""
    sink = Attempts()
    seat = LlmSeat(
        backend,
        prompter,
        policy,
        seat_id=seat_id,
        seed=seed,
        cache_key=cache_key or seat_id,
        sink=sink,
    )
    return seat, sink
