"""Placeholders in rules texts: exactly ``{name}``, refused at load time otherwise.

A format spec (``{set:>1000000000}`` would allocate gigabytes), a conversion, an
attribute or index lookup are refused when the rules file loads, with the clause id;
``render`` never calls ``str.format``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen.errors import SpecError
from deckgen.resources import rules_dir
from deckgen.rulespec import rules_from_data
from deckgen.rulespec.text import PlaceholderError, placeholders, render
from deckgen.specfile import load_toml
from tests.hostile.contract import assert_clean_error, examples, run_bounded


def _rules() -> dict[str, Any]:
    return load_toml(rules_dir() / "card-domino.toml", what="rules file")


def _with_text(text: str) -> dict[str, Any]:
    data = copy.deepcopy(_rules())
    data["clause"][0]["text"]["en"] = text
    return data


@pytest.mark.parametrize(
    "field",
    [
        "{set:>1000000000}",
        "{set:>{tiles}}",
        "{target:,}",
        "{set!r}",
        "{set!s:>999999999}",
        "{set.__class__}",
        "{set.__class__.__init__.__globals__}",
        "{set[0]}",
        "{0}",
        "{}",
        "{ set }",
        "{set",
        "set}",
    ],
)
def test_anything_but_a_plain_name_is_refused_at_load_time(field: str) -> None:
    data = _with_text(f"Text with {field} inside.")
    clause_id = data["clause"][0]["id"]

    def load() -> str:
        try:
            rules_from_data(data, path="x.toml")
        except SpecError as exc:
            return str(exc)
        return "loaded"

    message = run_bounded(load, extra_mb=200, seconds=30)
    assert message != "loaded"
    assert_clean_error(message)
    assert f"clause '{clause_id}'" in message


def test_render_never_formats() -> None:
    with pytest.raises(PlaceholderError):
        render("{set:>999999999}", {"set": "x"})
    assert render("a {set} b {{c}}", {"set": "double-6"}) == "a double-6 b {c}"


_names = st.sampled_from(["set", "tiles", "target", "draw_limit", "players", "reserve"])


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet=st.sampled_from("{}:!.[]0123456789>,sexabc _"), max_size=40))
def test_any_placeholder_text_renders_plainly_or_is_refused(text: str) -> None:
    params = {"set": "double-6", "tiles": 28, "target": 100}
    try:
        names: list[str] | None = placeholders(text)
    except ValueError as exc:
        names, message = None, str(exc)
    if names is None:
        assert len(message) < 200
    elif all(n in params for n in names):
        out = render(text, params)
        assert len(out) <= len(text) + 10 * len(names)


@settings(max_examples=examples(20, 200), deadline=None)
@given(
    name=_names, spec=st.text(alphabet=st.sampled_from(">0123456789.,x"), min_size=1, max_size=12)
)
def test_format_specs_in_a_rules_file_are_refused_with_the_clause(name: str, spec: str) -> None:
    data = _with_text(f"A {{{name}:{spec}}} text.")
    with pytest.raises(SpecError) as err:
        rules_from_data(data, path="x.toml")
    assert_clean_error(str(err.value))
    assert "clause '" in str(err.value)
