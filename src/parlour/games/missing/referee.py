"""Who texts next: the engine's rule, from public facts only (never from secrets).

Each round every AI seat bids: silent, or speak with an urgency 1-3. The referee picks the
highest urgency; ties go to a seat named in the last message, then to whoever spoke least
recently, then to a seeded draw. A seat that sent the last ``cap`` messages may not speak
again until someone else has. When nobody bids for two rounds the engine asks the quietest
seat to say something (``quietest``), so no one vanishes and the chat never stalls.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from parlour.core.rng import hash_seed


@dataclass(frozen=True)
class Bid:
    seat: str
    urgency: int


def capped(seat: str, history: Sequence[str], cap: int) -> bool:
    """True when ``seat`` sent each of the last ``cap`` messages."""
    return len(history) >= cap and all(s == seat for s in history[-cap:])


def last_spoke(seat: str, history: Sequence[str]) -> int:
    """Index of the seat's latest message (-1: never spoke)."""
    for n in range(len(history) - 1, -1, -1):
        if history[n] == seat:
            return n
    return -1


def pick_speaker(
    bids: Sequence[Bid],
    *,
    history: Sequence[str],
    addressed: Collection[str],
    cap: int,
    seed: int,
    round_no: int,
) -> str | None:
    eligible = [b for b in bids if b.urgency > 0 and not capped(b.seat, history, cap)]
    if not eligible:
        return None

    def key(bid: Bid) -> tuple[int, int, int, int]:
        return (
            -bid.urgency,
            0 if bid.seat in addressed else 1,
            last_spoke(bid.seat, history),
            hash_seed(seed, f"{round_no}:{bid.seat}"),
        )

    return min(eligible, key=key).seat


def quietest(seats: Sequence[str], messages: Mapping[str, int], history: Sequence[str]) -> str:
    """The silence breaker's pick: fewest messages, then least recently spoken, then seat order."""
    return min(seats, key=lambda s: (messages[s], last_spoke(s, history), seats.index(s)))
