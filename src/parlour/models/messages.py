"""The model layer's own value types: messages, output specs, settings, usage, responses.

Everything here is a frozen pydantic model so that requests and responses can be stored
and replayed byte for byte (``model_dump(mode="json")`` / ``model_validate``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Literal

import jsonschema
from pydantic import BaseModel, ConfigDict, Field, model_validator

Role = Literal["system", "user", "assistant"]


#: How a seat's retry message opens, after an invalid answer: the one thing a backend may
#: read to know it is being asked again (the indiscreet model does).
RETRY_OPENING = "Invalid answer:"


class Message(BaseModel):
    """One chat message. ``cache_boundary`` marks "the stable prefix ends after this one"."""

    model_config = ConfigDict(frozen=True)

    role: Role
    content: str
    cache_boundary: bool = False


class OutputKind(StrEnum):
    TEXT = "text"
    CHOICE = "choice"
    CHOICES = "choices"
    JSON = "json"


class OutputSpec(BaseModel):
    """What shape the answer must have. Build with the classmethods, not the constructor."""

    model_config = ConfigDict(frozen=True)

    kind: OutputKind = OutputKind.TEXT
    max_chars: int | None = None
    #: free text as prose: no headings, markup or tags (and no line breaks unless
    #: ``multiline``), grammar-enforced where the backend can
    plain: bool = False
    multiline: bool = False
    option_ids: tuple[str, ...] = ()
    min_choices: int = 1
    max_choices: int = 1
    object_schema: dict[str, Any] | None = None

    @classmethod
    def text(
        cls, max_chars: int | None = None, *, plain: bool = False, multiline: bool = False
    ) -> OutputSpec:
        """Free text, at most ``max_chars`` characters (``None``: bounded by max_tokens only);
        ``plain``: prose without markup, one paragraph unless ``multiline``."""
        return cls(kind=OutputKind.TEXT, max_chars=max_chars, plain=plain, multiline=multiline)

    @classmethod
    def choice(cls, option_ids: Sequence[str]) -> OutputSpec:
        """``{"choice": <one of option_ids>, "why": str}``."""
        return cls(kind=OutputKind.CHOICE, option_ids=tuple(option_ids))

    @classmethod
    def choices(cls, option_ids: Sequence[str], min: int = 1, max: int | None = None) -> OutputSpec:
        """``{"choices": [<distinct ids>], "why": str}`` with ``min <= len <= max``."""
        ids = tuple(option_ids)
        return cls(
            kind=OutputKind.CHOICES,
            option_ids=ids,
            min_choices=min,
            max_choices=len(ids) if max is None else max,
        )

    @classmethod
    def json_schema(cls, schema: dict[str, Any]) -> OutputSpec:
        """An object valid against ``schema`` (JSON Schema 2020-12, top-level type object)."""
        return cls(kind=OutputKind.JSON, object_schema=schema)

    @model_validator(mode="after")
    def _consistent(self) -> OutputSpec:
        if self.max_chars is not None and self.max_chars <= 0:
            raise ValueError("max_chars must be positive")
        if self.kind in (OutputKind.CHOICE, OutputKind.CHOICES):
            if len(set(self.option_ids)) != len(self.option_ids):
                raise ValueError("duplicate option ids")
            if any(not i for i in self.option_ids):
                raise ValueError("option ids must be non-empty")
        if self.kind is OutputKind.CHOICE and not self.option_ids:
            raise ValueError("a choice needs at least one option id")
        if self.kind is OutputKind.CHOICES and not (
            0 <= self.min_choices <= self.max_choices <= len(self.option_ids)
        ):
            raise ValueError("need 0 <= min_choices <= max_choices <= number of options")
        if self.kind is OutputKind.JSON:
            if self.object_schema is None:
                raise ValueError("a json spec needs a schema")
            jsonschema.Draft202012Validator.check_schema(self.object_schema)
            if self.object_schema.get("type") != "object":
                raise ValueError("a json spec's schema must have type 'object'")
        return self

    @property
    def structured(self) -> bool:
        return self.kind is not OutputKind.TEXT


def answer_schema(spec: OutputSpec) -> dict[str, Any] | None:
    """The JSON schema a structured answer must satisfy (``None`` for free text).

    Both keys are required here because providers' strict modes demand it; the parser is
    more forgiving and accepts a choice without a "why".
    """
    why = {"type": "string"}
    if spec.kind is OutputKind.CHOICE:
        return {
            "type": "object",
            "properties": {"choice": {"type": "string", "enum": list(spec.option_ids)}, "why": why},
            "required": ["choice", "why"],
            "additionalProperties": False,
        }
    if spec.kind is OutputKind.CHOICES:
        items: dict[str, Any] = {"type": "string", "enum": list(spec.option_ids)}
        return {
            "type": "object",
            "properties": {
                "choices": {
                    "type": "array",
                    "items": items,
                    "minItems": spec.min_choices,
                    "maxItems": spec.max_choices,
                    "uniqueItems": True,
                },
                "why": why,
            },
            "required": ["choices", "why"],
            "additionalProperties": False,
        }
    if spec.kind is OutputKind.JSON:
        return spec.object_schema
    return None


def format_instruction(spec: OutputSpec) -> str:
    """One sentence telling a model how to shape its answer (empty for free text)."""
    if spec.kind is OutputKind.CHOICE:
        ids = ", ".join(json.dumps(i) for i in spec.option_ids)
        return (
            'Answer with only a JSON object {"choice": <id>, "why": <short reason>} '
            f"where <id> is exactly one of: {ids}."
        )
    if spec.kind is OutputKind.CHOICES:
        ids = ", ".join(json.dumps(i) for i in spec.option_ids)
        return (
            'Answer with only a JSON object {"choices": [<ids>], "why": <short reason>} '
            f"choosing between {spec.min_choices} and {spec.max_choices} distinct ids from: {ids}."
        )
    if spec.kind is OutputKind.JSON:
        schema = json.dumps(spec.object_schema, separators=(",", ":"), sort_keys=True)
        return f"Answer with only a JSON object valid against this JSON schema: {schema}"
    if spec.plain and spec.multiline:
        shape = "plain prose lines (no markdown, headings with # or tags)"
    elif spec.plain:
        shape = "one paragraph of plain prose (no headings, lists or markup)"
    else:
        shape = "plain text"
    if spec.max_chars is not None:
        return f"Answer in {shape}, at most {spec.max_chars} characters."
    if spec.plain:
        return f"Answer in {shape}."
    return ""


class Settings(BaseModel):
    """Sampling and time limits for one call. ``seed=None``: the backend's own seed."""

    model_config = ConfigDict(frozen=True)

    temperature: float = Field(default=0.7, ge=0.0, le=2.0)
    max_tokens: int = Field(default=256, gt=0)
    #: Nucleus and repetition settings; None: the backend's own default (the local backend
    #: has measured ones per purpose, ``models/local.py``; hosted APIs use theirs).
    top_p: float | None = Field(default=None, gt=0.0, le=1.0)
    repeat_penalty: float | None = Field(default=None, ge=1.0, le=2.0)
    seed: int | None = None
    timeout_s: float = Field(default=60.0, gt=0.0)


