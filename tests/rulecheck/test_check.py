"""The rules check end to end: the report's schema, determinism, the bundled files."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

import deckgen.rulecheck.check as check_module
from deckgen.engine.backends.jit import HAVE_JIT
from deckgen.engine.record import load_record, replay
from deckgen.errors import InputError
from deckgen.progress import CollectingReporter
from deckgen.rulecheck.check import CheckOptions, run_check
from deckgen.rulecheck.examples import write_examples
from deckgen.rulecheck.markdown import report_markdown
from deckgen.rulecheck.report import EXIT_CODES, REPORT_FORMAT, REPORT_VERSION, build_report
from deckgen.rulespec import list_rules, load_rules


def _strip(report: dict) -> dict:  # type: ignore[type-arg]
    out = dict(report)
    out.pop("seconds")
    out["settings"] = {k: v for k, v in report["settings"].items() if k != "workers"}
    return out


def test_report_schema_and_stable_keys() -> None:
    spec = load_rules("two-player")
    rep = CollectingReporter()
    result = run_check(spec, CheckOptions(rounds=4000, workers=1), reporter=rep)
    report = build_report(result)
    assert report["format"] == REPORT_FORMAT
    assert report["version"] == REPORT_VERSION
    assert report["verdict"] == "ok"
    assert report["exit_code"] == 0
    assert rep.tasks
    assert rep.steps >= 4000
    sec = report["players"]["2"]
    st = sec["stats"]
    # the keys the booklet prints
    assert 10 < st["playing_time_minutes"]["mean"] < 30
    assert 0.45 < st["first_player_win_share"]["share"] < 0.65
    assert st["round_end"]["blocked"]["share"] == 0
    assert 0.3 < st["round_end"]["not_out"]["share"] < 0.45
    assert st["rounds"] == 4000
    assert st["path"] == "fast"
    lo, hi = st["turns_per_round"]["ci95"]
    assert lo < st["turns_per_round"]["mean"] < hi
    assert st["rounds_per_match"]["mean"] == 4
    # the reference engine judged a sample with the invariants on
    assert sec["invariants"]["rounds_checked"] >= 400  # check.INVARIANT_MIN
    assert not sec["invariants"]["violations"]
    ids = [c["id"] for c in sec["coverage"]["clauses"]]
    assert ids == spec.decision_clause_ids()
    skip = next(c for c in sec["coverage"]["clauses"] if c["id"] == "lead.skip_double")
    assert 0.15 < skip["share"] < 0.35  # 7 doubles among 14 stock tiles
    assert sec["termination"]["ok"]
    assert sec["termination"]["longest_match_rounds"] == 4
    assert sec["gaps"] == []
    md = report_markdown(report)
    assert "**Verdict: ok**" in md
    assert "## 2 players" in md
    assert "lead.skip_double" in md
    json.dumps(report)  # plain JSON


@pytest.mark.parametrize(("rid", "n"), [("card-domino", 3), ("block-classic", 2)])
def test_results_do_not_depend_on_workers(rid: str, n: int) -> None:
    spec = load_rules(rid)
    opts = {"rounds": 3000, "players": (n,), "bots": ("random", "greedy"), "seed": 4}
    one = build_report(run_check(spec, CheckOptions(workers=1, **opts)))  # type: ignore[arg-type]
    two = build_report(run_check(spec, CheckOptions(workers=2, **opts)))  # type: ignore[arg-type]
    assert _strip(one) == _strip(two)
    other = build_report(run_check(spec, CheckOptions(workers=1, **{**opts, "seed": 5})))  # type: ignore[arg-type]
    assert _strip(other) != _strip(one)
    by_bots = one["players"][str(n)]["stats_by_bots"]
    assert set(by_bots) == {"random", "greedy"}
    assert by_bots["random"] == one["players"][str(n)]["stats"]
    assert by_bots["greedy"]["path"] == "fast"
    assert by_bots["greedy"]["rounds"] >= 3000


@pytest.mark.skipif(not HAVE_JIT, reason="numba is not installed")
@pytest.mark.parametrize(("rid", "n"), [("all-fives", 3), ("mexican-train", 2)])
def test_a_compiled_engine_loaded_beside_the_judge_gives_the_same_report(
    rid: str, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two workers and a compiled engine, the judge's pool forks first and the fast
    path's after numba is loaded (judge's chunks not begun by then move over: four of
    all-fives'). The report is the one worker's."""
    spec = load_rules(rid)
    opts = CheckOptions(rounds=3000, players=(n,), seed=4, workers=1)
    one = build_report(run_check(spec, opts))
    moved: list[int] = []
    share = check_module._share

    def counting_share(*args: Any) -> int:
        moved.append(share(*args))
        return moved[-1]

    monkeypatch.setattr(check_module, "_share", counting_share)
    two = build_report(run_check(spec, replace(opts, workers=2)))
    assert moved, "the compiled engine was not loaded beside the judge"
    assert _strip(one) == _strip(two)
    assert two["players"][str(n)]["stats"]["path"] == "fast"


