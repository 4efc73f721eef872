"""The two rules as printed: the reserve ends the round at once, and a skipped start
double goes back into the stock at a random place (never left on top)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from deckgen.engine import END_RESERVE, Engine, make_bots
from deckgen.engine.backends.rounds import put_back_doubles
from deckgen.rulespec import load_rules


@pytest.mark.parametrize(("rid", "n"), [("two-player", 2), ("card-domino", 3), ("card-domino", 4)])
def test_nobody_passes_while_only_the_reserve_is_left(rid: str, n: int) -> None:
    spec = load_rules(rid)
    engine = Engine(spec, n, check_invariants=True)
    seats = make_bots(["random", "greedy", "smart"][:n], n, 4)
    rng = random.Random(4)
    reserve = engine.t.reserve
    ended = 0
    for _ in range(400):
        r = engine.play_round(rng, seats, record=True)
        assert r.deal is not None
        assert r.actions is not None
        left = len(r.deal.stock) - (1 if r.turned_up >= 0 else 0)
        for a in r.actions:
            if a.kind == "draw":
                left -= 1
            assert left >= reserve
            assert not (a.kind == "pass" and left == reserve), "a pass with only the reserve left"
        if r.end == END_RESERVE:
            ended += 1
            assert left == reserve
    assert ended > 0


def _first_draw_bias(starts: list[int], stocks: list[list[int]], is_double: list[bool]) -> float:
    """How many standard errors the doubles drawn first lie above a uniform stock."""
    seen = expected = var = 0.0
    for start, stock in zip(starts, stocks, strict=True):
        assert not is_double[start], "the start tile is never a double"
        p = sum(is_double[i] for i in stock) / len(stock)
        seen += is_double[stock[0]]
        expected += p
        var += p * (1 - p)
    return float((seen - expected) / var**0.5)


def test_a_skipped_double_is_not_left_on_top() -> None:
    spec = load_rules("two-player")
    engine = Engine(spec, 2)
    seats = make_bots(["greedy"], 2, 1)
    rng = random.Random(1)
    starts, stocks, skipped = [], [], 0
    for _ in range(3000):
        r = engine.play_round(rng, seats, record=True)
        assert r.deal is not None
        assert r.deal.stock[0] == r.turned_up
        starts.append(r.turned_up)
        stocks.append(r.deal.stock[1:])
        skipped += "lead.skip_double" in r.clauses
    assert 500 < skipped < 1000  # about 1 round in 4 turns up a double first
    assert abs(_first_draw_bias(starts, stocks, list(engine.t.is_double))) < 4


def test_the_numpy_put_back_is_uniform_too() -> None:
    spec = load_rules("two-player")
    t = Engine(spec, 2).t
    is_double = np.array(t.is_double)
    gen = np.random.default_rng(2)
    rest = gen.random((3000, 28)).argsort(axis=1)[:, 14:]
    out = put_back_doubles(rest, is_double, gen)
    assert sorted(out[0].tolist()) == sorted(rest[0].tolist())
    bias = _first_draw_bias(
        out[:, 0].tolist(), [row[1:] for row in out.tolist()], list(t.is_double)
    )
    assert abs(bias) < 4
    # the old way (doubles stay on top) is far off: the check can fail
    old_starts = [next(i for i in row if not is_double[i]) for row in rest.tolist()]
    old_stocks = [
        [i for i in row if i != s] for row, s in zip(rest.tolist(), old_starts, strict=True)
    ]
    assert _first_draw_bias(old_starts, old_stocks, list(t.is_double)) > 6
