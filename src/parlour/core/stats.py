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


def wilson(share: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share observed over ``n`` trials: always within
    [0, 1], and sensible at 0%, 100% and for a handful of trials (where share ± z·se is
    not). ``n`` may be an effective sample size (see ``share_ci``)."""
    if n <= 0 or math.isinf(z):
        return 0.0, 1.0
    share = min(1.0, max(0.0, share))
    z2 = z * z
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n))
    low = 0.0 if share == 0.0 else max(0.0, centre - half)
    high = 1.0 if share == 1.0 else min(1.0, centre + half)
    return low, high


def share_ci(values: Sequence[float]) -> MeanCI:
    """Mean of per-game shares (each in [0, 1]) with a 95% Wilson interval.

    Outcomes that are 0 or 1 (won or not) give the textbook Wilson interval over n games.
    Shares in between usually vary less than a coin does, so n is scaled to the effective
    sample size n·p(1-p)/σ² that the observed spread σ² implies (n again for 0/1 outcomes);
    z is Student's t for n-1 degrees of freedom, so two games give a wide interval and one
    game [0, 1]."""
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / n
    spread = mean * (1 - mean)
    effective = n * spread / var if var > 0 and spread > 0 else float(n)
    low, high = wilson(mean, effective, t95(n - 1))
    return MeanCI(mean, low, high, n)
