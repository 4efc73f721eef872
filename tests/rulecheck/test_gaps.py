"""Every gap the check found keeps a test: a hand-made rules file that lacks the rule,
on which the check must report the gap and exit 3 (or 4 for rules that cannot end)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from deckgen.engine.record import load_record, replay
from deckgen.rulespec import load_rules

FIXTURES = Path(__file__).parent / "fixtures"

CASES = [
    ("no-score-tie.toml", "score.tie", 800),
    ("no-later-starter.toml", "start.later", 300),
    ("no-double-fallback.toml", "start.no_double", 400),
    ("no-match-tie.toml", "match.tie", 800),
    ("no-several-at-target.toml", "match.several_at_target", 800),
    ("no-start-tile.toml", "lead.no_tile", 200),
    ("redeal-forever.toml", "setup.redeal_limit", 200),
]


@pytest.mark.parametrize(("name", "situation", "rounds"), CASES)
def test_fixture_gap_is_reported_with_exit_3(
    check_app: typer.Typer,
    runner: CliRunner,
    tmp_path: Path,
    name: str,
    situation: str,
    rounds: int,
) -> None:
    out = tmp_path / "check.json"
    md = tmp_path / "check.md"
    result = runner.invoke(
        check_app,
        ["rules", "check", str(FIXTURES / name), "--rounds", str(rounds), "--workers", "1",
         "--report", str(out), "--md", str(md), "--quiet"],
    )  # fmt: skip
    assert result.exit_code == 3, result.output
    assert result.stdout.strip().endswith(": gaps")
    report = json.loads(out.read_text())
    assert report["verdict"] == "gaps"
    assert report["exit_code"] == 3
    (sec,) = report["players"].values()
    gaps = {g["situation"]: g for g in sec["gaps"]}
    assert situation in gaps, list(gaps)
    gap = gaps[situation]
    assert gap["events"] >= 1
    assert gap["fallback"]
    assert any(situation in r for r in report["reasons"])
    assert f"`{situation}`" in md.read_text()
    # the example game record replays under the rules and shows the gap
    rec_path = tmp_path / gap["example"]["record"]
    rec = load_record(rec_path)
    spec = load_rules(FIXTURES / name)
    replayed = replay(rec, spec=spec)
    assert replayed.ok, replayed.message
    if situation == "setup.redeal_limit":  # the deal kept after 100 redeals replays too
        assert any(r.redeals >= 100 for r in rec.rounds)
    seen = [g for r in rec.rounds for g in r.result.gaps] + rec.result.gaps
    assert situation in seen


def test_rules_that_never_end_are_broken(check_app, runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "r.json"
    result = runner.invoke(
        check_app,
        ["rules", "check", str(FIXTURES / "never-ends.toml"), "--rounds", "50", "--workers", "1",
         "--report", str(out)],
    )  # fmt: skip
    assert result.exit_code == 4, result.output
    report = json.loads(out.read_text())
    assert report["verdict"] == "broken"
    sec = report["players"]["2"]
    assert not sec["termination"]["ok"]
    assert not sec["termination"]["every_match_ended"]
    assert sec["termination"]["longest_match_rounds"] == 1000
    assert any("did not end" in r for r in report["reasons"])


def test_exact_odds_flag_a_gap_that_play_may_miss(check_app, runner) -> None:  # type: ignore[no-untyped-def]
    # 20 rounds rarely meet "no double dealt", but the exact odds still flag it
    result = runner.invoke(
        check_app,
        [
            "rules",
            "check",
            str(FIXTURES / "no-double-fallback.toml"),
            "--rounds",
            "1",
            "--workers",
            "1",
        ],
    )
    assert result.exit_code == 3
    assert "start.no_double can happen (p = 0.144)" in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["two-player", "--players", "3"], "players"),
        (["two-player", "--players", "two"], "--players"),
        (["two-player", "--bots", "rnd"], "random"),
        (["two-player", "--rounds", "0"], "--rounds"),
        (["no-such-rules"], "unknown rules"),
        (["two-player", "--seconds-per-turn", "0"], "seconds"),
    ],
)
def test_user_errors_exit_2(check_app, runner, args: list[str], needle: str) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(check_app, ["rules", "check", *args, "--workers", "1"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ")
    assert needle in result.stderr
    assert "Traceback" not in result.output


def test_ok_exits_0_and_writes_both_reports(check_app, runner, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out, md = tmp_path / "sub" / "c.json", tmp_path / "c.md"
    result = runner.invoke(
        check_app,
        ["rules", "check", "two-player", "--rounds", "2000", "--report", str(out), "--md", str(md)],
    )
    assert result.exit_code == 0, result.output
    assert "two-player: ok" in result.stdout
    assert "starting player wins" in result.stdout
    assert json.loads(out.read_text())["verdict"] == "ok"
    assert md.read_text().startswith("# Rules check: Two-Player Domino")
    charts = [f"c.2p.{name}.svg" for name in ("clauses", "round-length", "wins")]
    assert sorted(p.name for p in tmp_path.rglob("*")) == [*charts, "c.json", "c.md", "sub"]


def test_console_script_exit_codes(tmp_path: Path) -> None:
    import subprocess
    import sys

    deckgen = Path(sys.executable).parent / "deckgen"
    gap = subprocess.run(
        [str(deckgen), "rules", "check", str(FIXTURES / "no-score-tie.toml"), "--rounds", "500",
         "--workers", "2", "--quiet"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert gap.returncode == 3, gap.stderr
    assert gap.stdout.strip() == "fixture-no-score-tie: gaps"
    ok = subprocess.run(
        [str(deckgen), "rules", "check", "zweier-domino", "--rounds", "3000", "--md",
         str(tmp_path / "c.md")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert ok.returncode == 0, ok.stderr
    assert "two-player: ok" in ok.stdout.splitlines()
    assert "Traceback" not in ok.stderr
