"""Token, cost and latency totals of a game's model calls, per seat and per phase."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from parlour.runtime.store import CallRecord


@dataclass
class CostLine:
    key: str
    calls: int = 0
    invalid: int = 0
    fallbacks: int = 0
    input_tokens: int = 0
    cached_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0

    def add(self, call: CallRecord) -> None:
        if call.outcome == "fallback":
            self.fallbacks += 1
            return
        self.calls += 1
        self.invalid += call.outcome in ("invalid", "error")
        self.input_tokens += call.input_tokens
        self.cached_tokens += call.cached_tokens
        self.output_tokens += call.output_tokens
        self.cost_usd += call.cost_usd
        self.latency_s += call.latency_s

    @property
    def cached_share(self) -> float:
        return self.cached_tokens / self.input_tokens if self.input_tokens else 0.0


def summarise(calls: Iterable[CallRecord], by: str, order: Sequence[str] = ()) -> list[CostLine]:
    """Group by ``seat``, ``phase``, ``purpose`` or ``model_id``; a total line comes last.

    Keys listed in ``order`` (the game's seats, say) come first in that order; the rest
    follow in the order the game first made a call for them, which for phases is the
    order they were played (not the alphabet: "day 10" after "day 9").
    """
    lines: dict[str, CostLine] = {}
    total = CostLine("total")
    for call in calls:
        key = str(getattr(call, by))
        lines.setdefault(key, CostLine(key)).add(call)
        total.add(call)
    rank = {key: i for i, key in enumerate(order)}
    first_seen = list(lines)
    ordered = sorted(first_seen, key=lambda k: (rank.get(k, len(rank)), first_seen.index(k)))
    return [*(lines[k] for k in ordered), total]
