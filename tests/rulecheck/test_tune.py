"""``deckgen rules tune``: the smallest change of a file's own parameters, proved by the
check itself."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.errors import InputError
from deckgen.rulecheck.tune import DROP, changed_spec, parse_goal, patched_toml
from deckgen.rulespec import load_rules, rules_from_data

RULES = Path(__file__).resolve().parents[2] / "rules"


def test_patched_file_keeps_the_text_and_parses_to_the_changed_rules() -> None:
    text = (RULES / "chicken-foot.toml").read_text(encoding="utf-8")
    spec = load_rules("chicken-foot")
    changes = {
        "turn.draw": "until_playable",
        "turn.draw_limit": None,
        DROP: ["play.draw_limit"],
        "deal.hand_size": {
            **{str(k): v for k, v in spec.raw["deal"]["hand_size"].items()},
            "2": 13,
        },
    }
    out = patched_toml(text, changes)
    assert out.splitlines()[0] == text.splitlines()[0]  # the comments stay
    data = tomllib.loads(out)
    assert data == changed_spec(spec, changes).raw
    assert "draw_limit" not in data["turn"]
    assert not any(c["id"] == "play.draw_limit" for c in data["clause"])
    rules_from_data(data)  # a valid rules file


def test_a_goal_names_a_design_finding() -> None:
    assert parse_goal("blocked<0.2").below == 0.2
    assert parse_goal("first_player").finding == "first_player"
    with pytest.raises(InputError):
        parse_goal("os.system")


def test_the_best_change_applied_ends_the_finding(tmp_path: Path) -> None:
    # partnership to 300 points: a match takes far longer than a table game should
    text = (RULES / "partnership.toml").read_text(encoding="utf-8")
    slow = tmp_path / "slow.toml"
    slow.write_text(text.replace("target = 30\n", "target = 300\n"), encoding="utf-8")
    runner = CliRunner()
    out = tmp_path / "tuned"
    tuned = runner.invoke(
        app,
        ["rules", "tune", str(slow), "--goal", "match_time", "--vary", "match.target",
         "--screen-rounds", "600", "--rounds", "2000", "--out", str(out), "-q"],
    )  # fmt: skip
    assert tuned.exit_code == 0, tuned.output
    assert "Best: match.target = " in tuned.stdout
    assert (out / "tune.svg").read_text().startswith("<svg")
    fixed = out / "partnership-tuned.toml"
    target = tomllib.loads(fixed.read_text())["match"]["target"]
    assert 30 <= target < 300
    before = runner.invoke(app, ["rules", "check", str(slow), "--rounds", "2000", "--json",
                                 "--no-confirm", "--workers", "1"])  # fmt: skip
    after = runner.invoke(app, ["rules", "check", str(fixed), "--rounds", "2000", "--json",
                                "--no-confirm", "--workers", "1"])  # fmt: skip
    ids = [{w["id"] for w in json.loads(r.stdout)["warnings"]} for r in (before, after)]
    assert "match_time" in ids[0]
    assert "match_time" not in ids[1]


def test_a_finding_no_parameter_can_remove_says_so_and_why() -> None:
    runner = CliRunner()
    res = runner.invoke(
        app,
        ["rules", "tune", "chicken-foot", "--players", "2", "--goal", "blocked<0.05",
         "--vary", "turn.draw_limit", "--screen-rounds", "300", "--rounds", "600", "-q"],
    )  # fmt: skip
    assert res.exit_code == 1, res.output
    assert "No change of one or two parameters removes the finding" in res.stdout
    assert "With smart players in every seat" in res.stdout


def test_the_skilled_figure_is_weighed_against_the_goal_and_the_random_figure() -> None:
    """Double Twelve's starter edge is larger with smart players (+16.9 points) than with
    random ones (+12.1): the sentence says "more strongly", not "if less strongly"."""
    from deckgen.rulecheck.tune import Goal, TuneResult, Variant, skilled_sentence

    def result(random_figure: float, skilled: float) -> TuneResult:
        before = Variant({}, "the file as it is", 0, figure=random_figure)
        spec = load_rules("double-twelve")
        return TuneResult(spec, 4, Goal("first_player", None), 0.10, before, [], skilled=skilled)

    stronger = skilled_sentence(result(0.121, 0.169))
    assert stronger.endswith("(with random bots: +12.1 pt), so it holds with skilled "
                             "players too, and more strongly.")  # fmt: skip
    weaker = skilled_sentence(result(0.80, 0.30))
    assert weaker.endswith("so it holds with skilled players too, if less strongly.")
    gone = skilled_sentence(result(0.80, 0.05))
    assert gone.endswith(": the rest is how random bots play, not the rules.")


def test_the_table_says_which_rows_were_confirmed_and_why_they_come_first() -> None:
    """Confirmed changes come first, screened ones after, each group by its figure: a
    designer read 280 min after 482 min as a table out of order."""
    from deckgen.rulecheck.tune import Goal, TuneResult, Variant, table_lines

    before = Variant({}, "the file as it is", 0, figure=320.0, rounds=4000, confirmed=True)
    rows = [
        Variant({"a": 1}, "a = 1", 1, figure=482.0, rounds=4000, confirmed=True),
        Variant({"b": 1}, "b = 1", 1, figure=280.0, rounds=1000),
    ]
    spec = load_rules("draw-classic")
    lines = table_lines(TuneResult(spec, 2, Goal("match_time", None), 240.0, before, rows))
    assert lines.index("| a = 1 | 4,000 | 482 min | - | - | no |") < lines.index(
        "| b = 1 | 1,000 | 280 min | - | - | no |"
    )
    assert any(line.startswith("The first change was played again") for line in lines)
