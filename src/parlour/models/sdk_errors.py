"""SDK exceptions → our typed errors, shared by the OpenAI and Anthropic backends.

Both official SDKs are generated from the same template and raise identically named
exception classes, so one mapping serves both; each caller says which key to check and
what to do when the endpoint cannot be reached.
"""

from __future__ import annotations

from types import ModuleType

from parlour.models.base import ModelError, ModelTimeout, ModelUnavailable, RateLimited


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
        after = e.response.headers.get("retry-after")
        try:
            retry_after = float(after) if after else None
        except ValueError:
            retry_after = None
        return RateLimited(
            f"{where} is rate limiting; slow down or retry later", retry_after=retry_after
        )
    if isinstance(e, sdk.NotFoundError):
        return ModelUnavailable(f"{where}: {one_line(e.message)}; check the model name")
    if isinstance(e, sdk.APIStatusError):
        return ModelError(
            f"{where} answered HTTP {e.status_code}: {one_line(e.message)}",
            retryable=e.status_code >= 500,
        )
    return ModelError(f"{where} failed: {one_line(str(e))}")
