"""What the OpenAI and Anthropic backends share: a client per event loop, the start-up
check, error mapping and closing.

Both official SDKs are generated from the same template (``sdk_errors.py``), so a backend
built on either one differs from the other only in how it calls the API; this base holds
the rest once.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from types import ModuleType
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from parlour.models.base import ModelError
from parlour.models.sdk_errors import map_sdk_error
from parlour.models.transport import PerLoop


class _Closable(Protocol):
    async def close(self) -> None: ...


ClientT = TypeVar("ClientT", bound=_Closable)


class SdkBackend(ABC, Generic[ClientT]):
    """A backend on an official SDK client. Subclasses name the SDK, its errors and its
    environment, and implement ``_key`` (what a missing key means), ``_new_client`` and
    ``_list_models`` (the cheapest call that proves the key and endpoint)."""

    name: ClassVar[str]
    #: The SDK module (its exception classes map to our errors) and its base exception.
    sdk: ModuleType
    sdk_error: ClassVar[type[Exception]]
    #: Environment variables for the key and the endpoint, and the endpoint by default.
    key_env: ClassVar[str]
    url_env: ClassVar[str]
    default_url: ClassVar[str]
    #: What an error says to do when the endpoint cannot be reached.
    unreachable_fix: ClassVar[str]

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        max_retries: int = 0,
        client: ClientT | None = None,
    ) -> None:
        url = base_url or os.environ.get(self.url_env) or self.default_url
        key = self._key(api_key or os.environ.get(self.key_env), url, client is not None)
        self.model = model
        self.base_url = url
        # Retries belong to parlour's transport wrappers (seeded, logged), not the SDK.
        # One client per event loop (games of a worker may each run their own loop).
        self._given = client
        self._clients = PerLoop(lambda: self._new_client(url, key, max_retries))

    @abstractmethod
    def _key(self, key: str | None, url: str, given: bool) -> str | None:
        """The key to use (``given``: a client was passed in); raise when there is none."""

    @abstractmethod
    def _new_client(self, url: str, key: str | None, max_retries: int) -> ClientT:
        """A new SDK client for ``url`` (one per event loop)."""

    @abstractmethod
    async def _list_models(self, client: ClientT, timeout_s: float) -> Any:
        """The cheapest call that proves the key and the endpoint."""

    @property
    def client(self) -> ClientT:
        return self._given if self._given is not None else self._clients.get()

    @property
    def model_id(self) -> str:
        return f"{self.name}:{self.model}"

    def map_error(self, e: Exception, where: str | None = None) -> ModelError:
        """Our typed error for an SDK exception; ``where``: the endpoint and model."""
        return map_sdk_error(
            self.sdk,
            e,
            where or f"{self.base_url} ({self.model})",
            key_env=self.key_env,
            unreachable_fix=self.unreachable_fix,
        )

    async def check(self, timeout_s: float = 10.0) -> None:
        """Fail fast, with a one-line error naming the fix, if the endpoint is unusable."""
        client = self.client
        try:
            await self._list_models(client, timeout_s)
        except self.sdk_error as e:
            raise self.map_error(e, self.base_url) from e
        finally:
            if self._given is None:  # a probe's loop ends with it: close its client here
                self._clients.forget()
                await client.close()

    async def aclose(self) -> None:
        await self.client.close()
