"""Files deckgen wrote, edited by hand: game records and check reports.

They are validated like every other input (versioned schema, size limit, bounded
values). ``rules replay`` exits 1 for a record that does not match its rules and 2 for
a file that is not a valid record; ``rules booklet --check`` exits 2 for a report with
wrong types. Properties: any mutation of a real record or report gives exactly one of
those outcomes, never a traceback.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.errors import SpecError
from tests.hostile.contract import assert_clean_error, examples

_RECORD: dict[str, Any] = {}
_REPORT: dict[str, Any] = {}


def real_record() -> dict[str, Any]:
    """A two-player match record, played once per test session."""
    if not _RECORD:
        from deckgen.engine import Engine, make_bots, play_match
        from deckgen.engine.record import match_record
        from deckgen.rulespec import load_rules

        spec = load_rules("two-player")
        match = play_match(Engine(spec, 2), make_bots(["greedy"], 2, 3), 3, record=True)
        _RECORD.update(match_record(spec, match, seed=3, bots=["greedy", "greedy"]))
    return copy.deepcopy(_RECORD)


def real_report() -> dict[str, Any]:
    if not _REPORT:
        from deckgen.rulecheck.check import CheckOptions, run_check
        from deckgen.rulecheck.report import build_report
        from deckgen.rulespec import load_rules

        options = CheckOptions(rounds=400, players=None, bots=("random",), seed=1, workers=1)
        _REPORT.update(build_report(run_check(load_rules("two-player"), options)))
    return copy.deepcopy(_REPORT)


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def _replay(path: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["rules", "replay", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


def _write(tmp: Path, data: Any) -> Path:
    path = tmp / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_real_record_replays(tmp_path: Path) -> None:
    code, out, err = _replay(_write(tmp_path, real_record()))
    assert code == 0, out + err


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda r: r["rounds"][0].__setitem__("redeals", -1), "redeals"),
        (lambda r: r["rounds"][0].__setitem__("redeals", 10**15), "redeals"),
        (lambda r: r["rounds"][0].__setitem__("redeals", 10**4000), "digits"),
        (lambda r: r["rules"].__setitem__("id", "no-such-rules"), "rules.id"),
        (lambda r: r["rules"].__setitem__("id", "x\x1b[2J"), "U+001B"),
        (lambda r: r.__setitem__("version", 2), "version"),
        (lambda r: r.__setitem__("players", 5), "seats"),
        (lambda r: r["rounds"][0]["actions"].extend(r["rounds"][0]["actions"] * 3000), "actions"),
        (lambda r: r.__setitem__("seed", _nested(40)), "deeper"),
    ],
    ids=["negative-redeals", "huge-redeals", "5000-digits", "unknown-rules", "escape",
         "version", "players", "many-actions", "deep"],
)  # fmt: skip
def test_an_invalid_record_exits_2(change: Any, needle: str, tmp_path: Path) -> None:
    record = real_record()
    change(record)
    code, out, err = _replay(_write(tmp_path, record))
    assert code == 2, (code, out, err)
    assert_clean_error(err.removeprefix("error: "))
    assert needle in err


def _set_tile(record: dict[str, Any], key: tuple[Any, ...], name: str) -> None:
    node: Any = record["rounds"][0]
    for part in key[:-1]:
        node = node[part]
    node[key[-1]] = name


@pytest.mark.parametrize(
    ("key", "name", "needle"),
    [
        (("deal", "hands", 1, 2), "9-9", "rounds[0].deal.hands[1][2]"),
        (("deal", "hands", 0, 0), "7-0", "rounds[0].deal.hands[0][0]"),
        (("deal", "hands", 0, 0), "zz", "rounds[0].deal.hands[0][0]"),
        (("deal", "stock", 0), "18-18", "rounds[0].deal.stock[0]"),
        (("actions", 0, "tile"), "6-99", "rounds[0].actions[0].tile"),
    ],
    ids=["hand-9-9", "hand-7-0", "hand-garbage", "stock-18-18", "action-6-99"],
)
def test_a_deal_naming_a_tile_outside_the_set_is_an_invalid_record(
    key: tuple[Any, ...], name: str, needle: str, tmp_path: Path
) -> None:
    """Not a mismatch (exit 1): the file is not a record of its rules' set (exit 2)."""
    from deckgen.engine.record import load_record
    from deckgen.rulespec import load_rules

    record = real_record()
    assert record["rounds"][0]["deal"]["stock"], "two-player deals a stock"
    _set_tile(record, key, name)
    path = _write(tmp_path, record)
    code, out, err = _replay(path)
    assert code == 2, (code, out, err)
    assert_clean_error(err.removeprefix("error: "))
    assert needle in err, err
    assert "double-6" in err, err
    load_record(path)  # the shape is fine without the rules ...
    with pytest.raises(SpecError, match=r"not a tile of double-6"):
        load_record(path, spec=load_rules("two-player"))  # ... but not with them


