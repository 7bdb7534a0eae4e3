"""Chaos: every fault kind occurs, rate 0 is transparent, and it is seeded."""

from __future__ import annotations

from collections import Counter

import pytest

from parlour.models import (
    ChaosBackend,
    Message,
    ModelError,
    ModelRequest,
    ModelResponse,
    ModelTimeout,
    OutputSpec,
    RecordedCall,
    ReplayBackend,
    resolve,
)
from parlour.models.chaos import KINDS

IDS = ("alice", "bob", "carol")
MESSAGES = (Message(role="user", content="Vote."),)


def inner(n: int = 200, keys: tuple[str, ...] = ("k",)) -> ReplayBackend:
    """A real backend with n legal answers per stream (matched by order)."""
    calls = [
        RecordedCall(
            cache_key=k,
            messages_digest="-",
            text='{"choice": "bob", "why": "x"}',
            parsed={"choice": "bob", "why": "x"},
        )
        for k in keys
        for _ in range(n)
    ]
    return ReplayBackend(calls, strict=False)


async def outcome(backend: ChaosBackend, spec: OutputSpec, key: str = "k") -> tuple[str, str]:
    try:
        r = await backend.complete(ModelRequest(messages=MESSAGES, output=spec, cache_key=key))
    except ModelTimeout:
        return "timeout", ""
    except ModelError:
        return "error", ""
    return str(r.raw.get("chaos", "ok")), r.text


async def test_rate_one_injects_every_kind_and_never_a_legal_answer() -> None:
    seen: Counter[str] = Counter()
    illegal: list[str] = []
    for seed in range(8):
        backend = ChaosBackend(inner(), rate=1.0, seed=seed)
        for _ in range(10):
            try:
                r = await backend.complete(
                    ModelRequest(messages=MESSAGES, output=OutputSpec.choice(IDS))
                )
            except ModelTimeout:
                seen["timeout"] += 1
                continue
            except ModelError as e:
                assert e.retryable
                seen["error"] += 1
                continue
            kind = r.raw["chaos"]
            seen[kind] += 1
            assert r.parsed is None and r.parse_error  # nothing injected is a legal answer
            if kind == "illegal_option":
                illegal.append(r.text)
    assert set(seen) == set(KINDS)
    # Both flavours of illegal option: an id not in the list, and a real name with a title.
    assert any("option_" in t for t in illegal)
    assert any(
        any(title in t for title in ("Sir", "Dr.", "Lady", "Captain", "honourable", "(the"))
        for t in illegal
    )


async def test_other_specs_get_faults_too() -> None:
    backend = ChaosBackend(inner(), rate=1.0, seed=3, kinds=("illegal_option",))
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    r = await backend.complete(
        ModelRequest(messages=MESSAGES, output=OutputSpec.json_schema(schema))
    )
    assert r.parsed is None and "required" in (r.parse_error or "")
    r = await backend.complete(
        ModelRequest(messages=MESSAGES, output=OutputSpec.text(max_chars=50))
    )
    assert r.parsed is None and "too long" in (r.parse_error or "")
    r = await backend.complete(
        ModelRequest(messages=MESSAGES, output=OutputSpec.choices(IDS, 1, 2))
    )
    assert r.parsed is None and "not legal" in (r.parse_error or "")


async def test_rate_zero_is_the_inner_backend() -> None:
    plain, wrapped = inner(5), ChaosBackend(inner(5), rate=0.0, seed=1)
    for _ in range(5):
        request = ModelRequest(messages=MESSAGES, output=OutputSpec.choice(IDS), cache_key="k")
        expected: ModelResponse = await plain.complete(request)
        assert await wrapped.complete(request) == expected
    assert wrapped.model_id == plain.model_id and wrapped.capabilities == plain.capabilities


async def test_seeded_and_independent_of_interleaving() -> None:
    spec = OutputSpec.choice(IDS)

    async def run(seed: int, order: list[str]) -> dict[str, list[tuple[str, str]]]:
        backend = ChaosBackend(inner(keys=("a", "b")), rate=0.5, seed=seed)
        out: dict[str, list[tuple[str, str]]] = {"a": [], "b": []}
        for key in order:
            out[key].append(await outcome(backend, spec, key))
        return out

    first = await run(11, ["a", "b"] * 10)
    assert await run(11, ["a"] * 10 + ["b"] * 10) == first  # same per-stream faults
    assert await run(12, ["a", "b"] * 10) != first


def test_spec_and_validation() -> None:
    backend = resolve("chaos(rate=0.25,seed=4,kinds=timeout|empty):replay", calls=[])
    assert isinstance(backend, ChaosBackend)
    assert (backend.rate, backend.seed, backend.kinds) == (0.25, 4, ("timeout", "empty"))
    assert isinstance(backend.inner, ReplayBackend)
    with pytest.raises(ModelError, match="valid: malformed_json"):
        ChaosBackend(inner(), kinds=("gremlins",))
    with pytest.raises(ModelError, match="between 0 and 1"):
        ChaosBackend(inner(), rate=2.0)
