"""Wrappers that add timeouts, retries and a concurrency cap to any backend.

Each wrapper is itself a ModelBackend, so they compose:
``with_retries(with_timeout(with_concurrency_limit(backend, 4)), attempts=3)``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from parlour.models.base import Capabilities, ModelBackend, ModelError, ModelTimeout, RateLimited
from parlour.models.messages import ModelRequest, ModelResponse

T = TypeVar("T")


class PerLoop(Generic[T]):
    """One ``make()`` per event loop. An SDK client's connection pool belongs to the loop
    that opened its connections, and a worker may run one ``asyncio.run`` per game; a
    backend shared by those games asks this for its client instead of keeping one."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._value: T | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def get(self) -> T:
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if self._value is None or (loop is not None and self._loop not in (None, loop)):
            self._value = self._make()
            self._loop = loop
        elif self._loop is None:
            self._loop = loop  # made outside a loop: the first loop to use it owns it
        return self._value

    def forget(self) -> None:
        """The next ``get`` makes a new value (the caller closed this one)."""
        self._value = None
        self._loop = None


class WrappedBackend:
    """A backend that wraps ``inner`` and answers for it what it does not change itself:
    name, model id, capabilities and the start-up check."""

    def __init__(self, inner: ModelBackend) -> None:
        self.inner = inner

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def capabilities(self) -> Capabilities:
        return self.inner.capabilities

    async def check(self) -> None:
        """The wrapped backend's start-up check, when it has one."""
        await probe(self.inner)


async def probe(backend: ModelBackend) -> None:
    """Run ``backend.check()`` if the backend offers one (reachability, key, model file)."""
    check = getattr(backend, "check", None)
    if check is not None:
        await check()


class TimeoutBackend(WrappedBackend):
    """Raises ``ModelTimeout`` when a call outlives ``seconds`` (default: the request's own)."""

    def __init__(self, inner: ModelBackend, seconds: float | None = None) -> None:
        super().__init__(inner)
        self.seconds = seconds

    async def complete(self, request: ModelRequest) -> ModelResponse:
        limit = self.seconds if self.seconds is not None else request.settings.timeout_s
        try:
            return await asyncio.wait_for(self.inner.complete(request), timeout=limit)
        except TimeoutError as e:
            raise ModelTimeout(
                f"{self.inner.name} ({self.inner.model_id}) did not answer within {limit:g}s; "
                "raise the timeout or use a faster model"
            ) from e


class RetryingBackend(WrappedBackend):
    """Retries retryable errors (rate limits, 5xx, timeouts) with seeded jittered backoff."""

    def __init__(
        self,
        inner: ModelBackend,
        attempts: int = 4,
        *,
        base_delay: float = 0.5,
        max_delay: float = 20.0,
        seed: int = 0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        super().__init__(inner)
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        self.attempts = attempts
        self.base_delay = base_delay
        self.max_delay = max_delay
        self._rng = random.Random(seed)
        self._sleep = sleep
        self.delays: list[float] = []  # every backoff taken, for logs and tests

    def delay(self, attempt: int, error: ModelError) -> float:
        # "Equal jitter": half fixed, half random, so retries spread but still back off.
        cap = min(self.max_delay, self.base_delay * 2.0**attempt)
        wait = cap / 2 + self._rng.uniform(0, cap / 2)
        if isinstance(error, RateLimited) and error.retry_after is not None:
            wait = max(wait, error.retry_after)
        return wait

    async def complete(self, request: ModelRequest) -> ModelResponse:
        for attempt in range(self.attempts):
            try:
                response = await self.inner.complete(request)
            except ModelError as e:
                if not e.retryable or attempt == self.attempts - 1:
                    raise
                wait = self.delay(attempt, e)
                self.delays.append(wait)
                await self._sleep(wait)
                continue
            if attempt == 0:
                return response
            return response.model_copy(update={"raw": {**response.raw, "attempts": attempt + 1}})
        raise AssertionError("unreachable")  # the loop either returns or raises


class ConcurrencyLimitedBackend(WrappedBackend):
    """At most ``limit`` calls in flight at once (others wait their turn)."""

    def __init__(self, inner: ModelBackend, limit: int) -> None:
        super().__init__(inner)
        if limit < 1:
            raise ValueError("the concurrency limit must be at least 1")
        self.limit = limit
        self._semaphore = asyncio.Semaphore(limit)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        async with self._semaphore:
            return await self.inner.complete(request)


#: The wrappers by the names they compose under (see the module docstring).
with_timeout = TimeoutBackend
with_retries = RetryingBackend
with_concurrency_limit = ConcurrencyLimitedBackend
