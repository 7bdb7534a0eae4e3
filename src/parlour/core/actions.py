"""Answers to decisions. A tagged union so that stored actions round-trip exactly."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _ActionBase(BaseModel):
    model_config = ConfigDict(frozen=True)

    reason: str = Field(default="", description="the seat's stated why; rules never read it")


class Choice(_ActionBase):
    kind: Literal["choice"] = "choice"
    option: str


class Choices(_ActionBase):
    kind: Literal["choices"] = "choices"
    options: tuple[str, ...]


class Text(_ActionBase):
    kind: Literal["text"] = "text"
    text: str


class Structured(_ActionBase):
    kind: Literal["object"] = "object"
    value: dict[str, Any]


Action = Annotated[Choice | Choices | Text | Structured, Field(discriminator="kind")]

_ADAPTER: TypeAdapter[Choice | Choices | Text | Structured] = TypeAdapter(Action)


def action_from_json(raw: str | dict[str, Any]) -> Action:
    """Parse a stored action (JSON text or dict)."""
    data = json.loads(raw) if isinstance(raw, str) else raw
    return _ADAPTER.validate_python(data)


def action_to_json(action: Action) -> str:
    return action.model_dump_json()
