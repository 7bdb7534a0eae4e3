"""Anthropic request construction, checked on the wire through the real SDK."""

from __future__ import annotations

import pytest

from parlour.models import (
    Message,
    ModelRequest,
    ModelUnavailable,
    OutputSpec,
    Settings,
    probe,
    resolve,
    with_retries,
)
from parlour.models.anthropic_backend import _TAKES_TEMPERATURE, AnthropicBackend, build_payload

from .conftest import MessagesStub, free_port

IDS = ("alice", "bob", "carol")
HISTORY = (
    Message(role="system", content="Rules of the village game.", cache_boundary=True),
    Message(role="user", content="Day 1: alice accused bob."),
    Message(role="assistant", content="I defended bob."),
    Message(role="user", content="Day 2: carol was quiet.", cache_boundary=True),
    Message(role="user", content="Vote now."),
)


async def test_choice_payload_and_usage(messages_stub: MessagesStub) -> None:
    backend = AnthropicBackend("claude-haiku-4-5", base_url=messages_stub.url, api_key="test-key")
    response = await backend.complete(
        ModelRequest(
            messages=HISTORY, output=OutputSpec.choice(IDS), settings=Settings(max_tokens=100)
        )
    )
    body = messages_stub.requests[-1]
    # System is a list of blocks; the breakpoint sits on the flagged system block.
    assert body["system"] == [
        {
            "type": "text",
            "text": "Rules of the village game.",
            "cache_control": {"type": "ephemeral"},
        }
    ]
    # Roles alternate: the two trailing user messages merge, each keeping its own block;
    # the breakpoint marks the end of the stable history, not the command.
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    last = body["messages"][-1]["content"]
    assert last[0] == {
        "type": "text",
        "text": "Day 2: carol was quiet.",
        "cache_control": {"type": "ephemeral"},
    }
    assert last[1] == {"type": "text", "text": "Vote now."}
    assert "cache_control" not in body["messages"][0]["content"][0]
    # Structured answers are a forced tool call with the spec's schema.
    assert body["tool_choice"] == {"type": "tool", "name": "answer"}
    assert body["tools"][0]["input_schema"]["properties"]["choice"]["enum"] == list(IDS)
    assert body["max_tokens"] == 100 and body["model"] == "claude-haiku-4-5"
    # The answer and the usage, cache reads and writes included.
    assert response.parsed == {"choice": "bob", "why": "quiet"}
    assert response.usage.input_tokens == 12 + 100 + 5
    assert response.usage.cached_input_tokens == 100
    assert response.usage.cache_write_input_tokens == 5
    assert response.model_id == "anthropic:claude-haiku-4-5"


async def test_free_text_has_no_tools(messages_stub: MessagesStub) -> None:
    backend = resolve("anthropic:claude-haiku-4-5", base_url=messages_stub.url, api_key="k")
    response = await backend.complete(
        ModelRequest(messages=HISTORY[:2], settings=Settings(temperature=1.5))
    )
    body = messages_stub.requests[-1]
    assert "tools" not in body and "tool_choice" not in body
    if _TAKES_TEMPERATURE:  # SDKs that still take sampling parameters
        assert body["temperature"] == 1.0  # clamped to the API's range
    else:
        assert "temperature" not in body
    assert response.text == "Good morning, village."


def test_payload_edge_cases() -> None:
    # No flag, no breakpoint; a late system message stays in place (as user text).
    system, turns = build_payload(
        [
            Message(role="user", content="a"),
            Message(role="system", content="b"),
            Message(role="assistant", content="c"),
        ]
    )
    assert system == []
    assert turns[0]["content"] == [
        {"type": "text", "text": "a"},
        {"type": "text", "text": "[system] b"},
    ]
    # At most four breakpoints (the API's limit): the last four flagged messages.
    flagged = [Message(role="user", content=str(i), cache_boundary=True) for i in range(6)]
    _, turns = build_payload(flagged)
    marks = [b["text"] for b in turns[0]["content"] if "cache_control" in b]
    assert marks == ["2", "3", "4", "5"]


def test_missing_key_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ModelUnavailable, match="ANTHROPIC_API_KEY"):
        resolve("anthropic:claude-haiku-4-5")


async def test_check_reaches_the_api_or_names_the_fix(messages_stub: MessagesStub) -> None:
    await AnthropicBackend("claude-haiku-4-5", base_url=messages_stub.url, api_key="k").check()
    dead = AnthropicBackend(
        "claude-haiku-4-5", base_url=f"http://127.0.0.1:{free_port()}", api_key="k"
    )
    with pytest.raises(ModelUnavailable, match="cannot reach") as info:
        await probe(with_retries(dead))  # wrappers pass the check through
    assert "\n" not in str(info.value)
