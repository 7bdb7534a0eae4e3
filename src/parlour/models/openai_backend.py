"""Any OpenAI-compatible chat endpoint through the official ``openai`` SDK.

Works with OpenAI itself and with OpenRouter, Ollama, vLLM, LM Studio and llama.cpp's
servers via ``base_url``. Structured answers use, by ``structured`` mode:

- ``json_schema``: ``response_format={"type": "json_schema", ...}`` (OpenAI, vLLM, …);
  the default for api.openai.com;
- ``json_object``: ``{"type": "json_object", "schema": ...}`` plus a format instruction —
  servers that understand the ``schema`` extension (llama.cpp) enforce it, the others
  still return JSON; the default for other endpoints;
- ``none``: the format instruction only.

Every answer is parsed and validated by us whatever the server promised.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any, Literal

import openai

from parlour.models.base import (
    Capabilities,
    ModelError,
    ModelUnavailable,
    parsed_response,
)
from parlour.models.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    OutputKind,
    OutputSpec,
    Usage,
    answer_schema,
    format_instruction,
)
from parlour.models.sdk_backend import SdkBackend

StructuredMode = Literal["json_schema", "json_object", "none"]
OPENAI_URL = "https://api.openai.com/v1"
_MODES: tuple[StructuredMode, ...] = ("json_schema", "json_object", "none")


def _is_official(base_url: str) -> bool:
    return base_url.rstrip("/").startswith("https://api.openai.com")


class OpenAIBackend(SdkBackend[openai.AsyncOpenAI]):
    """Chat completions against ``base_url`` (default: ``$OPENAI_BASE_URL`` or OpenAI)."""

    name = "openai"
    sdk = openai
    sdk_error = openai.OpenAIError
    key_env = "OPENAI_API_KEY"
    url_env = "OPENAI_BASE_URL"
    default_url = OPENAI_URL
    unreachable_fix = "start the server or pass a working --base-url"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        structured: str | None = None,
        max_retries: int = 0,
        client: openai.AsyncOpenAI | None = None,
        embedding_model: str | None = None,
    ) -> None:
        super().__init__(
            model, base_url=base_url, api_key=api_key, max_retries=max_retries, client=client
        )
        mode = structured or ("json_schema" if _is_official(self.base_url) else "json_object")
        if mode not in _MODES:
            raise ModelError(f"unknown structured mode {mode!r}; use one of {', '.join(_MODES)}")
        self.structured: StructuredMode = mode
        #: The model ``embed`` asks for (``/v1/embeddings``); the chat model by default.
        self.embedding_model = embedding_model or model
        self._send_temperature = True

    def _key(self, key: str | None, url: str, given: bool) -> str | None:
        if not key:
            if _is_official(url):
                raise ModelUnavailable("set OPENAI_API_KEY or pass --base-url for a local server")
            key = "not-needed"  # local servers ignore the key but the SDK wants one
        return key

    def _new_client(self, url: str, key: str | None, max_retries: int) -> openai.AsyncOpenAI:
        return openai.AsyncOpenAI(base_url=url, api_key=key, max_retries=max_retries)

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(
            json_schema=self.structured == "json_schema",
            grammar=False,
            prompt_cache=_is_official(self.base_url),
            embeddings=True,
        )

    async def _list_models(self, client: openai.AsyncOpenAI, timeout_s: float) -> Any:
        return await client.models.list(timeout=timeout_s)

    def _messages(self, request: ModelRequest) -> list[dict[str, str]]:
        messages: list[Message] = list(request.messages)
        spec = request.output
        if spec.structured and self.structured != "json_schema":
            # json_object mode requires "JSON" in the prompt; the schema tells the keys.
            messages.append(Message(role="system", content=format_instruction(spec)))
        return [{"role": m.role, "content": m.content} for m in messages]

    def _response_format(self, spec: OutputSpec) -> dict[str, Any] | None:
        schema = answer_schema(spec)
        if schema is None or self.structured == "none":
            return None
        if self.structured == "json_object":
            return {"type": "json_object", "schema": schema}
        return {
            "type": "json_schema",
            "json_schema": {
                "name": "answer",
                "schema": schema,
                # Strict mode needs every property required and no extras: true of ours.
                "strict": spec.kind is OutputKind.CHOICE,
            },
        }

    def request_kwargs(self, request: ModelRequest) -> dict[str, Any]:
        """The keyword arguments for ``chat.completions.create`` (exposed for inspection)."""
        settings = request.settings
        official = _is_official(self.base_url)
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": self._messages(request),
            # OpenAI deprecated max_tokens; other servers mostly only know max_tokens.
            ("max_completion_tokens" if official else "max_tokens"): settings.max_tokens,
            "timeout": settings.timeout_s,
        }
        if self._send_temperature:
            kwargs["temperature"] = settings.temperature
        if settings.seed is not None:
            kwargs["seed"] = settings.seed
        response_format = self._response_format(request.output)
        if response_format is not None:
            kwargs["response_format"] = response_format
        return kwargs

    def _downgrade(self, error: openai.BadRequestError) -> bool:
        """Adapt to a model or server that rejected a parameter; True if worth a retry."""
        text = str(error.message).lower()
        if self._send_temperature and "temperature" in text:
            self._send_temperature = False  # e.g. reasoning models: fixed temperature
            return True
        if self.structured == "json_schema" and (
            "json_schema" in text or "response_format" in text
        ):
            self.structured = "json_object"  # no structured outputs here: JSON mode instead
            return True
        return False

    async def complete(self, request: ModelRequest) -> ModelResponse:
        started = time.perf_counter()
        for _ in range(3):  # at most two downgrades, then the error stands
            try:
                completion = await self.client.chat.completions.create(
                    **_light(self.request_kwargs(request))
                )
                break
            except openai.BadRequestError as e:
                if not self._downgrade(e):
                    raise self.map_error(e) from e
            except openai.OpenAIError as e:
                raise self.map_error(e) from e
        else:
            raise ModelError(f"{self.base_url} ({self.model}) rejected every request variant")
        latency = time.perf_counter() - started
        if not completion.choices:
            raise ModelError(f"{self.base_url} returned no choices", retryable=True)
        choice = completion.choices[0]
        text = choice.message.content or ""
        usage = Usage()
        if completion.usage is not None:
            details = completion.usage.prompt_tokens_details
            usage = Usage(
                input_tokens=completion.usage.prompt_tokens,
                output_tokens=completion.usage.completion_tokens,
                cached_input_tokens=(details.cached_tokens or 0) if details else 0,
            )
        return parsed_response(
            text,
            request.output,
            usage=usage,
            model_id=self.model_id,
            latency_s=latency,
            raw={
                "id": completion.id,
                "served_model": completion.model,
                "finish_reason": choice.finish_reason,
            },
            cut=choice.finish_reason == "length",
        )

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors from the endpoint's ``/v1/embeddings``, L2-normalised here (servers
        differ on whether they do), in the order of ``texts``.

        One text per request: some servers (llama-cpp-python with a chat model) give a
        text a different vector depending on the other texts of its batch, and recall
        must rank the same store the same way. Callers cache vectors per text.
        """
        where = f"{self.base_url} ({self.embedding_model} embeddings)"
        out: list[list[float]] = []
        for text in texts:
            try:
                result = await self.client.embeddings.create(
                    model=self.embedding_model, input=[text or " "]
                )
            except openai.OpenAIError as e:
                raise self.map_error(e, where) from e
            if len(result.data) != 1:
                raise ModelError(f"{where} returned {len(result.data)} vectors for one text")
            out.append(_unit(_pooled(result.data[0].embedding)))
        return out


#: The arguments the SDK would walk type by type before sending (``messages``, the answer's
#: JSON schema): plain JSON here already, so they travel as ``extra_body``, which is sent
#: as given. The SDK's recursive transform of them cost a quarter of a tournament's CPU
#: at 64 games in flight (cProfile, ``benchmarks/tournament_api_scale.py``).
_SENT_AS_IS = ("messages", "response_format")


def _light(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``create``'s arguments with the large JSON ones moved to ``extra_body`` (same body)."""
    heavy = {k: kwargs.pop(k) for k in _SENT_AS_IS if k in kwargs}
    return {**kwargs, "messages": [], "extra_body": heavy}


def _pooled(embedding: Any) -> list[float]:
    """One vector per text. Servers running a chat model without a pooling type (e.g.
    llama-cpp-python's) return one vector per token instead: those are mean-pooled."""
    if embedding and isinstance(embedding[0], list):
        width = len(embedding[0])
        return [sum(float(tok[i]) for tok in embedding) / len(embedding) for i in range(width)]
    return [float(x) for x in embedding]


def _unit(vector: list[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm > 0 else vector