def test_reference_only_when_asked() -> None:
    spec = load_rules("two-player")
    report = build_report(run_check(spec, CheckOptions(rounds=1200, workers=1, fast=False)))
    st = report["players"]["2"]["stats"]
    assert st["path"] == "reference"
    assert st["rounds"] >= 1200
    assert report["players"]["2"]["coverage"]["rounds_tried"] == st["rounds"]


@pytest.mark.parametrize("spec", list_rules(), ids=lambda s: s.id)
def test_every_bundled_rules_file_is_ok(spec) -> None:  # type: ignore[no-untyped-def]
    report = build_report(run_check(spec, CheckOptions(rounds=600, workers=1)))
    # design findings may come and go with the statistics; gaps and breakage may not,
    # and nothing a bundled file prints may contradict what it plays
    assert report["verdict"] not in ("gaps", "broken"), report["reasons"]
    assert report["exit_code"] == EXIT_CODES[report["verdict"]]
    text = [w["message"] for w in report["warnings"] if w["players"] is None]
    assert not text, text
    for sec in report["players"].values():
        assert sec["feasibility"]["opening"]["applicable_to_every_deal"]
        assert not sec["invariants"]["violations"]


def test_bad_options_are_user_errors() -> None:
    spec = load_rules("two-player")
    with pytest.raises(InputError, match="players"):
        run_check(spec, CheckOptions(rounds=10, players=(3,)))
    with pytest.raises(InputError, match="bot"):
        run_check(spec, CheckOptions(rounds=10, bots=("randm",)))
    with pytest.raises(InputError, match="rounds"):
        run_check(spec, CheckOptions(rounds=0))


