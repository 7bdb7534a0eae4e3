"""Stored model calls built for tests: a complete, plausible call (every field set, none
empty) that a test changes only where it is about something."""

from __future__ import annotations

from typing import Any

from parlour.runtime.store import CallRecord


def make_call(**fields: Any) -> CallRecord:
    """Seat p1's valid vote for Aiko on day 1 in game ``g``; ``fields`` override."""
    base: dict[str, Any] = {
        "game_id": "g",
        "seat": "p1",
        "decision_id": "d1:vote:p1",
        "purpose": "vote",
        "phase": "day 1",
        "attempt": 1,
        "model_id": "m",
        "cache_key": "p1",
        "messages": [{"role": "user", "content": "hi"}],
        "messages_digest": "abc",
        "output_spec": {"kind": "choice"},
        "response_text": '{"choice":"Aiko"}',
        "parsed": {"choice": "Aiko"},
        "outcome": "valid",
        "error": "",
        "input_tokens": 10,
        "output_tokens": 3,
        "cached_tokens": 4,
        "latency_s": 0.5,
        "cost_usd": 0.0,
    }
    return CallRecord(**(base | fields))
