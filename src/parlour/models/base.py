"""The provider-neutral backend protocol and the typed errors every backend raises."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from parlour.core.errors import ParlourError
from parlour.models.messages import ModelRequest, ModelResponse, OutputKind, OutputSpec, Usage
from parlour.models.parse import finish_cut_text, try_parse


@dataclass(frozen=True)
class Capabilities:
    """What a backend can enforce natively (callers may still validate everything)."""

    json_schema: bool = False  # the provider constrains answers to a JSON schema
    grammar: bool = False  # arbitrary grammars (GBNF) are enforced token by token
    prompt_cache: bool = False  # repeated prefixes are cheaper (provider or KV cache)
    #: Too small for hard jobs (measured): a seat that needs a capable model is given to
    #: its game's script instead when this backend is only the default (the embedded model).
    small: bool = False
    embeddings: bool = False  # ``embed(texts)`` returns vectors (see ``Embedder``)


@runtime_checkable
class ModelBackend(Protocol):
    """One way of answering a ``ModelRequest``. Backends know nothing of games."""

    @property
    def name(self) -> str: ...

    @property
    def model_id(self) -> str: ...

    @property
    def capabilities(self) -> Capabilities: ...

    async def complete(self, request: ModelRequest) -> ModelResponse: ...


@runtime_checkable
class Resumable(Protocol):
    """A backend whose answers depend on how many calls each stream (``cache_key``) made.

    ``resume_stream(key, answered)`` fast-forwards stream ``key`` past calls made before a
    resume: one flag per earlier call, in order, true when that call got an answer and
    false when it raised. Replay and chaos implement it, so a resumed game goes on exactly
    as an uninterrupted one would.
    """

    def resume_stream(self, key: str | None, answered: Sequence[bool]) -> None: ...


@runtime_checkable
class Embedder(Protocol):
    """A backend that turns texts into vectors (one per text, same length, L2-normalised
    where the backend can say so). Backends with ``capabilities.embeddings`` implement it."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


def embedder_of(backend: ModelBackend) -> Embedder | None:
    """The backend as an ``Embedder`` when its capabilities say it embeds, else ``None``."""
    if backend.capabilities.embeddings and isinstance(backend, Embedder):
        return backend
    return None


class ModelError(ParlourError):
    """A model call failed. The message names the fix. ``retryable``: worth another try."""

    retryable: bool = False

    def __init__(self, message: str, *, retryable: bool | None = None) -> None:
        super().__init__(message)
        if retryable is not None:
            self.retryable = retryable


class ModelUnavailable(ModelError):
    """The backend cannot be used at all: missing key, unreachable endpoint, missing model."""


class ModelTimeout(ModelError):
    """The call took longer than its timeout."""

    retryable = True


class RetryLater(ModelError):
    """The provider said to come back later; ``retry_after`` in seconds when it said when."""

    retryable = True

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateLimited(RetryLater):
    """The provider asked us to slow down."""


class Overloaded(RetryLater):
    """The provider is overloaded or briefly unavailable (HTTP 503, 529): worth another
    try later."""


class ReplayDivergence(ModelError):
    """A replayed game asked for something the recording does not contain."""


def parsed_response(
    text: str,
    spec: OutputSpec,
    *,
    model_id: str,
    usage: Usage | None = None,
    latency_s: float = 0.0,
    raw: dict[str, Any] | None = None,
    cut: bool = False,
) -> ModelResponse:
    """A backend's ``ModelResponse`` for ``text``: parsed against ``spec`` (``try_parse``).

    ``cut``: the model was stopped by a token or character limit before it finished. Free
    text is then trimmed to its last finished sentence (``finish_cut_text``), so no word
    cut in half reaches a reader; ``raw["cut_text"]`` keeps what the model wrote."""
    if cut and spec.kind is OutputKind.TEXT:
        trimmed = finish_cut_text(text)
        if trimmed != text:
            raw = {**(raw or {}), "cut_text": text}
            text = trimmed
    parsed, error = try_parse(text, spec)
    return ModelResponse(
        text=text,
        parsed=parsed,
        parse_error=error,
        usage=usage or Usage(),
        model_id=model_id,
        latency_s=latency_s,
        raw=raw or {},
    )