def test_gap_example_record_replays(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    spec = load_rules(Path(__file__).parent / "fixtures" / "no-score-tie.toml")
    report = build_report(run_check(spec, CheckOptions(rounds=600, workers=1)))
    written = write_examples(spec, report, tmp_path, "check")
    (gap,) = [g for g in report["players"]["2"]["gaps"] if g["situation"] == "score.tie"]
    assert gap["example"]["record"] == "check.2p.gap-score-tie.record.json"
    path = tmp_path / gap["example"]["record"]
    assert path in written
    rec = load_record(path)
    assert any("score.tie" in r.result.gaps for r in rec.rounds)
    assert replay(rec, spec=spec).ok


def test_an_invariant_violation_makes_the_rules_broken(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import deckgen.rulecheck.chunks as chunks
    from deckgen.engine import InvariantError
    from deckgen.rulecheck.chunks import match_seed
    from deckgen.rulecheck.files import write_report

    real = chunks.play_match  # type: ignore[attr-defined]
    bad_seed = match_seed(0, 3)

    def flaky(engine, players, seed, **kw):  # type: ignore[no-untyped-def]
        if seed == bad_seed and engine.check:
            raise InvariantError("a tile in hand 1 is also somewhere else")
        return real(engine, players, seed, **kw)

    monkeypatch.setattr(chunks, "play_match", flaky)
    spec = load_rules("two-player")
    report = build_report(run_check(spec, CheckOptions(rounds=400, workers=1)))
    assert report["verdict"] == "broken"
    assert report["exit_code"] == 4
    (v,) = report["players"]["2"]["invariants"]["violations"]
    assert v["seed"] == bad_seed
    assert v["kind"] == "invariant"
    assert f"--seed {bad_seed}" in v["reproduce"]
    assert any("somewhere else" in r for r in report["reasons"])
    # both languages name what broke, the engine's detail and how to play the match again
    from deckgen.rulecheck.messages import say
    from deckgen.rulecheck.report import reason_items

    (broken,), _ = reason_items(report["players"])
    german = say(broken, "de")
    assert german.startswith(
        f"Mit 2 Spielern, Partie mit Seed {bad_seed}: Die Spiel-Engine hat eine ihrer eigenen "
        "Prüfungen verletzt"
    )
    assert "a tile in hand 1 is also somewhere else" in german
    assert f"nachspielen mit `{v['reproduce']}`" in german
    assert "JSON" not in german
    assert "the engine broke one of its own checks" in say(broken, "en")
    write_report(spec, report, json_path=tmp_path / "c.json")
    rec = load_record(tmp_path / v["record"])
    assert rec.seed == bad_seed
    assert rec.rules.id == "two-player"
    assert (
        json.loads((tmp_path / "c.json").read_text())["players"]["2"]["invariants"]["violations"][
            0
        ]["record"]
        == v["record"]
    )


def test_documented_stable_keys_exist_in_a_report() -> None:
    """Every key in the docs' table of stable keys resolves in a real report."""
    import re
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "rules-check.md").read_text()
    table = doc[doc.index("**Stable keys for the booklet**") :]
    keys = re.findall(r"`((?:players|playing_time)\.[a-z0-9_.<>]+)`", table)
    assert len(keys) >= 8
    report = build_report(run_check(load_rules("two-player"), CheckOptions(rounds=2500)))
    for key in keys:
        node = report
        for part in key.replace("<n>", "2").split("."):
            assert isinstance(node, dict), key
            assert part in node, key
            node = node[part]
        assert isinstance(node, int | float | str), key
    # and every STATS key the docs list is in the report's stats
    stats_block = doc[doc.index("`STATS` uses two shapes") : doc.index("Seats and sides")]
    documented = set(re.findall(r'"([a-z_0-9]+)":', stats_block))
    stats = report["players"]["2"]["stats"]
    missing = documented - set(stats) - {"out", "blocked", "reserve", "not_out", "by_side",
                                         "winner", "0", "1", "shared", "none", "ci95",
                                         "branching_factor"}  # fmt: skip
    assert not missing, missing


def test_what_the_file_says_before_play_is_found_while_the_workers_play() -> None:
    """The texts against the parameters are read while the first chunks play; the report
    carries the same findings as when it reads them itself."""
    import copy

    from deckgen.rulecheck.statics import spec_findings
    from deckgen.rulespec import rules_from_data

    raw = copy.deepcopy(load_rules("card-domino").raw)
    clause = next(c for c in raw["clause"] if c["id"] == "play.draw_limit")
    clause["text"]["en"] = clause["text"]["en"].replace("{draw_limit_word}", "five")
    spec = rules_from_data(raw)
    result = run_check(spec, CheckOptions(rounds=2000, players=(2,), workers=2))
    assert result.said_before is not None
    messages = [f["message"] for f in result.said_before]
    assert messages == [f["message"] for f in spec_findings(spec)]
    assert any("five" in m for m in messages), messages
    report = build_report(result)
    alone = build_report(replace(result, said_before=None))
    assert report["warnings"] == alone["warnings"]
    assert {f["message"] for f in result.said_before} <= {w["message"] for w in report["warnings"]}


def test_the_demos_warning_names_the_level_once() -> None:
    """`deckgen demo` passes on a verdict other than ok as one line: graded reasons name
    their level already (no "notice: notice:"); reasons without one get the verdict."""
    from deckgen.rulecheck.bundled import warning_line

    graded = {"verdict": "notice", "reasons": ["notice: a", "notice: b", "notice: c", "d"]}
    assert warning_line("x", graded) == "rules check of x: notice: a; notice: b; notice: c"
    broken = {"verdict": "broken", "reasons": ["seat 1 chose 3-4, not a legal move"]}
    assert warning_line("y", broken) == (
        "rules check of y: broken: seat 1 chose 3-4, not a legal move"
    )
    assert warning_line("z", {"verdict": "gaps", "reasons": []}) == "rules check of z: gaps"


def test_the_demo_warns_only_about_verdicts_that_ask_for_a_change() -> None:
    from deckgen.rulecheck.bundled import asks_for_action

    assert [v for v in EXIT_CODES if asks_for_action(v)] == ["warn", "fail", "gaps", "broken"]