class Usage(BaseModel):
    """Token counts. ``input_tokens`` counts the whole prompt, cached or not;
    ``cached_input_tokens`` is the part served from a cache (provider or local KV);
    ``cache_write_input_tokens`` the part written to a provider cache (billed extra)."""

    model_config = ConfigDict(frozen=True)

    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    cache_write_input_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cached_input_tokens=self.cached_input_tokens + other.cached_input_tokens,
            cache_write_input_tokens=self.cache_write_input_tokens + other.cache_write_input_tokens,
        )


class ModelRequest(BaseModel):
    """One call. ``cache_key`` names the caller's stream (e.g. "game:seat") for KV caching
    and replay ordering; ``purpose`` is a free tag stored with the call (e.g. "vote")."""

    model_config = ConfigDict(frozen=True)

    messages: tuple[Message, ...]
    output: OutputSpec = Field(default_factory=OutputSpec.text)
    settings: Settings = Field(default_factory=Settings)
    cache_key: str | None = None
    purpose: str = ""

    @model_validator(mode="after")
    def _non_empty(self) -> ModelRequest:
        if not self.messages:
            raise ValueError("a model request needs at least one message")
        return self


class ModelResponse(BaseModel):
    """The answer. ``parsed`` is set only when ``text`` parsed and satisfied the spec;
    otherwise ``parse_error`` says why, in words that can be shown back to the model."""

    model_config = ConfigDict(frozen=True)

    text: str
    parsed: Any | None = None
    parse_error: str | None = None
    usage: Usage = Field(default_factory=Usage)
    model_id: str
    latency_s: float = 0.0
    raw: dict[str, Any] = Field(default_factory=dict)


def messages_digest(messages: Sequence[Message]) -> str:
    """sha256 of the canonical JSON of (role, content) pairs; cache hints don't count."""
    canon = json.dumps(
        [[m.role, m.content] for m in messages],
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()
