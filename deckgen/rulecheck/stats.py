"""Mergeable statistics with 95 % confidence intervals.

Worker processes each fill their own accumulators; the parent merges them
(Chan et al.'s parallel variance update), so the result does not depend on how the
rounds were split. Plain Python, no numpy: a round adds a handful of numbers.

>>> m = Mean(); [m.add(x) for x in (2, 4, 6)] and None
>>> m.count, m.mean, round(m.stdev, 3)
(3, 4.0, 2.0)
>>> p = Proportion(); p.add(True); p.add(False)
>>> p.value
0.5
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

Z95 = 1.959963984540054


@dataclass
class Mean:
    """Count, mean, variance, min and max of a stream of numbers."""

    count: int = 0
    mean: float = 0.0
    m2: float = 0.0
    minimum: float = math.inf
    maximum: float = -math.inf

    def add(self, x: float) -> None:
        self.count += 1
        delta = x - self.mean
        self.mean += delta / self.count
        self.m2 += delta * (x - self.mean)
        if x < self.minimum:
            self.minimum = x
        if x > self.maximum:
            self.maximum = x

    @classmethod
    def of_counts(cls, counts: dict[int, int]) -> Mean:
        """The numbers ``x`` counted ``counts[x]`` times each (in one pass, not one by one)."""
        n = sum(counts.values())
        if n == 0:
            return cls()
        mean = sum(x * c for x, c in counts.items()) / n
        m2 = sum(c * (x - mean) ** 2 for x, c in counts.items())
        return cls(n, mean, m2, min(counts), max(counts))

    def merge(self, other: Mean) -> None:
        if other.count == 0:
            return
        if self.count == 0:
            self.count, self.mean, self.m2 = other.count, other.mean, other.m2
            self.minimum, self.maximum = other.minimum, other.maximum
            return
        n = self.count + other.count
        delta = other.mean - self.mean
        self.mean += delta * other.count / n
        self.m2 += other.m2 + delta * delta * self.count * other.count / n
        self.count = n
        self.minimum = min(self.minimum, other.minimum)
        self.maximum = max(self.maximum, other.maximum)

    @property
    def variance(self) -> float:
        return self.m2 / (self.count - 1) if self.count > 1 else 0.0

    @property
    def stdev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def ci95(self) -> tuple[float, float]:
        """Normal-approximation 95 % interval of the mean."""
        if self.count == 0:
            return (math.nan, math.nan)
        half = Z95 * self.stdev / math.sqrt(self.count)
        return (self.mean - half, self.mean + half)

    def to_json(self) -> dict[str, Any]:
        if self.count == 0:
            return {"n": 0}
        low, high = self.ci95
        return {
            "n": self.count,
            "mean": round(self.mean, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "stdev": round(self.stdev, 4),
            "min": self.minimum,
            "max": self.maximum,
        }


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """Wilson score 95 % interval for a proportion (good near 0 and 1, unlike Wald)."""
    if trials == 0:
        return (math.nan, math.nan)
    p = successes / trials
    z2 = Z95 * Z95
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Proportion:
    """How often something happened out of how many tries."""

    hits: int = 0
    trials: int = 0

    def add(self, hit: bool) -> None:
        self.trials += 1
        self.hits += bool(hit)

    def merge(self, other: Proportion) -> None:
        self.hits += other.hits
        self.trials += other.trials

    @property
    def value(self) -> float:
        return self.hits / self.trials if self.trials else math.nan

    def to_json(self) -> dict[str, Any]:
        low, high = wilson(self.hits, self.trials)
        return {
            "count": self.hits,
            "of": self.trials,
            "share": round(self.value, 5) if self.trials else None,
            "ci95": [round(low, 5), round(high, 5)] if self.trials else None,
        }


@dataclass
class Tally:
    """Counts of categories (how rounds end, which seat wins), each with its share."""

    counts: dict[str, int] = field(default_factory=dict)
    total: int = 0

    def add(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n
        self.total += n

    def merge(self, other: Tally) -> None:
        for key, n in other.counts.items():
            self.add(key, n)

    def share(self, key: str) -> Proportion:
        return Proportion(self.counts.get(key, 0), self.total)

    def to_json(self) -> dict[str, Any]:
        return {key: self.share(key).to_json() for key in sorted(self.counts)}


def mean_of(values: ArrayLike) -> Mean:
    """A :class:`Mean` of a whole numpy array (or sequence) at once, mergeable as usual."""
    import numpy as np

    arr = np.asarray(values, dtype=np.float64).ravel()
    m = Mean()
    if arr.size == 0:
        return m
    m.count = int(arr.size)
    m.mean = float(arr.mean())
    m.m2 = float(((arr - m.mean) ** 2).sum())
    m.minimum = float(arr.min())
    m.maximum = float(arr.max())
    return m
