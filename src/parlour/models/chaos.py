"""A backend that misbehaves on purpose, to prove that games survive bad model output.

``ChaosBackend(inner, rate, seed)`` answers a fraction ``rate`` of calls itself with one of
``KINDS``: malformed JSON, an illegal option (an unknown id, or a real id dressed up with a
title), an empty answer, a timeout or an error; the rest go to ``inner``. Each stream
(``cache_key``) draws from its own seeded generator, so the injected faults of a seat do not
depend on how concurrent seats interleave.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Final

from parlour.models.base import Capabilities, ModelBackend, ModelError, ModelTimeout
from parlour.models.messages import ModelRequest, ModelResponse, OutputKind, OutputSpec, Usage
from parlour.models.parse import try_parse

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


class ChaosBackend:
    """Wraps ``inner``; at ``rate`` injects one of ``kinds`` instead of asking it."""

    name = "chaos"

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
        self.inner = inner
        self.rate = rate
        self.seed = seed
        self.kinds = tuple(kinds)
        self._rngs: dict[str | None, random.Random] = {}

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def capabilities(self) -> Capabilities:
        return self.inner.capabilities

    async def check(self) -> None:
        check = getattr(self.inner, "check", None)
        if check is not None:
            await check()

    def _rng(self, key: str | None) -> random.Random:
        if key not in self._rngs:
            # String seeds hash deterministically (sha512), unlike hash() of a str.
            self._rngs[key] = random.Random(f"chaos:{self.seed}:{key}")
        return self._rngs[key]

    def draw(self, key: str | None) -> str | None:
        """The fault for the next call of stream ``key`` (``None``: delegate)."""
        rng = self._rng(key)
        if rng.random() >= self.rate:
            return None
        return rng.choice(self.kinds)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        kind = self.draw(request.cache_key)
        if kind is None:
            return await self.inner.complete(request)
        rng = self._rng(request.cache_key)
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
        parsed, error = try_parse(text, spec)
        return ModelResponse(
            text=text,
            parsed=parsed,
            parse_error=error,
            usage=Usage(),
            model_id=f"chaos:{self.inner.model_id}",
            latency_s=0.0,
            raw={"chaos": kind},
        )
