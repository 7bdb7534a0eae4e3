"""A local OpenAI-compatible chat server that answers validly after a set latency.

It stands in for a hosted model when measuring tournaments at API scale
(``benchmarks/tournament_api_scale.py``) and in the concurrency test: parlour's
``openai`` backend talks to it over real HTTP on 127.0.0.1. An answer is read off the
request alone, so the same request always gets the same answer whatever else is in
flight: a structured request (``response_format`` with a JSON schema, as the backend
sends it) gets an option of the schema's ``enum`` chosen by a hash of the messages (or
an object built from the schema); a free-text request gets one of a few plain sentences.
With ``rpm`` set it enforces a rate limit with a token bucket and answers HTTP 429 with
``Retry-After`` (whole seconds) and ``retry-after-ms`` when the bucket is empty.

Standard library only. In a thread: ``with LatencyServer(latency=0.05) as server:`` and
``server.base_url``; as a process:
``python -m benchmarks.latency_server --latency 0.5 --rpm 600 --port 8765``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

#: Free text is one part of each, chosen by the request's hash (4,096 sentences), so a
#: seat rarely says what is already in its prompt.
PARTS = (
    ("Honestly,", "To be fair,", "Look,", "For what it is worth,", "Right now,", "So far,",
     "If you ask me,", "Thinking it over,"),
    ("the quiet ones", "yesterday's votes", "the last accusation", "the night's news",
     "the loudest voice", "the first speakers", "the late vote", "the defence we heard"),
    ("bother me", "tell a story", "do not add up", "seem too neat", "point somewhere",
     "deserve a question", "feel rehearsed", "leave me unsure"),
    ("and I will vote on that.", "so I am watching closely.", "but I could be wrong.",
     "and I want an answer.", "so let us hear more first.", "and that matters today.",
     "before we decide anything.", "more than anything else."),
)  # fmt: skip


def sentence(pick: int) -> str:
    words = []
    for part in PARTS:
        words.append(part[pick % len(part)])
        pick //= len(part)
    return " ".join(words)


def _digest(messages: Any) -> int:
    text = json.dumps(messages, sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _schema_of(body: dict[str, Any]) -> dict[str, Any] | None:
    fmt = body.get("response_format")
    if not isinstance(fmt, dict):
        return None
    if fmt.get("type") == "json_schema":
        inner = fmt.get("json_schema") or {}
        schema = inner.get("schema")
        return schema if isinstance(schema, dict) else None
    schema = fmt.get("schema")  # json_object with llama.cpp's schema extension
    return schema if isinstance(schema, dict) else None


def instance(schema: dict[str, Any], pick: int) -> Any:
    """A value valid against ``schema`` (the subset parlour's decisions use), with every
    ``enum`` choice made by ``pick``."""
    if "enum" in schema:
        options = list(schema["enum"])
        return options[pick % len(options)]
    if "const" in schema:
        return schema["const"]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return instance(schema[key][0], pick)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        props: dict[str, Any] = schema.get("properties", {})
        required = schema.get("required", list(props))
        return {k: instance(props[k], pick // (i + 1)) for i, k in enumerate(required)}
    if kind == "array":
        items = schema.get("items", {"type": "string"})
        n = int(schema.get("minItems", 1) or 0)
        if "enum" in items:
            options = list(items["enum"])
            start = pick % len(options)
            return [options[(start + i) % len(options)] for i in range(min(n, len(options)))]
        return [instance(items, pick + i) for i in range(n)]
    if kind == "integer":
        return int(schema.get("minimum", 0))
    if kind == "number":
        return float(schema.get("minimum", 0))
    if kind == "boolean":
        return bool(pick % 2)
    if kind == "null":
        return None
    text = sentence(pick)
    limit = schema.get("maxLength")
    return text[: int(limit)] if limit else text


def answer(body: dict[str, Any]) -> str:
    """The assistant's text for a chat request: a function of the request only."""
    pick = _digest(body.get("messages"))
    schema = _schema_of(body)
    if schema is not None:
        value = instance(schema, pick)
        if isinstance(value, dict) and "why" in value:
            value["why"] = "it fits what I saw"
        return json.dumps(value)
    return sentence(pick)


class _Bucket:
    def __init__(self, per_minute: float, burst: float) -> None:
        self.rate = per_minute / 60.0
        self.capacity = max(1.0, burst)
        self.level = self.capacity
        self.last = time.monotonic()
        self.lock = threading.Lock()

    def take(self) -> float:
        """0 when a request may go now; else the seconds until one may."""
        with self.lock:
            now = time.monotonic()
            self.level = min(self.capacity, self.level + (now - self.last) * self.rate)
            self.last = now
            if self.level >= 1.0:
                self.level -= 1.0
                return 0.0
            return (1.0 - self.level) / self.rate


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512  # listen backlog: many clients connect at once


class LatencyServer:
    """The server in a background thread (``start``/``close``, or ``with``)."""

    def __init__(
        self,
        latency: float = 0.5,
        *,
        rpm: float | None = None,
        burst: float = 1.0,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.latency = latency
        self.bucket = _Bucket(rpm, burst) if rpm else None
        self.requests = 0
        self.answered = 0
        self.limited = 0
        self.in_flight = 0
        self.peak_in_flight = 0
        self._lock = threading.Lock()
        self._server = _Server((host, port), self._handler())
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> LatencyServer:
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._server.serve_forever()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> LatencyServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _count(self, field: str, delta: int = 1) -> None:
        with self._lock:
            setattr(self, field, getattr(self, field) + delta)
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real endpoints do

            def _send(self, status: int, payload: Any, headers: dict[str, str]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # models.list, for the backend's check()
                self._send(
                    200, {"object": "list", "data": [{"id": "latency", "object": "model"}]}, {}
                )

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
                server._count("requests")
                if server.bucket is not None:
                    wait = server.bucket.take()
                    if wait > 0:
                        server._count("limited")
                        headers = {
                            "retry-after": str(max(1, math.ceil(wait))),
                            "retry-after-ms": str(max(1, math.ceil(wait * 1000))),
                        }
                        error = {"message": "rate limit reached", "type": "requests"}
                        self._send(429, {"error": error}, headers)
                        return
                server._count("in_flight")
                try:
                    time.sleep(server.latency)
                    text = answer(body)
                finally:
                    server._count("in_flight", -1)
                server._count("answered")
                prompt = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
                payload = {
                    "id": f"chatcmpl-{server.requests}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": body.get("model", "latency"),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": text},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {
                        "prompt_tokens": prompt // 4,
                        "completion_tokens": len(text) // 4 + 1,
                        "total_tokens": prompt // 4 + len(text) // 4 + 1,
                    },
                }
                self._send(200, payload, {})

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.5, help="seconds per answer")
    parser.add_argument("--rpm", type=float, default=None, help="enforce requests/minute")
    parser.add_argument("--burst", type=float, default=1.0, help="requests the bucket holds")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    server = LatencyServer(args.latency, rpm=args.rpm, burst=args.burst, port=args.port)
    print(f"listening on {server.base_url}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
