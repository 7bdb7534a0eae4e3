"""`parlour cost`: a bot's orders and chat spend, per power and phase."""

from __future__ import annotations

from parlour.games.diplomacy.bot_protocol import CHAT_PURPOSES
from parlour.runtime.costs import summarise_pools
from parlour.runtime.store import CallRecord
from tests.support.calls import make_call


def call(seat: str, phase: str, purpose: str, tokens: int, outcome: str = "valid") -> CallRecord:
    return make_call(
        seat=seat,
        decision_id=f"{phase}:{purpose}:{seat}",
        purpose=purpose,
        phase=phase,
        outcome=outcome,
        input_tokens=tokens,
        output_tokens=1,
        cached_tokens=0,
    )


def test_orders_and_chat_split_per_power_and_phase() -> None:
    calls = [
        call("FRANCE", "S1901M", "gate", 40),
        call("FRANCE", "S1901M", "plan", 1000),
        call("ENGLAND", "S1901M", "reply", 300),
        call("FRANCE", "S1901M", "finalise", 900),
        call("FRANCE", "F1901M", "plan", 1100),
        call("FRANCE", "F1901M", "gate", 0, outcome="fallback"),
        call("FRANCE", "W1901A", "adjust", 200),
    ]
    names = {"FRANCE": "France", "ENGLAND": "England"}
    lines = summarise_pools(calls, CHAT_PURPOSES, names, order=["ENGLAND", "FRANCE"])
    got = {line.key: (line.calls, line.input_tokens, line.fallbacks) for line in lines}
    assert [line.key for line in lines] == [
        "England · S1901M · chat",
        "France · S1901M · orders",
        "France · S1901M · chat",
        "France · F1901M · orders",
        "France · F1901M · chat",
        "France · W1901A · orders",
        "all orders",
        "all chat",
        "total",
    ]
    assert got["France · S1901M · orders"] == (2, 1900, 0)
    assert got["France · S1901M · chat"] == (1, 40, 0)
    assert got["France · F1901M · chat"] == (0, 0, 1)  # spent chat: a fallback, no call
    assert got["all orders"] == (4, 3200, 0)
    assert got["all chat"] == (2, 340, 1)
    assert got["total"] == (6, 3540, 1)
