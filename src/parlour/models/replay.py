"""Answer model calls from a recording, so a stored game replays without any model.

Calls are consumed in order *per stream* (``cache_key``), so the order in which concurrent
seats happen to ask does not matter. With ``strict=True`` (the default) each request's
messages must hash to the recorded digest, otherwise ``ReplayDivergence`` says which call
and which message changed.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict, deque
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from parlour.core.markers import without_nonce
from parlour.models.base import Capabilities, ReplayDivergence
from parlour.models.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    Usage,
    messages_digest,
)

_SNIPPET = 80


class RecordedCall(BaseModel):
    """One stored call: enough to answer it again and to explain a divergence."""

    model_config = ConfigDict(frozen=True)

    cache_key: str | None = None
    purpose: str = ""
    messages_digest: str
    messages: tuple[Message, ...] | None = Field(
        default=None, description="optional copy of the prompt, for divergence reports"
    )
    text: str
    parsed: Any | None = None
    parse_error: str | None = None
    usage: Usage = Field(default_factory=Usage)
    model_id: str = "replay"

    @classmethod
    def from_exchange(
        cls, request: ModelRequest, response: ModelResponse, *, keep_messages: bool = True
    ) -> RecordedCall:
        return cls(
            cache_key=request.cache_key,
            purpose=request.purpose,
            messages_digest=messages_digest(request.messages),
            messages=request.messages if keep_messages else None,
            text=response.text,
            parsed=response.parsed,
            parse_error=response.parse_error,
            usage=response.usage,
            model_id=response.model_id,
        )


def _old_marker_digest(messages: Sequence[Message]) -> str:
    """The digest the messages had before leak markers carried a per-game part: a game
    recorded then, with markers planted, replays (its markers are audit instrumentation,
    not what the model was told)."""
    return messages_digest(
        tuple(m.model_copy(update={"content": without_nonce(m.content)}) for m in messages)
    )


def _snip(message: Message | None) -> str:
    if message is None:
        return "(no message)"
    text = message.content.replace("\n", " ")
    text = text if len(text) <= _SNIPPET else text[: _SNIPPET - 1] + "…"
    return f"{message.role}: {text!r}"


def _first_difference(recorded: Sequence[Message], now: Sequence[Message]) -> str:
    for i in range(max(len(recorded), len(now))):
        old = recorded[i] if i < len(recorded) else None
        new = now[i] if i < len(now) else None
        if old is None or new is None or (old.role, old.content) != (new.role, new.content):
            return f"message {i} differs: recorded {_snip(old)}, now {_snip(new)}"
    return "the messages hash differently"  # only reachable with a corrupted digest


class ReplayBackend:
    """A ModelBackend that plays back ``RecordedCall``s in per-stream order."""

    name = "replay"
    capabilities = Capabilities(json_schema=True, grammar=False, prompt_cache=False)

    def __init__(
        self,
        calls: Sequence[RecordedCall],
        *,
        strict: bool = True,
        on_divergence: Callable[[str], None] | None = None,
    ) -> None:
        self._strict = strict
        #: Told (once) when the game first asks something the recording does not hold, so
        #: a person watching learns that the seats fall back from there on.
        self._on_divergence = on_divergence
        self.diverged = 0
        self._streams: dict[str | None, deque[tuple[int, RecordedCall]]] = defaultdict(deque)
        self._served: dict[str | None, int] = defaultdict(int)
        for index, call in enumerate(calls):
            self._streams[call.cache_key].append((index, call))
        models = {c.model_id for c in calls}
        self._model_id = models.pop() if len(models) == 1 else "replay"
        self._lock = asyncio.Lock()

    @property
    def model_id(self) -> str:
        return self._model_id

    def remaining(self) -> int:
        return sum(len(q) for q in self._streams.values())

    def resume_stream(self, key: str | None, answered: Sequence[bool]) -> None:
        """Skip the recorded calls a resumed game already consumed: one per answered call
        (a call that raised, e.g. on divergence, consumed nothing)."""
        queue = self._streams.get(key)
        for _ in range(sum(answered)):
            if not queue:
                break
            queue.popleft()
            self._served[key] += 1

    def _diverge(self, message: str) -> ReplayDivergence:
        self.diverged += 1
        if self.diverged == 1 and self._on_divergence is not None:
            self._on_divergence(message)
        return ReplayDivergence(message)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        key = request.cache_key
        async with self._lock:
            queue = self._streams.get(key)
            position = self._served[key]
            if not queue:
                raise self._diverge(
                    f"replay: no recorded call left for stream {key!r} (it had {position}); "
                    "the game asked for more model calls than were recorded — "
                    "re-record the game"
                )
            index, call = queue[0]
            digest = messages_digest(request.messages)
            if self._strict and digest != call.messages_digest:
                digest = _old_marker_digest(request.messages)
            if self._strict and digest != call.messages_digest:
                where = (
                    _first_difference(call.messages, request.messages)
                    if call.messages is not None
                    else "the messages differ (the recording kept only their digest)"
                )
                raise self._diverge(
                    f"replay: call #{index} (stream {key!r}, call {position} of that stream, "
                    f"purpose {call.purpose!r}): {where}; the prompts changed since recording "
                    "— re-record, or replay with strict=False to match by order only"
                )
            queue.popleft()
            self._served[key] = position + 1
        return ModelResponse(
            text=call.text,
            parsed=call.parsed,
            parse_error=call.parse_error,
            usage=call.usage,
            model_id=call.model_id,
            latency_s=0.0,
            raw={"replay_index": index},
        )
