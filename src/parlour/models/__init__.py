"""The model layer: one async protocol, several backends, and the wrappers around them.

It knows nothing of games, seats or storage. Heavy backends (llama.cpp, the provider SDKs)
are imported only when first used: ``from parlour.models import LocalBackend`` works, but
``import parlour.models`` alone stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.models.base import (
    Capabilities,
    ModelBackend,
    ModelError,
    ModelTimeout,
    ModelUnavailable,
    Overloaded,
    RateLimited,
    ReplayDivergence,
)
from parlour.models.chaos import ChaosBackend
from parlour.models.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    OutputKind,
    OutputSpec,
    Settings,
    Usage,
    answer_schema,
    format_instruction,
    messages_digest,
)
from parlour.models.parse import AnswerFormatError, extract_json, parse_answer, try_parse
from parlour.models.pricing import DEFAULT_PRICES, Price, PriceTable, cost
from parlour.models.registry import BackendSpec, parse_spec, register, registered, resolve
from parlour.models.replay import RecordedCall, ReplayBackend
from parlour.models.transport import probe, with_concurrency_limit, with_retries, with_timeout

if TYPE_CHECKING:
    from parlour.models.anthropic_backend import AnthropicBackend
    from parlour.models.local import LocalBackend
    from parlour.models.openai_backend import OpenAIBackend

_LAZY = {
    "LocalBackend": "parlour.models.local",
    "OpenAIBackend": "parlour.models.openai_backend",
    "AnthropicBackend": "parlour.models.anthropic_backend",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'parlour.models' has no attribute {name!r}")


__all__ = [
    "DEFAULT_PRICES",
    "AnswerFormatError",
    "AnthropicBackend",
    "BackendSpec",
    "Capabilities",
    "ChaosBackend",
    "LocalBackend",
    "Message",
    "ModelBackend",
    "ModelError",
    "ModelRequest",
    "ModelResponse",
    "ModelTimeout",
    "ModelUnavailable",
    "OpenAIBackend",
    "OutputKind",
    "OutputSpec",
    "Overloaded",
    "Price",
    "PriceTable",
    "RateLimited",
    "RecordedCall",
    "ReplayBackend",
    "ReplayDivergence",
    "Settings",
    "Usage",
    "answer_schema",
    "cost",
    "extract_json",
    "format_instruction",
    "messages_digest",
    "parse_answer",
    "parse_spec",
    "probe",
    "register",
    "registered",
    "resolve",
    "try_parse",
    "with_concurrency_limit",
    "with_retries",
    "with_timeout",
]
