"""Deep nesting, huge numbers, huge and control-character text in TOML and JSON.

Property: whatever text a deck file, rules file, game record or check report holds,
loading it gives data within the documented limits or one SpecError that names the
file and key; never a RecursionError, an int-string ValueError or a huge message.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckgen.errors import DeckgenError, SpecError
from deckgen.specfile import DEFAULT_LIMITS, check_tree, load_toml, parse_json, parse_toml
from tests.hostile.contract import assert_clean_error, examples

LIMIT = DEFAULT_LIMITS.max_depth


@pytest.mark.parametrize("depth", [LIMIT + 1, 1_000, 100_000])
def test_deep_toml_arrays_are_refused_with_line_and_key(depth: int) -> None:
    text = f'name = "x"\n[cover]\ntitle = {"[" * depth}1{"]" * depth}\n'
    with pytest.raises(SpecError) as err:
        check_tree(parse_toml(text, what="deck file", where="d.toml"), where="d.toml", what="x")
    message = str(err.value)
    assert_clean_error(message)
    assert "cover.title" in message
    assert "deeper than" in message


def _parse_and_check(text: str) -> None:
    data = parse_json(text.encode(), what="game record", where="g.json", fix="f")
    check_tree(data, where="g.json", what="game record")


@pytest.mark.parametrize("depth", [LIMIT + 1, 5_000, 200_000])
def test_deep_json_is_refused_with_its_key(depth: int) -> None:
    text = '{"rounds": [{"actions": ' + "[" * depth + "]" * depth + "}]}"
    with pytest.raises(SpecError) as err:
        _parse_and_check(text)
    assert_clean_error(str(err.value))
    assert "actions" in str(err.value)


def test_deep_dotted_tables_are_refused() -> None:
    text = "a" + ".a" * 2_000 + " = 1\n"
    with pytest.raises(SpecError, match="deeper than"):
        check_tree(parse_toml(text, what="rules file", where="r"), where="r", what="rules file")


@pytest.mark.parametrize("digits", [17, 400, 4_301, 50_000])
def test_huge_integers_are_refused(digits: int) -> None:
    big = "9" * digits
    for parse in (
        lambda: parse_toml(f"[deal]\nstock_reserve = {big}\n", what="rules file", where="r"),
        lambda: parse_json(f'{{"seed": {big}}}'.encode(), what="game record", where="g", fix="f"),
    ):
        with pytest.raises(SpecError) as err:
            check_tree(parse(), where="f", what="file")
        assert_clean_error(str(err.value))
        assert "digits" in str(err.value)


@pytest.mark.parametrize("text", ["a = inf", "a = -inf", "a = nan"])
def test_non_finite_numbers_are_refused(text: str) -> None:
    with pytest.raises(SpecError, match="finite"):
        check_tree(parse_toml(text, what="f", where="f"), where="f", what="f")
    with pytest.raises(SpecError):
        parse_json(b'{"a": NaN}', what="f", where="f", fix="f")


def test_huge_and_control_texts_are_refused_with_short_messages(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('name = "' + "x" * 300_000 + '"\n', encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_toml(deck, what="deck file")
    assert_clean_error(str(err.value))
    deck.write_text('name = "bad\\u001b[2Jname"\n', encoding="utf-8")
    with pytest.raises(SpecError, match=r"U\+001B") as err:
        load_toml(deck, what="deck file")
    assert_clean_error(str(err.value))


# -------------------------------------------------------------- properties
_scalars = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50),
    st.booleans(),
)
_trees = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=60,
)


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(tree=_trees, wrap=st.integers(min_value=0, max_value=60))
def test_any_json_tree_is_within_limits_or_refused(tree: object, wrap: int) -> None:
    for _ in range(wrap):
        tree = [tree]
    text = json.dumps({"data": tree}, allow_nan=True)
    try:
        data = parse_json(text.encode(), what="check report", where="c.json", fix="f")
        check_tree(data, where="c.json", what="check report")
    except SpecError as exc:
        assert_clean_error(str(exc))
        return
    # Accepted: then it really is within the limits.
    stack: list[tuple[object, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        assert depth <= LIMIT
        if isinstance(node, dict):
            stack += [(v, depth + 1) for v in node.values()]
        elif isinstance(node, list):
            stack += [(v, depth + 1) for v in node]
        elif isinstance(node, int) and not isinstance(node, bool):
            assert abs(node) <= DEFAULT_LIMITS.max_int
        elif isinstance(node, str):
            assert "\x00" not in node
            assert "\x1b" not in node


@settings(max_examples=examples(150), deadline=None)
@given(text=st.text(max_size=300))
def test_any_toml_text_parses_or_is_one_clean_error(text: str) -> None:
    try:
        check_tree(parse_toml(text, what="deck file", where="d"), where="d", what="deck file")
    except DeckgenError as exc:
        assert_clean_error(str(exc))


@settings(max_examples=examples(100), deadline=None)
@given(data=st.binary(max_size=300))
def test_any_bytes_as_json_parse_or_are_one_clean_error(data: bytes) -> None:
    try:
        parse_json(data, what="game record", where="g", fix="give a record")
    except DeckgenError as exc:
        assert_clean_error(str(exc))
