from __future__ import annotations

import math
import random
import statistics

from hypothesis import given
from hypothesis import strategies as st

from deckgen.rulecheck.stats import Mean, Proportion, Tally, wilson

floats = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@given(st.lists(floats, min_size=2, max_size=60), st.integers(min_value=0, max_value=60))
def test_mean_merge_equals_single_pass(xs: list[float], cut: int) -> None:
    cut = min(cut, len(xs))
    a, b, whole = Mean(), Mean(), Mean()
    for x in xs[:cut]:
        a.add(x)
    for x in xs[cut:]:
        b.add(x)
    for x in xs:
        whole.add(x)
    a.merge(b)
    assert a.count == whole.count == len(xs)
    assert math.isclose(a.mean, statistics.fmean(xs), rel_tol=1e-9, abs_tol=1e-6)
    assert math.isclose(a.variance, statistics.variance(xs), rel_tol=1e-6, abs_tol=1e-3)
    assert a.minimum == min(xs)
    assert a.maximum == max(xs)


def test_mean_ci_covers_true_mean_about_95_percent() -> None:
    rng = random.Random(7)
    covered = 0
    for _ in range(400):
        m = Mean()
        for _ in range(50):
            m.add(rng.gauss(10.0, 3.0))
        low, high = m.ci95
        covered += low <= 10.0 <= high
    assert 0.90 <= covered / 400 <= 0.99


def test_wilson_interval() -> None:
    low, high = wilson(0, 100)
    assert low < 1e-12
    assert 0.03 < high < 0.04
    low, high = wilson(53, 100)
    assert low < 0.53 < high
    assert math.isclose(high - low, 0.19, abs_tol=0.01)
    assert all(math.isnan(v) for v in wilson(0, 0))


def test_proportion_and_tally() -> None:
    p = Proportion()
    for i in range(10):
        p.add(i < 3)
    assert p.value == 0.3
    assert p.to_json()["count"] == 3
    t, u = Tally(), Tally()
    t.add("out", 3)
    u.add("blocked")
    u.add("out")
    t.merge(u)
    assert t.counts == {"out": 4, "blocked": 1}
    assert t.total == 5
    assert t.to_json()["out"]["share"] == 0.8
