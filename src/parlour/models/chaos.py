"""A backend that misbehaves on purpose, to prove that games survive bad model output.

``ChaosBackend(inner, rate, seed)`` answers a fraction ``rate`` of calls itself with one of
``KINDS``: malformed JSON, an illegal option (an unknown id, or a real id dressed up with a
title), an empty answer, a timeout or an error; the rest go to ``inner``. Call ``n`` of a
stream (``cache_key``) draws from a generator seeded with (seed, stream, n) alone, so the
injected faults of a seat do not depend on how concurrent seats interleave, and a resumed
game (``resume_stream``) draws exactly what an uninterrupted one would have.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Final

from parlour.models.base import (
    ModelBackend,
    ModelError,
    ModelTimeout,
    Resumable,
    parsed_response,
)
from parlour.models.messages import ModelRequest, ModelResponse, OutputKind, OutputSpec
from parlour.models.transport import WrappedBackend

KINDS: Final = ("malformed_json", "illegal_option", "empty", "timeout", "error")
_TITLES: Final = ("Sir", "Dr.", "Lady", "Captain", "the honourable")


def _malformed(spec: OutputSpec, rng: random.Random) -> str:
    key = "choices" if spec.kind is OutputKind.CHOICES else "choice"
    pick = rng.choice(spec.option_ids) if spec.option_ids else "x"
    forms = (
        f'{{"{key}": "{pick}", "why": "I think',  # cut off mid-string
        f"{{{key}: {pick}, why: because}}",  # unquoted keys and values
        f"```json\n{{'{key}': '{pick}'}}\n```",  # single quotes inside a fence
        f'Sure! Here is my answer: "{key}" = {pick}',  # prose, no object
    )
    return rng.choice(forms)


def _illegal(spec: OutputSpec, rng: random.Random) -> str:
    if spec.kind in (OutputKind.CHOICE, OutputKind.CHOICES):
        real = rng.choice(spec.option_ids)
        bogus = rng.choice(
            (
                f"{rng.choice(_TITLES)} {real.title()}",  # a name with a title
                f"{real} (the {rng.choice(('baker', 'wolf', 'seer'))})",
                f"option_{len(spec.option_ids) + rng.randrange(1, 99)}",  # not in the list
            )
        )
        if spec.kind is OutputKind.CHOICE:
            return json.dumps({"choice": bogus, "why": "it felt right"})
        return json.dumps({"choices": [real, bogus], "why": "it felt right"})
    if spec.kind is OutputKind.JSON:
        return json.dumps({"unexpected": True})
    # Free text has no options; break its length bound instead.
    limit = spec.max_chars or 2000
    return "blah " * (limit // 5 + 2)


class ChaosBackend(WrappedBackend):
    """Wraps ``inner``; at ``rate`` injects one of ``kinds`` instead of asking it."""

    @property
    def name(self) -> str:
        return "chaos"

    def __init__(
        self,
        inner: ModelBackend,
        rate: float = 0.5,
        seed: int = 0,
        kinds: Sequence[str] = KINDS,
    ) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ModelError(f"chaos rate must be between 0 and 1, got {rate}")
        unknown = sorted(set(kinds) - set(KINDS))
        if unknown or not kinds:
            raise ModelError(
                f"unknown chaos kinds {unknown or '(none given)'}; valid: {', '.join(KINDS)}"
            )
        super().__init__(inner)
        self.rate = rate
        self.seed = seed
        self.kinds = tuple(kinds)
        self._calls: dict[str | None, int] = defaultdict(int)

    def _rng(self, key: str | None, index: int) -> random.Random:
        # String seeds hash deterministically (sha512), unlike hash() of a str.
        return random.Random(f"chaos:{self.seed}:{key}:{index}")

    def _fault(self, rng: random.Random) -> str | None:
        if rng.random() >= self.rate:
            return None
        return rng.choice(self.kinds)

    def draw(self, key: str | None) -> str | None:
        """The fault for the next call of stream ``key`` (``None``: delegate); counts it."""
        index = self._calls[key]
        self._calls[key] = index + 1
        return self._fault(self._rng(key, index))

    def resume_stream(self, key: str | None, answered: Sequence[bool]) -> None:
        """Skip the calls a resumed game already made; the inner backend is told about
        the ones that reached it (whose outcome is theirs: chaos passes them through)."""
        start = self._calls[key]
        delegated = [
            ok
            for index, ok in enumerate(answered, start)
            if self._fault(self._rng(key, index)) is None
        ]
        self._calls[key] = start + len(answered)
        if delegated and isinstance(self.inner, Resumable):
            self.inner.resume_stream(key, delegated)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        key = request.cache_key
        index = self._calls[key]
        kind = self.draw(key)
        if kind is None:
            return await self.inner.complete(request)
        rng = self._rng(key, index)
        self._fault(rng)  # the same draws as ``draw``, then the fault's own
        if kind == "timeout":
            raise ModelTimeout(f"chaos: injected timeout after {request.settings.timeout_s}s")
        if kind == "error":
            raise ModelError("chaos: injected server error (HTTP 500)", retryable=True)
        spec = request.output
        if kind == "empty":
            text = ""
        elif kind == "malformed_json":
            text = _malformed(spec, rng) if spec.structured else '{"text": "unfinished'
        else:
            text = _illegal(spec, rng)
        return parsed_response(
            text, spec, model_id=f"chaos:{self.inner.model_id}", raw={"chaos": kind}
        )
