"""Small, dependency-free statistics for evaluation reports."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Two-sided 95% Student t critical values by degrees of freedom (1..30); normal beyond.
_T95 = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
]  # fmt: skip


def t95(dof: int) -> float:
    if dof <= 0:
        return math.inf
    return _T95[dof - 1] if dof <= len(_T95) else 1.96


@dataclass(frozen=True)
class MeanCI:
    mean: float
    low: float
    high: float
    n: int

    def excludes(self, value: float) -> bool:
        return value < self.low or value > self.high

    def describe(self, pct: bool = True) -> str:
        if pct:
            return f"{self.mean:.1%} (95% CI {self.low:.1%}–{self.high:.1%}, n={self.n})"
        return f"{self.mean:.3f} (95% CI {self.low:.3f}–{self.high:.3f}, n={self.n})"


def mean_ci(values: Sequence[float]) -> MeanCI:
    """Mean with a t-based 95% confidence interval (infinite width for n < 2)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = sum(values) / n
    if n < 2:
        return MeanCI(mean, -math.inf, math.inf, n)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return MeanCI(mean, mean - half, mean + half, n)
