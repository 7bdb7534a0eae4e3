"""Seeded randomness owned by a game state (never module-level)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

#: Seeds a game accepts: what the stores' seed column (a signed 64-bit integer) holds. The
#: command line and the web check against these, so a seed out of range is one line naming
#: the range, never an overflow deep in the database driver.
SEED_MIN = 0
SEED_MAX = 2**63 - 1


def seed_problem(seed: int, name: str = "--seed") -> str | None:
    """Why ``seed`` cannot be used (one line naming the range), or None."""
    if SEED_MIN <= seed <= SEED_MAX:
        return None
    return f"{name} must be a whole number from {SEED_MIN} to {SEED_MAX:,}, got {seed}"


class Rng:
    """A small, explicit wrapper around ``random.Random``.

    Games keep one of these in their state so that replaying the same actions from the
    same seed draws the same numbers in the same order.
    """

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("cannot choose from an empty sequence")
        return items[self._random.randrange(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self._random.shuffle(out)
        return out

    def randint(self, low: int, high: int) -> int:
        return self._random.randint(low, high)

    def random(self) -> float:
        return self._random.random()

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self._random.sample(list(items), k)

    def child(self, label: str) -> Rng:
        """A deterministic independent stream, e.g. for a bot that must not disturb the game's."""
        derived = random.Random(f"{self.seed}:{label}").getrandbits(63)
        return Rng(derived)


def hash_seed(seed: int, label: str) -> int:
    """A stable derived seed (Python's ``hash`` is salted per process, so not that)."""
    digest = hashlib.blake2b(f"{seed}:{label}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1
