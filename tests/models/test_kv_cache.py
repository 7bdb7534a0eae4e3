"""The snapshot LRU on its own: prefix matching and its bounds."""

from __future__ import annotations

import numpy as np

from parlour.models.kv_cache import KVStateCache, common_prefix


def toks(*values: int) -> np.ndarray:
    return np.asarray(values, dtype=np.int32)


def test_common_prefix() -> None:
    assert common_prefix(toks(1, 2, 3), toks(1, 2, 4)) == 2
    assert common_prefix(toks(1, 2), toks(1, 2, 3)) == 2
    assert common_prefix(toks(), toks(1)) == 0
    assert common_prefix(toks(5), toks(6)) == 0


def test_longest_prefix_wins_and_same_key_breaks_ties() -> None:
    cache = KVStateCache()
    cache.put("a", toks(1, 2, 3, 4), b"A")
    cache.put("b", toks(1, 2, 9), b"B")
    snap, n = cache.best(toks(1, 2, 3, 7))
    assert snap is not None and (snap.key, n) == ("a", 3)
    cache.put("c", toks(1, 2, 8), b"C")
    snap, n = cache.best(toks(1, 2, 5), key="b")  # a, b and c all share 2 tokens
    assert snap is not None and (snap.key, n) == ("b", 2)
    assert cache.best(toks(7, 7)) == (None, 0)
    assert cache.stats().hits == 2 and cache.stats().misses == 1


def test_bounds_evict_least_recently_used() -> None:
    cache = KVStateCache(max_bytes=10_000, max_entries=3, per_key=1)
    for key in "abc":
        cache.put(key, toks(ord(key)), b"x" * 100)
    cache.best(toks(ord("a")))  # touch a: b is now the oldest
    cache.put("d", toks(ord("d")), b"x" * 100)
    keys = {s.key for s in cache._entries.values()}
    assert keys == {"a", "c", "d"}
    cache.put("a", toks(ord("a"), 1), b"x" * 100)  # per_key=1 replaces a's snapshot
    assert sum(s.key == "a" for s in cache._entries.values()) == 1
    cache.put("big", toks(1), b"x" * 9_990)  # over budget with the others: they go
    assert [s.key for s in cache._entries.values()] == ["big"]
    cache.put("huge", toks(1), b"x" * 20_000)  # bigger than the whole budget: not kept
    assert cache.stats().entries == 1 and cache.stats().bytes <= 10_000