def test_a_tile_written_the_other_way_round_is_in_the_set(tmp_path: Path) -> None:
    record = real_record()
    hand = record["rounds"][0]["deal"]["hands"][0]
    low, high = hand[0].split("-")
    hand[0] = f"{high}-{low}"
    code, out, err = _replay(_write(tmp_path, record))
    assert code == 0, out + err


def test_tens_of_megabytes_of_actions_are_refused_by_size(tmp_path: Path) -> None:
    record = real_record()
    action = record["rounds"][0]["actions"][0]
    path = tmp_path / "game.json"
    with path.open("w", encoding="utf-8") as fh:
        fh.write(json.dumps(record)[:-1] + ', "padding": [')
        fh.write(",".join([json.dumps(action)] * 400_000))
        fh.write("]}")
    assert path.stat().st_size > 10_000_000
    code, _out, err = _replay(path)
    assert code == 2, err
    assert "MB" in err


def test_a_record_that_does_not_match_exits_1(tmp_path: Path) -> None:
    record = real_record()
    record["rounds"][0]["result"]["points"] = [
        p + 1 for p in record["rounds"][0]["result"]["points"]
    ]
    code, out, err = _replay(_write(tmp_path, record))
    assert code == 1, out + err
    assert "MISMATCH" in out


# ----------------------------------------------------------------- mutations
_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([-1, 0, 1, 7, 8, 255, 2**31, 2**53 + 1]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(["", "6-6", "99-99", "x\x00y", "\x1b[31m", "card-domino", "lead", "pass"]),
    st.lists(st.integers(min_value=-3, max_value=30), max_size=5),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:6]):
            out += _paths(v, (*prefix, i))
    return out


def _mutate(data: Any, path: tuple[Any, ...], value: Any, how: str) -> Any:
    if not path:
        return value
    node = data
    for part in path[:-1]:
        node = node[part]
    last = path[-1]
    if how == "delete" and isinstance(node, dict):
        del node[last]
    elif how == "wrap":
        node[last] = [node[last]] * 2 if isinstance(node[last], list) else [node[last]]
    else:
        node[last] = value
    return data


@settings(
    max_examples=examples(60, 3000),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    pick=st.integers(min_value=0, max_value=10**6),
    value=_values,
    how=st.sampled_from(["set", "set", "delete", "wrap"]),
)
def test_any_mutated_record_replays_mismatches_or_is_refused(
    pick: int, value: Any, how: str, tmp_path: Path
) -> None:
    record = real_record()
    paths = _paths(record)
    record = _mutate(record, paths[pick % len(paths)], value, how)
    code, out, err = _replay(_write(tmp_path, record))
    assert code in (0, 1, 2), (code, out, err)
    if code == 2:
        assert err.startswith("error: ")
        assert_clean_error(err)


@settings(
    max_examples=examples(80, 3000),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    pick=st.integers(min_value=0, max_value=10**6),
    value=_values,
    how=st.sampled_from(["set", "set", "delete", "wrap"]),
)
def test_any_mutated_check_report_gives_facts_or_one_error(
    pick: int, value: Any, how: str, tmp_path: Path
) -> None:
    from deckgen.booklet.facts import facts_from_report
    from deckgen.reportfile import load_check_report

    report = real_report()
    paths = _paths(report)
    report = _mutate(report, paths[pick % len(paths)], value, how)
    path = tmp_path / "check.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    try:
        data = load_check_report(path)
    except SpecError as exc:
        assert_clean_error(str(exc))
        return
    facts = facts_from_report(data, players=2)
    if facts is not None:
        assert 0 <= facts.blocked_share <= 1
        assert facts.rounds >= 1


def test_booklet_with_a_report_of_wrong_types_exits_2(tmp_path: Path) -> None:
    report = real_report()
    report["players"]["2"]["stats"]["rounds"] = "many"
    report["playing_time"]["seconds_per_turn"] = -5
    path = tmp_path / "check.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    result = CliRunner().invoke(
        app, ["rules", "booklet", "two-player", "--check", str(path), "--out", str(tmp_path / "b")]
    )
    assert result.exit_code == 2, result.output
    assert "players.2.stats.rounds" in result.stderr
    assert "seconds_per_turn" in result.stderr
    assert_clean_error(result.stderr)
    assert not (tmp_path / "b").exists()
