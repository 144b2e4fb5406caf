"""Means with 95 % confidence intervals and percentiles: the statistics every
game of the arena sums its figures up with (gin over mirrored pairs, the
rotated-deal games over deals), and the one percentile of every benchmark
(the speed suites' and the service's p90 and p99, the review's).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z_95 = 1.959964


@dataclass(frozen=True, slots=True)
class MeanInterval:
    """A mean and the half-width of its 95 % confidence interval."""

    mean: float
    half_width: float
    n: int

    def text(self, digits: int = 2) -> str:
        """``1.42 ± 0.20``."""
        return f"{self.mean:+.{digits}f} ± {self.half_width:.{digits}f}"


def mean_interval(values: Sequence[float]) -> MeanInterval:
    """Mean and normal 95 % interval of independent ``values``."""
    n = len(values)
    if n == 0:
        return MeanInterval(math.nan, math.nan, 0)
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) if n > 1 else math.nan
    return MeanInterval(mean, Z_95 * spread / math.sqrt(n), n)


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile (``share`` in 0..1); NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]
