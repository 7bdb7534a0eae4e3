"""Shared fixtures: the bundled model, a local backend, and llama.cpp's OpenAI server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from parlour.models.local import LocalBackend, bundled_model_path
from tests.support.processes import stop


@pytest.fixture(scope="session")
def gguf() -> Path:
    return bundled_model_path()


@pytest.fixture(scope="module")
def local(gguf: Path) -> LocalBackend:
    """One model per test module; tests use distinct cache keys so they don't interact."""
    return LocalBackend(gguf, n_ctx=2048, seed=3)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def llama_server(gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """llama-cpp-python's own OpenAI-compatible server on a free local port."""
    yield from _serve(gguf, tmp_path_factory)


@pytest.fixture(scope="session")
def llama_embedding_server(gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The same server with ``/v1/embeddings`` on, in its own process so the chat tests'
    server stays exactly as it was."""
    yield from _serve(gguf, tmp_path_factory, "--embedding", "true")


def _serve(gguf: Path, tmp_path_factory: pytest.TempPathFactory, *extra: str) -> Iterator[str]:
    port = free_port()
    log = tmp_path_factory.mktemp("llama_server") / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                str(Path(__file__).parents[1] / "support" / "llama_server.py"),
                "--model",
                str(gguf),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_ctx",
                "2048",
                # Leave a core free: llama.cpp's spinning threads crawl when oversubscribed.
                "--n_threads",
                str(max(1, (os.cpu_count() or 2) - 1)),
                "--n_threads_batch",
                str(max(1, (os.cpu_count() or 2) - 1)),
                "--seed",
                "1",
                *extra,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited early:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{base_url}/models", timeout=2) as r:
                    if r.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.3)
        yield base_url
    finally:
        stop(proc, grace=10)


class MessagesStub:
    """A minimal stand-in for Anthropic's Messages API, only to capture OUR payloads.

    The real service is unreachable here; this returns canned responses shaped like the
    API's, after ``fail_first`` HTTP 429s (to exercise retries through the real SDK).
    """

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.fail_first = 0
        self.delay_s = 0.0
        self.in_flight = 0
        self.max_in_flight = 0
        self._count_lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        # A client that timed out has hung up; its broken pipe is expected, not news.
        self._server.handle_error = lambda request, address: None  # type: ignore[method-assign]
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        if body.get("tools"):
            content: list[dict[str, Any]] = [
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "answer",
                    "input": {"choice": "bob", "why": "quiet"},
                }
            ]
            stop = "tool_use"
        else:
            content = [{"type": "text", "text": "Good morning, village."}]
            stop = "end_turn"
        return {
            "id": f"msg_{len(self.requests)}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "?"),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {
                "input_tokens": 12,
                "output_tokens": 9,
                "cache_read_input_tokens": 100,
                "cache_creation_input_tokens": 5,
            },
        }

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # models.list, for check()
                data = json.dumps(
                    {"data": [], "has_more": False, "first_id": None, "last_id": None}
                ).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                with stub._count_lock:
                    stub.requests.append(body)
                    stub.in_flight += 1
                    stub.max_in_flight = max(stub.max_in_flight, stub.in_flight)
                time.sleep(stub.delay_s)
                with stub._count_lock:
                    stub.in_flight -= 1
                if stub.fail_first > 0:
                    stub.fail_first -= 1
                    status, payload = (
                        429,
                        {
                            "type": "error",
                            "error": {"type": "rate_limit_error", "message": "slow down"},
                        },
                    )
                else:
                    status, payload = 200, stub.reply(body)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                if status == 429:
                    self.send_header("retry-after", "0")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def messages_stub() -> Iterator[MessagesStub]:
    stub = MessagesStub()
    yield stub
    stub.close()
