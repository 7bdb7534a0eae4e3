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
import time
from typing import Any

import anthropic

from parlour.models.base import Capabilities, ModelUnavailable, parsed_response
from parlour.models.messages import Message, ModelRequest, ModelResponse, Usage, answer_schema
from parlour.models.sdk_backend import SdkBackend

ANSWER_TOOL = "answer"
MAX_BREAKPOINTS = 4
_EPHEMERAL = {"type": "ephemeral"}
# Newer SDKs (2.x) no longer take sampling parameters; send temperature only where they do.
_TAKES_TEMPERATURE = (
    "temperature" in inspect.signature(anthropic.resources.messages.AsyncMessages.create).parameters
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


class AnthropicBackend(SdkBackend[anthropic.AsyncAnthropic]):
    """Claude models via ``AsyncAnthropic``; key from ``api_key`` or ``$ANTHROPIC_API_KEY``."""

    name = "anthropic"
    capabilities = Capabilities(json_schema=True, grammar=False, prompt_cache=True)
    sdk = anthropic
    sdk_error = anthropic.AnthropicError
    key_env = "ANTHROPIC_API_KEY"
    url_env = "ANTHROPIC_BASE_URL"
    default_url = "https://api.anthropic.com"
    unreachable_fix = "check the network or --base-url"

    def _key(self, key: str | None, url: str, given: bool) -> str | None:
        if not key and not given:
            raise ModelUnavailable(
                "set ANTHROPIC_API_KEY (or pass api_key) to use anthropic models"
            )
        return key

    def _new_client(self, url: str, key: str | None, max_retries: int) -> anthropic.AsyncAnthropic:
        return anthropic.AsyncAnthropic(api_key=key, base_url=url, max_retries=max_retries)

    async def _list_models(self, client: anthropic.AsyncAnthropic, timeout_s: float) -> Any:
        return await client.models.list(limit=1, timeout=timeout_s)

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
            raise self.map_error(e) from e
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
            cut=message.stop_reason == "max_tokens",
        )
