from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deckgen.tiles import MAX_SUPPORTED_PIP, DominoSet, Tile, set_names, tile_count, total_pips

N = st.integers(min_value=0, max_value=MAX_SUPPORTED_PIP)


@given(N)
def test_set_formulas(n: int) -> None:
    s = DominoSet(n)
    assert len(s.tiles) == len(s) == (n + 1) * (n + 2) // 2 == tile_count(n)
    assert sum(t.pips for t in s.tiles) == s.total_pips == n * (n + 1) * (n + 2) // 2
    assert s.total_pips == total_pips(n)
    assert sum(t.is_double for t in s.tiles) == s.double_count == n + 1
    assert len(set(s.tiles)) == len(s)


@given(N)
def test_each_value_appears_n_plus_2_times(n: int) -> None:
    s = DominoSet(n)
    for v in s.values:
        halves = sum(t.values.count(v) for t in s.tiles)
        assert halves == s.value_frequency == n + 2
        assert len(s.tiles_with(v)) == n + 1


@given(N)
def test_canonical_order_and_index(n: int) -> None:
    s = DominoSet(n)
    assert list(s.tiles) == sorted(s.tiles)
    assert s.tiles[0] == Tile(0, 0)
    assert s.tiles[-1] == Tile(n, n)
    for i, t in enumerate(s.tiles):
        assert s.index(t) == i
        assert s.tile(i) == t
        assert t.low <= t.high


@given(N)
def test_suit_masks(n: int) -> None:
    s = DominoSet(n)
    masks = s.suit_masks()
    for v in s.values:
        assert [s.tile(i) for i in range(len(s)) if masks[v] >> i & 1] == list(s.tiles_with(v))


values = st.integers(min_value=0, max_value=18)


FORMS = ["{a}-{b}", "{a}/{b}", "{a}|{b}", "[{a}|{b}]", " {a} : {b} "]


@given(values, values, st.sampled_from(FORMS))
def test_parse_round_trip(a: int, b: int, form: str) -> None:
    tile = Tile.parse(form.format(a=a, b=b))
    assert tile == Tile.of(a, b) == Tile.of(b, a)
    assert Tile.parse(str(tile)) == tile
    assert str(tile) == f"{min(a, b)}-{max(a, b)}"


@pytest.mark.parametrize("bad", ["", "3", "3-", "a-b", "3-5-6", "-1-3", "3--5", "123-4"])
def test_parse_rejects(bad: str) -> None:
    with pytest.raises(ValueError, match="is not a tile"):
        Tile.parse(bad)


def test_tile_basics() -> None:
    t = Tile(3, 5)
    assert t.pips == 8
    assert not t.is_double
    assert t.other(3) == 5
    assert t.other(5) == 3
    with pytest.raises(ValueError, match="no half with value 4"):
        t.other(4)
    with pytest.raises(ValueError, match="canonical order"):
        Tile(5, 3)
    assert Tile(4, 4).is_double
    assert Tile(0, 6) < Tile(1, 1)


def test_set_names_and_lookup() -> None:
    assert DominoSet.from_name("double-12") == DominoSet(12)
    assert DominoSet.from_name("Double12").name == "double-12"
    assert set_names()[0] == "double-0"
    assert set_names()[-1] == "double-18"
    for bad in ["double-99", "triple-6", "six", "double-19"]:
        with pytest.raises(ValueError, match="unknown domino set"):
            DominoSet.from_name(bad)
    with pytest.raises(ValueError, match="double-19 is not supported"):
        DominoSet(19)
    assert Tile(6, 7) not in DominoSet(6)
    assert Tile(6, 6) in DominoSet(6)
