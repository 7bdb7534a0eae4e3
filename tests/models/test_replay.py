"""Replaying recorded calls: per-stream order, divergence reports, storage round trip."""

from __future__ import annotations

import asyncio

import pytest

from parlour.models import (
    Message,
    ModelError,
    ModelRequest,
    ModelResponse,
    OutputSpec,
    RecordedCall,
    ReplayBackend,
    ReplayDivergence,
    Usage,
    messages_digest,
    resolve,
)


def prompt(seat: str, turn: int) -> tuple[Message, ...]:
    return (
        Message(role="system", content=f"You are {seat}.", cache_boundary=True),
        Message(role="user", content=f"Turn {turn}: vote."),
    )


def recording() -> list[RecordedCall]:
    calls = []
    for turn in range(3):
        for seat in ("A", "B"):
            request = ModelRequest(
                messages=prompt(seat, turn),
                output=OutputSpec.choice(("x", "y")),
                cache_key=f"g:{seat}",
                purpose="vote",
            )
            response = ModelResponse(
                text=f'{{"choice": "x", "why": "{seat}{turn}"}}',
                parsed={"choice": "x", "why": f"{seat}{turn}"},
                usage=Usage(input_tokens=10, output_tokens=5, cached_input_tokens=turn),
                model_id="openai:gpt-4o-mini",
            )
            calls.append(RecordedCall.from_exchange(request, response))
    return calls


async def test_answers_follow_per_stream_order_whatever_the_interleaving() -> None:
    backend = ReplayBackend(recording())
    # All of B's calls first, then A's, concurrently: each stream still gets its own order.
    requests = [ModelRequest(messages=prompt("B", t), cache_key="g:B") for t in range(3)]
    requests += [ModelRequest(messages=prompt("A", t), cache_key="g:A") for t in range(3)]
    responses = await asyncio.gather(*(backend.complete(r) for r in requests))
    assert [r.parsed["why"] for r in responses] == ["B0", "B1", "B2", "A0", "A1", "A2"]
    assert responses[0].usage == Usage(input_tokens=10, output_tokens=5, cached_input_tokens=0)
    assert responses[0].model_id == backend.model_id == "openai:gpt-4o-mini"
    assert backend.remaining() == 0


async def test_divergence_names_the_call_and_the_message() -> None:
    backend = ReplayBackend(recording())
    await backend.complete(ModelRequest(messages=prompt("A", 0), cache_key="g:A"))
    changed = (prompt("A", 1)[0], Message(role="user", content="Turn 1: vote, quickly."))
    with pytest.raises(ReplayDivergence) as info:
        await backend.complete(ModelRequest(messages=changed, cache_key="g:A"))
    text = str(info.value)
    assert "call #2" in text and "'g:A'" in text and "'vote'" in text
    assert "message 1 differs" in text
    assert "Turn 1: vote." in text and "Turn 1: vote, quickly." in text
    assert "strict=False" in text


async def test_non_strict_matches_by_order_only() -> None:
    backend = ReplayBackend(recording(), strict=False)
    response = await backend.complete(
        ModelRequest(messages=(Message(role="user", content="anything"),), cache_key="g:B")
    )
    assert response.parsed["why"] == "B0"


async def test_running_out_is_a_divergence() -> None:
    backend = ReplayBackend(recording()[:1])
    await backend.complete(ModelRequest(messages=prompt("A", 0), cache_key="g:A"))
    with pytest.raises(ReplayDivergence, match="no recorded call left for stream 'g:A'"):
        await backend.complete(ModelRequest(messages=prompt("A", 1), cache_key="g:A"))
    with pytest.raises(ReplayDivergence, match="'g:C'"):
        await backend.complete(ModelRequest(messages=prompt("C", 0), cache_key="g:C"))


async def test_digest_only_recordings_still_diverge_clearly() -> None:
    calls = [c.model_copy(update={"messages": None}) for c in recording()]
    backend = ReplayBackend(calls)
    with pytest.raises(ReplayDivergence, match="kept only their digest"):
        await backend.complete(ModelRequest(messages=prompt("A", 5), cache_key="g:A"))


async def test_stored_calls_round_trip_and_resolve() -> None:
    stored = [c.model_dump(mode="json") for c in recording()]
    assert [RecordedCall.model_validate(s) for s in stored] == recording()
    backend = resolve("replay", calls=stored)
    response = await backend.complete(ModelRequest(messages=prompt("A", 0), cache_key="g:A"))
    assert response.parsed["why"] == "A0"
    with pytest.raises(ModelError, match="needs recorded calls"):
        resolve("replay")


def test_digest_ignores_cache_hints_but_not_content() -> None:
    plain = [Message(role="user", content="hi")]
    flagged = [Message(role="user", content="hi", cache_boundary=True)]
    assert messages_digest(plain) == messages_digest(flagged)
    assert messages_digest(plain) != messages_digest([Message(role="system", content="hi")])
    assert len(messages_digest(plain)) == 64
