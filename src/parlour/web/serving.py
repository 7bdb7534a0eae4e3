"""The web server's connection limits: no visitor holds a connection open for free.

uvicorn closes an idle keep-alive connection after ``timeout_keep_alive`` seconds, but
not one that sends its request a byte at a time (slowloris), nor one that connects and
sends nothing. ``patient_protocol`` gives each request ``seconds`` to arrive whole
(headers and body) from the moment the connection opens or the last answer ends; after
that the connection is closed. A stream (server-sent events) is an answer in progress,
not a request, so it is never cut.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a client has to send a whole request.
REQUEST_SECONDS = 10.0
#: Seconds an idle keep-alive connection stays open.
KEEP_ALIVE_SECONDS = 5
#: The largest request head (line and headers) a client may send, in bytes.
MAX_HEAD = 16 * 1024


def patient_protocol(seconds: float = REQUEST_SECONDS) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing connections whose request is not whole in time."""

    class Patient(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
                self._disarm()  # the request is whole

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if (
                self.conn.their_state in (h11.IDLE, h11.SEND_BODY)
                and not self.transport.is_closing()
            ):
                self.transport.close()

    return Patient


def server_options(request_seconds: float = REQUEST_SECONDS) -> dict[str, Any]:
    """uvicorn.Config keyword arguments for a server on a network."""
    return {
        "http": patient_protocol(request_seconds),
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "h11_max_incomplete_event_size": MAX_HEAD,
    }
