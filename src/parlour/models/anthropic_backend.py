"""Anthropic's Messages API through the official ``anthropic`` SDK.

Prompt caching: every message flagged ``cache_boundary`` (the last four, the API's limit)
gets a ``cache_control: {"type": "ephemeral"}`` breakpoint on its last content block, so
the stable prefix up to it is read from the cache on later calls. Leading system messages
become the ``system`` parameter (a list of text blocks, so they can carry breakpoints too);
later system messages stay in place as user text, because moving them would change the
prefix. Structured answers are a forced tool call whose ``input_schema`` is the spec's
schema.
"""

from __future__ import annotations

import inspect
import json
import os
import time
from typing import Any

import anthropic

from parlour.models.base import (
    Capabilities,
    ModelError,
    ModelUnavailable,
    parsed_response,
)
from parlour.models.messages import Message, ModelRequest, ModelResponse, Usage, answer_schema
from parlour.models.sdk_errors import map_sdk_error
from parlour.models.transport import PerLoop

ANSWER_TOOL = "answer"
MAX_BREAKPOINTS = 4
_EPHEMERAL = {"type": "ephemeral"}
# Newer SDKs (2.x) no longer take sampling parameters; send temperature only where they do.
_TAKES_TEMPERATURE = (
    "temperature" in inspect.signature(anthropic.resources.messages.AsyncMessages.create).parameters
)


def _map_error(e: Exception, where: str) -> ModelError:
    return map_sdk_error(
        anthropic,
        e,
        where,
        key_env="ANTHROPIC_API_KEY",
        unreachable_fix="check the network or --base-url",
    )


def build_payload(
    messages: tuple[Message, ...] | list[Message],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``(system_blocks, messages)`` for the Messages API, with cache breakpoints placed."""
    flagged = [i for i, m in enumerate(messages) if m.cache_boundary][-MAX_BREAKPOINTS:]
    system: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    leading = True
    for i, m in enumerate(messages):
        block: dict[str, Any] = {"type": "text", "text": m.content}
        if i in flagged:
            block["cache_control"] = dict(_EPHEMERAL)
        if m.role == "system" and leading:
            system.append(block)
            continue
        leading = False
        role = "assistant" if m.role == "assistant" else "user"
        if m.role == "system":
            block["text"] = f"[system] {m.content}"
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].append(block)  # the API wants alternating roles
        else:
            turns.append({"role": role, "content": [block]})
    if not turns or turns[0]["role"] != "user":
        turns.insert(0, {"role": "user", "content": [{"type": "text", "text": "(begin)"}]})
    return system, turns


class AnthropicBackend:
    """Claude models via ``AsyncAnthropic``; key from ``api_key`` or ``$ANTHROPIC_API_KEY``."""

    name = "anthropic"
    capabilities = Capabilities(json_schema=True, grammar=False, prompt_cache=True)

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        max_retries: int = 0,
        client: anthropic.AsyncAnthropic | None = None,
    ) -> None:
        key = api_key or os.environ.get("ANTHROPIC_API_KEY")
        if not key and client is None:
            raise ModelUnavailable(
                "set ANTHROPIC_API_KEY (or pass api_key) to use anthropic models"
            )
        self.model = model
        self.base_url = (
            base_url or os.environ.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com"
        )
        # Retries belong to parlour's transport wrappers (seeded, logged), not the SDK.
        # One client per event loop (games of a worker may each run their own loop).
        self._given = client
        self._clients = PerLoop(
            lambda: anthropic.AsyncAnthropic(
                api_key=key, base_url=self.base_url, max_retries=max_retries
            )
        )

    @property
    def client(self) -> anthropic.AsyncAnthropic:
        return self._given if self._given is not None else self._clients.get()

    @property
    def model_id(self) -> str:
        return f"anthropic:{self.model}"

    async def check(self, timeout_s: float = 10.0) -> None:
        """Fail fast, with a one-line error naming the fix, if the API is unusable."""
        client = self.client
        try:
            await client.models.list(limit=1, timeout=timeout_s)
        except anthropic.AnthropicError as e:
            raise _map_error(e, self.base_url) from e
        finally:
            if self._given is None:  # a probe's loop ends with it: close its client here
                self._clients.forget()
                await client.close()

    def request_kwargs(self, request: ModelRequest) -> dict[str, Any]:
        """The keyword arguments for ``messages.create`` (exposed for inspection)."""
        settings = request.settings
        system, turns = build_payload(request.messages)
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": settings.max_tokens,
            "messages": turns,
            "timeout": settings.timeout_s,
        }
        if _TAKES_TEMPERATURE:
            kwargs["temperature"] = min(settings.temperature, 1.0)  # the API's range is [0, 1]
        if system:
            kwargs["system"] = system
        schema = answer_schema(request.output)
        if schema is not None:
            kwargs["tools"] = [
                {
                    "name": ANSWER_TOOL,
                    "description": "Give your answer in exactly this shape.",
                    "input_schema": schema,
                }
            ]
            kwargs["tool_choice"] = {"type": "tool", "name": ANSWER_TOOL}
        return kwargs

    async def complete(self, request: ModelRequest) -> ModelResponse:
        started = time.perf_counter()
        try:
            message = await self.client.messages.create(**self.request_kwargs(request))
        except anthropic.AnthropicError as e:
            raise _map_error(e, f"{self.base_url} ({self.model})") from e
        latency = time.perf_counter() - started
        text_parts: list[str] = []
        tool_input: Any = None
        for block in message.content:
            if block.type == "tool_use" and block.name == ANSWER_TOOL:
                tool_input = block.input
            elif block.type == "text":
                text_parts.append(block.text)
        text = (
            json.dumps(tool_input, ensure_ascii=False)
            if tool_input is not None
            else "".join(text_parts)
        )
        u = message.usage
        cached = u.cache_read_input_tokens or 0
        written = u.cache_creation_input_tokens or 0
        return parsed_response(
            text,
            request.output,
            usage=Usage(
                # Anthropic's input_tokens excludes cache reads and writes; ours counts all.
                input_tokens=u.input_tokens + cached + written,
                output_tokens=u.output_tokens,
                cached_input_tokens=cached,
                cache_write_input_tokens=written,
            ),
            model_id=self.model_id,
            latency_s=latency,
            raw={
                "id": message.id,
                "stop_reason": message.stop_reason,
                "served_model": message.model,
            },
        )

    async def aclose(self) -> None:
        await self.client.close()
