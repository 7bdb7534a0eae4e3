"""Per-provider limits shared by every game of a worker, and a spending cap.

``ProviderLimits`` (typed, JSON-ready) caps requests per minute, tokens per minute and
calls in flight. A ``Limiter`` enforces them for one provider on one event loop, for all
the games that loop plays. ``LimitedBackend`` wraps a backend: each call waits its turn
under the limiter, reserves its worst-case cost from a ``CostBudget`` (when there is one)
before it starts and settles the real cost after, and an HTTP 429 or an overload (503,
529) pauses the whole provider for the ``Retry-After`` the provider asked for (else an
exponential backoff) before the call is tried again. So a game never sees a rate limit
as a failed answer, and what it is answered does not depend on how many games share the
provider.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from parlour.models.base import (
    Embedder,
    ModelBackend,
    ModelError,
    RetryLater,
    embedder_of,
)
from parlour.models.messages import ModelRequest, ModelResponse, Usage
from parlour.models.pricing import cost
from parlour.models.transport import WrappedBackend

#: Backoff without a Retry-After: this many seconds, doubled per attempt, up to the cap.
BASE_BACKOFF_S = 1.0
#: The learned spacing between call starts (see ``Limiter.pause``): it shrinks by
#: ``SHRINK`` per answer and widens by ``GROW`` per refusal, so it settles just above the
#: provider's limit with about one refusal per (GROW - 1) / (1 - SHRINK) answers.
SHRINK = 0.999
GROW = 1.05


@dataclass(frozen=True)
class ProviderLimits:
    """What one provider allows a worker. ``None``: no cap of that kind.

    ``max_wait_s``: how long one call may keep waiting out 429s and overloads before the
    error reaches the seat (which retries, then falls back); ``max_backoff_s`` caps the
    backoff when the provider gave no ``Retry-After`` (one it gave is honoured).
    """

    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None
    in_flight: int | None = None
    max_wait_s: float = 600.0
    max_backoff_s: float = 60.0

    def __post_init__(self) -> None:
        for name in ("requests_per_minute", "tokens_per_minute", "in_flight"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or value <= 0):
                flag = "--" + {"requests_per_minute": "rpm", "tokens_per_minute": "tpm"}.get(
                    name, "in-flight"
                )
                raise ModelError(f"{flag} {value}: give a positive number, e.g. {flag} 60")
        for name in ("max_wait_s", "max_backoff_s"):
            if getattr(self, name) <= 0:
                raise ModelError(f"{name} {getattr(self, name)}: give a positive number")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ProviderLimits:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


def estimated_tokens(request: ModelRequest) -> tuple[int, int]:
    """A generous guess at a call's (input, output) tokens before it is made: about three
    characters a token plus a little per message, and the request's output cap."""
    chars = sum(len(m.content) for m in request.messages)
    return chars // 3 + 8 * len(request.messages) + 32, request.settings.max_tokens


@dataclass
class _Bucket:
    """A token bucket: ``rate`` per second, holding at most ``capacity`` (a second's worth,
    at least one call). A call larger than the capacity waits for a full bucket and leaves
    it in debt, so the average rate still holds."""

    rate: float
    capacity: float
    level: float
    last: float

    def refill(self, now: float) -> None:
        self.level = min(self.capacity, self.level + (now - self.last) * self.rate)
        self.last = now

    def wait(self, now: float, need: float) -> float:
        self.refill(now)
        need = min(need, self.capacity)
        return max(0.0, (need - self.level) / self.rate)

    def take(self, amount: float) -> None:
        self.level -= amount

    def give_back(self, amount: float) -> None:
        self.level = min(self.capacity, self.level + amount)


def _bucket(per_minute: float | None, now: float) -> _Bucket | None:
    if per_minute is None:
        return None
    rate = per_minute / 60.0
    capacity = max(1.0, rate)
    return _Bucket(rate, capacity, capacity, now)


