"""A bounded LRU of llama.cpp KV-state snapshots, matched by longest common token prefix.

Each snapshot is the KV state of one sequence plus the tokens it encodes. A new prompt
reuses the snapshot sharing the longest prefix with it and evaluates only the rest, so
seats taking turns (A, B, A, B …) each pay for their own new tokens only. Snapshots of any
key may serve a prompt, but only for the shared prefix, whose KV is identical whoever
computed it — nothing of another seat's private suffix survives the truncation.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Tokens = npt.NDArray[np.int32]


def common_prefix(a: Tokens, b: Tokens) -> int:
    """Length of the longest common prefix of two token arrays."""
    n = min(len(a), len(b))
    if n == 0:
        return 0
    differ = np.flatnonzero(a[:n] != b[:n])
    return int(differ[0]) if len(differ) else n


@dataclass(frozen=True)
class Snapshot:
    key: str
    tokens: Tokens
    state: bytes

    @property
    def nbytes(self) -> int:
        return len(self.state) + self.tokens.nbytes


@dataclass(frozen=True)
class KVCacheStats:
    entries: int
    bytes: int
    hits: int
    misses: int


class KVStateCache:
    """At most ``max_entries`` snapshots and ``max_bytes`` in all; ``per_key`` per stream."""

    def __init__(self, max_bytes: int = 1 << 30, max_entries: int = 64, per_key: int = 2) -> None:
        if max_bytes <= 0 or max_entries <= 0 or per_key <= 0:
            raise ValueError("cache bounds must be positive")
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.per_key = per_key
        self._entries: OrderedDict[int, Snapshot] = OrderedDict()  # oldest first
        self._next_id = 0
        self._bytes = 0
        self._hits = 0
        self._misses = 0

    def stats(self) -> KVCacheStats:
        return KVCacheStats(len(self._entries), self._bytes, self._hits, self._misses)

    def best(self, tokens: Tokens, key: str | None = None) -> tuple[Snapshot | None, int]:
        """The snapshot sharing the longest prefix with ``tokens`` (ties: same key, newest)."""
        best: Snapshot | None = None
        best_id = -1
        best_len = 0
        for entry_id, snap in reversed(self._entries.items()):
            n = common_prefix(snap.tokens, tokens)
            better = n > best_len or (
                n == best_len and n > 0 and best is not None and best.key != key and snap.key == key
            )
            if better:
                best, best_id, best_len = snap, entry_id, n
        if best is None:
            self._misses += 1
            return None, 0
        self._hits += 1
        self._entries.move_to_end(best_id)
        return best, best_len

    def put(self, key: str, tokens: Tokens, state: bytes) -> None:
        snap = Snapshot(key, tokens.copy(), state)
        if snap.nbytes > self.max_bytes:
            return  # larger than the whole budget: keeping it would evict everything
        same_key = [i for i, s in self._entries.items() if s.key == key]
        for entry_id in same_key[: max(0, len(same_key) - self.per_key + 1)]:
            self._drop(entry_id)
        self._entries[self._next_id] = snap
        self._next_id += 1
        self._bytes += snap.nbytes
        while self._entries and (
            self._bytes > self.max_bytes or len(self._entries) > self.max_entries
        ):
            self._drop(next(iter(self._entries)))

    def _drop(self, entry_id: int) -> None:
        snap = self._entries.pop(entry_id)
        self._bytes -= snap.nbytes

    def clear(self) -> None:
        self._entries.clear()
        self._bytes = 0
