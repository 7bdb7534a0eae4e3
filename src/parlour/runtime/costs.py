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


def pool_of(purpose: str, chat_purposes: frozenset[str]) -> str:
    """The budget pool a call spends: ``chat`` for talk, ``orders`` for everything else."""
    return "chat" if purpose in chat_purposes else "orders"


def summarise_pools(
    calls: Iterable[CallRecord],
    chat_purposes: frozenset[str],
    names: dict[str, str],
    order: Sequence[str] = (),
) -> list[CostLine]:
    """Orders vs chat spend per seat and phase (a bot's two budgets, see ``bot_budget``).

    Keys read ``Seat · PHASE · pool``; seats in ``order`` first, phases as played, the
    orders line before the chat line; then one total line per pool and the grand total.
    """
    calls = list(calls)
    rank = {key: i for i, key in enumerate(order)}
    phases: dict[str, int] = {}
    lines: dict[tuple[str, str, str], CostLine] = {}
    pools = {"orders": CostLine("all orders"), "chat": CostLine("all chat")}
    total = CostLine("total")
    for call in calls:
        phases.setdefault(call.phase, len(phases))
        pool = pool_of(call.purpose, chat_purposes)
        key = (call.seat, call.phase, pool)
        name = f"{names.get(call.seat, call.seat)} · {call.phase} · {pool}"
        lines.setdefault(key, CostLine(name)).add(call)
        pools[pool].add(call)
        total.add(call)
    ordered = sorted(
        lines,
        key=lambda k: (rank.get(k[0], len(rank)), k[0], phases[k[1]], k[2] != "orders"),
    )
    return [*(lines[k] for k in ordered), pools["orders"], pools["chat"], total]
