from __future__ import annotations

import itertools
import random
from fractions import Fraction
from math import comb
from pathlib import Path

from deckgen.rulecheck.feasibility import feasibility, p_all_of, p_none_of, p_some_hand_has
from deckgen.rulespec import load_rules

FIXTURES = Path(__file__).parent / "fixtures"


def test_no_double_odds_match_enumeration() -> None:
    # double-2: 6 tiles, 3 doubles; 2 dealt: count the deals without a double by hand
    tiles = ["00", "01", "02", "11", "12", "22"]
    deals = list(itertools.combinations(tiles, 2))
    none = sum(1 for d in deals if not any(t[0] == t[1] for t in d))
    assert p_none_of(6, 3, 2) == Fraction(none, len(deals)) == Fraction(3, 15)
    assert p_all_of(6, 3, 2) == Fraction(3, 15)


def test_redeal_odds_match_enumeration() -> None:
    # double-3: 10 tiles, 4 doubles, 2 hands of 3: some hand with 2+ doubles
    doubles = {0, 4, 7, 9}
    hits = total = 0
    for a in itertools.combinations(range(10), 3):
        rest = [i for i in range(10) if i not in a]
        for b in itertools.combinations(rest, 3):
            total += 1
            hits += len(doubles & set(a)) >= 2 or len(doubles & set(b)) >= 2
    assert p_some_hand_has(10, 4, 2, 3, 2) == Fraction(hits, total)


def test_redeal_odds_agree_with_sampling() -> None:
    rng = random.Random(3)
    p = float(p_some_hand_has(28, 7, 4, 7, 5))  # the partnership game's redeal
    tiles = list(range(28))
    doubles = {0, 7, 13, 18, 22, 25, 27}
    n = 40_000
    hits = 0
    for _ in range(n):
        rng.shuffle(tiles)
        hits += any(len(doubles & set(tiles[7 * s : 7 * s + 7])) >= 5 for s in range(4))
    assert abs(hits / n - p) < 4 * (p * (1 - p) / n) ** 0.5 + 1e-4


def test_feasibility_of_bundled_files() -> None:
    f = feasibility(load_rules("block-classic"), 2)
    assert f["deal_fits"]
    assert f["dealt"] == 14
    assert f["dead"] == 14
    (sit,) = f["opening"]["situations"]
    assert sit["situation"] == "start.no_double"
    assert sit["exact"] == str(Fraction(comb(21, 14), comb(28, 14))) == "1/345"
    assert sit["rule"] == "heaviest_tile"
    assert "most pips" in sit["file_says"]
    assert f["opening"]["applicable_to_every_deal"]
    two = feasibility(load_rules("two-player"), 2)
    assert two["drawable"] == 11
    assert two["opening"]["situations"][0]["probability"] == 0


def test_feasibility_flags_a_missing_fallback() -> None:
    spec = load_rules(FIXTURES / "no-double-fallback.toml")
    f = feasibility(spec, 2)
    (sit,) = f["opening"]["situations"]
    assert sit["exact"] == str(Fraction(54264, 376740))
    assert sit["file_says"] is None
    assert not sit["always_decided"]
    assert not f["opening"]["applicable_to_every_deal"]
