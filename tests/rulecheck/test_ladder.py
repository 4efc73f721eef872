"""The skill ladder: every pairing played, intervals that hold, and the ladder in the
check's JSON, Markdown and terminal summary."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import typer
from typer.testing import CliRunner

from deckgen.rulecheck.ladder import LADDER_BOTS, ladder_markdown, run_ladder
from deckgen.rulespec import load_rules


def test_ladder_plays_every_pairing() -> None:
    spec = load_rules("block-classic")
    ladder = run_ladder(spec, 2, rounds=40, seed=3, worlds=4)
    pairs = [(p["bot"], p["against"]) for p in ladder["pairings"]]
    n = len(LADDER_BOTS)
    assert len(pairs) == n * (n - 1) // 2
    assert pairs[0] == ("pimc", "random")
    for p in ladder["pairings"]:
        low, high = p["ci95"]
        assert low <= p["share"] <= high
        assert low >= 0.0
        assert high <= 1.0
        assert p["wins"] == round(p["share"] * p["rounds"])
        assert 0.3 < p["fair_share"] <= 0.5  # two sides; a few rounds nobody wins
    # pimc, even with 4 worlds, wins more against random than an equal player would
    assert ladder["pairings"][0]["share"] > ladder["pairings"][0]["fair_share"]
    assert ladder == run_ladder(spec, 2, rounds=40, seed=3, worlds=4) | {
        "seconds": ladder["seconds"]
    }
    md = "\n".join(ladder_markdown("2", ladder))
    assert "| pimc | random |" in md
    assert "Skill gap: pimc wins" in md


def test_check_with_ladder(check_app: typer.Typer, tmp_path: Path) -> None:
    js, md = tmp_path / "r.json", tmp_path / "r.md"
    args = ["rules", "check", "two-player", "--rounds", "300", "--workers", "1"]
    args += ["--ladder", "--ladder-rounds", "6", "--report", str(js), "--md", str(md)]
    result = CliRunner().invoke(check_app, args)
    assert result.exit_code in (0, 3, 5), result.output
    report = json.loads(js.read_text())
    ladder = report["players"]["2"]["skill_ladder"]
    assert ladder["rounds_per_pairing"] == 6
    assert len(ladder["pairings"]) == 6
    text = md.read_text()
    assert "### Skill ladder, 2 players" in text
    # the ladder chart sits beside the report, linked from it: one bar per pairing,
    # each with its interval's whiskers and a fair-share tick
    chart = tmp_path / "r.2p.skill-ladder.svg"
    assert "(r.2p.skill-ladder.svg)" in text
    root = ET.fromstring(chart.read_text())
    bars = [e for e in root.iter() if e.tag.endswith("rect") and e.find("{*}title") is not None]
    assert len(bars) == 6
    labels = "".join(e.text or "" for e in root.iter() if e.tag.endswith("text"))
    for p in ladder["pairings"]:
        assert f"{p['bot']} vs {p['against']}" in labels
        assert f"{100 * p['share']:.1f} %" in labels
    assert "skill ladder: Skill gap: pimc wins" in result.stdout
    bad = CliRunner().invoke(check_app, [*args[:5], "--ladder", "--ladder-rounds", "0"])
    assert bad.exit_code == 2
    assert "--ladder-rounds" in bad.output
