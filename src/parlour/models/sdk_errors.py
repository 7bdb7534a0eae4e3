"""SDK exceptions → our typed errors, shared by the OpenAI and Anthropic backends.

Both official SDKs are generated from the same template and raise identically named
exception classes, so one mapping serves both; each caller says which key to check and
what to do when the endpoint cannot be reached.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType

from parlour.models.base import ModelError, ModelTimeout, ModelUnavailable, Overloaded, RateLimited

#: HTTP statuses that say "the service is busy, come back later" (Anthropic sends 529).
OVERLOAD_STATUSES = (503, 529)


def one_line(text: str) -> str:
    return " ".join(text.split())[:300]


def map_sdk_error(
    sdk: ModuleType, e: Exception, where: str, *, key_env: str, unreachable_fix: str
) -> ModelError:
    """Translate an SDK exception into our typed errors, each naming a fix."""
    if isinstance(e, sdk.APITimeoutError):
        return ModelTimeout(f"{where} timed out; raise timeout_s or try again")
    if isinstance(e, sdk.APIConnectionError):
        return ModelUnavailable(
            f"cannot reach {where} ({one_line(str(e.__cause__ or e))}); {unreachable_fix}"
        )
    if isinstance(e, sdk.AuthenticationError):
        return ModelUnavailable(f"{where} rejected the API key; check {key_env}")
    if isinstance(e, sdk.RateLimitError):
        return RateLimited(
            f"{where} is rate limiting; slow down or retry later",
            retry_after=retry_after(e.response.headers),
        )
    if isinstance(e, sdk.NotFoundError):
        return ModelUnavailable(f"{where}: {one_line(e.message)}; check the model name")
    if isinstance(e, sdk.APIStatusError) and e.status_code in OVERLOAD_STATUSES:
        return Overloaded(
            f"{where} is overloaded (HTTP {e.status_code}); retry later",
            retry_after=retry_after(e.response.headers),
        )
    if isinstance(e, sdk.APIStatusError):
        return ModelError(
            f"{where} answered HTTP {e.status_code}: {one_line(e.message)}",
            retryable=e.status_code >= 500,
        )
    return ModelError(f"{where} failed: {one_line(str(e))}")


def retry_after(headers: Mapping[str, str]) -> float | None:
    """How long the provider asked us to wait, in seconds: ``retry-after-ms`` (OpenAI's
    finer form) or ``Retry-After`` in seconds. Its HTTP-date form, which APIs do not send
    in practice, and anything unreadable count as unsaid."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if not value:
            continue
        try:
            seconds = float(value) * scale
        except ValueError:
            continue
        if seconds >= 0:
            return seconds
    return None