class Limiter:
    """``ProviderLimits`` for one provider, shared by every call made on one event loop
    (the primitives are made again if the loop changes, e.g. one ``asyncio.run`` per game).

    Calls are admitted in arrival order: a call first takes a slot (``in_flight``), then,
    one at a time, waits until the request and token buckets hold enough and no pause
    asked by the provider is running.
    """

    def __init__(
        self,
        limits: ProviderLimits,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.limits = limits
        self._clock = clock
        self._sleep = sleep
        now = clock()
        self._requests = _bucket(limits.requests_per_minute, now)
        self._tokens = _bucket(limits.tokens_per_minute, now)
        self._paused_until = now
        #: Learned from 429s: the least time between two starts (see ``pause``).
        self.spacing = 0.0
        self._next_start = now
        self._answered: deque[float] = deque(maxlen=256)
        self._objected = -math.inf  # when the provider last refused a call (see ``pause``)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._turn = asyncio.Lock()
        self._slots: asyncio.Semaphore | None = None
        self.in_flight = 0
        #: For reports and tests: the most calls in flight at once, every pause taken.
        self.peak_in_flight = 0
        self.pauses: list[float] = []

    def now(self) -> float:
        return self._clock()

    def _bind(self) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop = loop
            self._turn = asyncio.Lock()
            n = self.limits.in_flight
            self._slots = asyncio.Semaphore(n) if n is not None else None
            self.in_flight = 0

    async def acquire(self, tokens: int) -> None:
        """Wait until a call of about ``tokens`` tokens may start; then it counts as in
        flight until ``release``."""
        self._bind()
        if self._slots is not None:
            await self._slots.acquire()
        try:
            async with self._turn:
                while True:
                    now = self._clock()
                    wait = max(self._paused_until, self._next_start) - now
                    if self._requests is not None:
                        wait = max(wait, self._requests.wait(now, 1))
                    if self._tokens is not None:
                        wait = max(wait, self._tokens.wait(now, tokens))
                    if wait <= 0:
                        break
                    await self._sleep(wait)
                if self._requests is not None:
                    self._requests.take(1)
                if self._tokens is not None:
                    self._tokens.take(tokens)
                self._next_start = now + self.spacing
        except BaseException:
            if self._slots is not None:
                self._slots.release()
            raise
        self.in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self.in_flight)

    def release(self, reserved_tokens: int, used_tokens: int) -> None:
        """The call is over; tokens it reserved but did not use go back."""
        self.in_flight -= 1
        if self._slots is not None:
            self._slots.release()
        if self._tokens is not None and used_tokens < reserved_tokens:
            self._tokens.give_back(reserved_tokens - used_tokens)

    def answered(self) -> None:
        """A call got its answer: the learned spacing shrinks a little (``SHRINK`` a
        call), so the rate creeps back up until the provider objects again."""
        self._answered.append(self._clock())
        self.spacing *= SHRINK

    def pause(self, seconds: float, started: float | None = None) -> None:
        """The provider said to slow down: no call of this provider starts for ``seconds``.
        From then on calls start no closer together than the provider's recent answers
        came (their rate over the last 10 s), so waiting callers do not all retry at once;
        a later objection widens that spacing by ``GROW``. ``started``: when the refused
        call started (the limiter's clock); a refusal of a call that started before the
        last one was seen says nothing new and only extends the pause (64 calls refused
        together widen the spacing once, not 64 times)."""
        now = self._clock()
        self.pauses.append(seconds)
        self._paused_until = max(self._paused_until, now + seconds)
        # The refused call did not use its turn: the next one may go when the provider
        # said, not a whole spacing after the refused one.
        self._next_start = min(self._next_start, self._paused_until)
        if started is not None and started < self._objected:
            return
        self._objected = now
        if self.spacing > 0:
            self.spacing *= GROW
            return
        recent = [t for t in self._answered if t > now - 10.0]
        if len(recent) >= 2 and now > recent[0]:
            self.spacing = (now - recent[0]) / len(recent)


class BudgetSpent(BaseException):
    """The next call would not fit in the budget. Like ``KeyboardInterrupt`` it is not a
    failed answer (no retry, no fallback): it stops the game where it stands, with every
    applied action stored, so a later resume continues it."""


@dataclass
class CostBudget:
    """A USD cap shared by every call of a worker. A call reserves its worst case before
    it starts and settles its real cost when it ends; the first call that would not fit
    stops the worker's games (``BudgetSpent``), and every later one too. The spend can
    pass the cap only by what the calls in flight cost beyond their reservations."""

    limit_usd: float
    spent_usd: float = 0.0
    reserved_usd: float = 0.0
    exhausted: bool = False
    calls: int = field(default=0)

    def reserve(self, usd: float) -> None:
        if self.exhausted or self.spent_usd + self.reserved_usd + usd > self.limit_usd:
            self.exhausted = True
            raise BudgetSpent(
                f"budget ${self.limit_usd:.4f}: ${self.spent_usd:.4f} spent, "
                f"${self.reserved_usd:.4f} in flight, the next call may cost ${usd:.4f}"
            )
        self.reserved_usd += usd
        self.calls += 1

    def settle(self, reserved: float, actual: float) -> None:
        self.reserved_usd = max(0.0, self.reserved_usd - reserved)
        self.spent_usd += actual


def _used_tokens(usage: Usage) -> int:
    return usage.input_tokens + usage.output_tokens


class LimitedBackend(WrappedBackend):
    """``inner`` under a shared ``Limiter`` and, optionally, a shared ``CostBudget``."""

    def __init__(
        self,
        inner: ModelBackend,
        limiter: Limiter,
        budget: CostBudget | None = None,
    ) -> None:
        super().__init__(inner)
        self.limiter = limiter
        self.budget = budget

    def _backoff(self, attempt: int, error: RetryLater) -> float:
        if error.retry_after is not None:
            return error.retry_after
        return min(self.limiter.limits.max_backoff_s, BASE_BACKOFF_S * 2.0**attempt)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        tokens_in, tokens_out = estimated_tokens(request)
        tokens = tokens_in + tokens_out
        worst = cost(self.model_id, Usage(input_tokens=tokens_in, output_tokens=tokens_out))
        give_up = time.monotonic() + self.limiter.limits.max_wait_s
        attempt = 0
        while True:
            await self.limiter.acquire(tokens)
            started = self.limiter.now()
            used = 0
            actual = 0.0
            try:
                if self.budget is not None:
                    self.budget.reserve(worst)
                try:
                    response = await self.inner.complete(request)
                    self.limiter.answered()
                    used = _used_tokens(response.usage)
                    actual = cost(response.model_id, response.usage)
                    return response
                finally:
                    if self.budget is not None:
                        self.budget.settle(worst, actual)
            except RetryLater as err:
                wait = self._backoff(attempt, err)
                if time.monotonic() + wait > give_up:
                    raise
                self.limiter.pause(wait, started)
                attempt += 1
            finally:
                self.limiter.release(tokens, used)

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """The inner backend's vectors, each text one call under the limiter."""
        inner: Embedder | None = embedder_of(self.inner)
        if inner is None:
            raise ModelError(f"{self.model_id} does not embed texts")
        out: list[list[float]] = []
        for text in texts:
            tokens = len(text) // 3 + 8
            await self.limiter.acquire(tokens)
            try:
                out.extend(await inner.embed([text]))
            finally:
                self.limiter.release(tokens, tokens)
        return out
