"""Timeouts, retries and concurrency caps, exercised through real SDK calls."""

from __future__ import annotations

import asyncio

import pytest

from parlour.models import (
    Message,
    ModelRequest,
    ModelTimeout,
    ModelUnavailable,
    OutputSpec,
    RateLimited,
    Settings,
    with_concurrency_limit,
    with_retries,
    with_timeout,
)
from parlour.models.anthropic_backend import AnthropicBackend
from parlour.models.openai_backend import OpenAIBackend

from .conftest import MessagesStub, free_port

REQUEST = ModelRequest(
    messages=(Message(role="user", content="Vote."),),
    output=OutputSpec.choice(("alice", "bob")),
    settings=Settings(max_tokens=50, timeout_s=5),
)


def claude(stub: MessagesStub) -> AnthropicBackend:
    return AnthropicBackend("claude-haiku-4-5", base_url=stub.url, api_key="k")


async def test_rate_limits_are_retried_then_succeed(messages_stub: MessagesStub) -> None:
    messages_stub.fail_first = 2
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    backend = with_retries(claude(messages_stub), attempts=4, base_delay=0.1, seed=7, sleep=sleep)
    response = await backend.complete(REQUEST)
    assert response.parsed == {"choice": "bob", "why": "quiet"}
    assert response.raw["attempts"] == 3
    assert len(messages_stub.requests) == 3
    assert backend.delays == slept and len(slept) == 2
    # Exponential with equal jitter: attempt k waits within [cap/2, cap], cap = 0.1 * 2**k.
    assert 0.05 <= slept[0] <= 0.1 and 0.1 <= slept[1] <= 0.2
    # Seeded: the same seed gives the same backoff schedule.
    again = with_retries(claude(messages_stub), attempts=4, base_delay=0.1, seed=7, sleep=sleep)
    assert [again.delay(k, RateLimited("x")) for k in range(2)] == slept


async def test_retries_are_bounded(messages_stub: MessagesStub) -> None:
    messages_stub.fail_first = 10

    async def sleep(seconds: float) -> None:
        pass

    backend = with_retries(claude(messages_stub), attempts=3, sleep=sleep)
    with pytest.raises(RateLimited, match="rate limiting"):
        await backend.complete(REQUEST)
    assert len(messages_stub.requests) == 3


async def test_permanent_errors_are_not_retried() -> None:
    backend = with_retries(
        OpenAIBackend("m", base_url=f"http://127.0.0.1:{free_port()}/v1"), attempts=5
    )
    with pytest.raises(ModelUnavailable):
        await backend.complete(REQUEST)
    assert backend.delays == []


async def test_timeout_fires(messages_stub: MessagesStub) -> None:
    messages_stub.delay_s = 2.0
    backend = with_timeout(claude(messages_stub), seconds=0.2)
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(ModelTimeout, match=r"within 0\.2s"):
        await backend.complete(REQUEST)
    assert loop.time() - started < 1.5
    # The request's own timeout_s applies too (the SDK's timeout, mapped to ModelTimeout).
    slow = ModelRequest(messages=REQUEST.messages, settings=Settings(timeout_s=0.2))
    with pytest.raises(ModelTimeout):
        await claude(messages_stub).complete(slow)


async def test_concurrency_limit(messages_stub: MessagesStub) -> None:
    messages_stub.delay_s = 0.15
    backend = with_concurrency_limit(claude(messages_stub), 2)
    responses = await asyncio.gather(*(backend.complete(REQUEST) for _ in range(6)))
    assert len(responses) == 6
    assert messages_stub.max_in_flight == 2
    assert backend.name == "anthropic" and backend.model_id == "anthropic:claude-haiku-4-5"
