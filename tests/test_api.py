"""The public face: ``import deckgen`` is light, its names work, and the CLI calls them."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import deckgen
from deckgen.cli import app
from deckgen.engine import Engine, make_bots
from deckgen.engine import play_match as engine_play_match
from deckgen.engine.record import load_record, replay

HEAVY = ("weasyprint", "reportlab", "pypdfium2", "pikepdf", "numpy", "typer", "rich")


def _imported_after(code: str) -> list[str]:
    probe = (
        f"{code}\nimport sys\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    loaded: list[str] = json.loads(proc.stdout.strip().replace("'", '"'))
    return loaded


def test_import_deckgen_is_light() -> None:
    assert _imported_after("import deckgen") == []


def test_public_names_load_without_drawing_libraries() -> None:
    code = "import deckgen\nfor name in deckgen.__all__: getattr(deckgen, name)"
    loaded = _imported_after(code)
    assert "weasyprint" not in loaded
    assert "reportlab" not in loaded


def test_all_names_resolve_and_unknown_names_fail() -> None:
    for name in deckgen.__all__:
        assert getattr(deckgen, name) is not None, name
    assert set(deckgen.__all__) <= set(dir(deckgen))
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = deckgen.nothing_here


def _deck(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "api.toml"
    path.write_text('name = "API Deck"\nset = "double-6"\n\n[imprint]\nrules = "two-player"\n')
    return path


def test_build_deck_writes_what_the_cli_writes(tmp_path: Path) -> None:
    deck_file = _deck(tmp_path)
    built = deckgen.build_deck(deck_file, tmp_path / "api", sheets="A4", preview=False)
    assert isinstance(built, deckgen.DeckBuild)
    names = sorted(p.name for p in built.files)
    assert names == [
        "back.pdf",
        "calibration.pdf",
        "cards.pdf",
        "manifest.json",
        "preflight.json",
        "sheets.pdf",
    ]
    assert built.cards == 30
    assert built.name == "API Deck"
    result = CliRunner().invoke(
        app,
        [
            *["deck", "build", str(deck_file), "--out", str(tmp_path / "cli"), "--sheets", "A4"],
            *["--no-preview", "-q"],
        ],
    )
    assert result.exit_code == 0, result.output
    for name in names:
        if name != "manifest.json":
            assert (tmp_path / "cli" / name).read_bytes() == (tmp_path / "api" / name).read_bytes()


def test_build_deck_puts_the_short_rules_on_the_imprint(tmp_path: Path) -> None:
    from pypdf import PdfReader

    from deckgen.rulespec import load_rules

    built = deckgen.build_deck(_deck(tmp_path), tmp_path / "out", preview=False)
    imprint = PdfReader(built.out_dir / "cards.pdf").pages[-1].extract_text()
    words = load_rules("two-player").summary("en").split()[:3]
    assert " ".join(words) in " ".join(imprint.split())


def test_build_deck_user_errors_write_nothing(tmp_path: Path) -> None:
    with pytest.raises(deckgen.DeckgenError, match=r"missing.toml"):
        deckgen.build_deck(tmp_path / "missing.toml", tmp_path / "out")
    with pytest.raises(deckgen.DeckgenError, match="paper"):
        deckgen.build_deck(_deck(tmp_path), tmp_path / "out", sheets="A17")
    with pytest.raises(deckgen.DeckgenError, match="preset"):
        deckgen.build_deck(_deck(tmp_path), tmp_path / "out", profile="meinspeil")
    with pytest.raises(deckgen.DeckgenError, match="back offset"):
        deckgen.build_deck(_deck(tmp_path), tmp_path / "out", back_offset_mm=(99.0, 0.0))
    assert not (tmp_path / "out").exists()


def test_play_match_is_the_engine_match_and_replays(tmp_path: Path) -> None:
    match = deckgen.play_match("card-domino", players=3, bots=["smart", "greedy"], seed=11)
    assert match.bots == ("smart", "greedy", "greedy")
    spec = deckgen.load_rules("card-domino")
    same = engine_play_match(
        Engine(spec, 3), make_bots(["smart", "greedy"], 3, 11), 11, record=True
    )
    assert match.totals == same.totals
    assert match.winners == same.winners
    assert [r.actions for r in match.result.rounds] == [r.actions for r in same.rounds]
    path = match.write_record(tmp_path / "game.json")
    assert replay(load_record(path), spec=spec).ok
    assert "Round 1: seat 1 starts" in match.lines()[1]  # people count seats from 1


def test_play_match_user_errors() -> None:
    with pytest.raises(deckgen.DeckgenError, match="players"):
        deckgen.play_match("two-player", players=9)
    with pytest.raises(deckgen.DeckgenError, match="bot"):
        deckgen.play_match("two-player", bots=["genius"])
    with pytest.raises(deckgen.DeckgenError, match="seed"):
        deckgen.play_match("two-player", seed=-1)
    with pytest.raises(deckgen.DeckgenError, match="did you mean"):
        deckgen.load_rules("card-domno")


@pytest.mark.parametrize(("rules", "players"), [("card-domino", 3), ("double-twelve", 4)])
def test_stepped_round_equals_the_engine_round(rules: str, players: int) -> None:
    """Stepping a round, choosing as greedy bots would, gives the engine's own round."""
    seed = 5
    steps = deckgen.new_round(rules, players=players, seed=seed)
    bots = make_bots(["greedy"], players, seed)
    before = steps.actions  # what the rules do before the first decision (none, or a turn-up)
    caused = []
    while not steps.is_over:
        moves = steps.legal_moves()
        assert moves
        assert steps.seat == steps.view.seat
        caused += steps.apply(bots[steps.seat].choose(steps.view, moves))
    spec = deckgen.load_rules(rules)
    same = Engine(spec, players).play_round(
        random.Random(seed), make_bots(["greedy"], players, seed), record=True
    )
    assert steps.actions == same.actions
    assert before + caused == same.actions
    result = steps.result()
    assert (result.end, result.points, result.winners) == (same.end, same.points, same.winners)
    assert steps.seat == -1


def test_stepped_round_refuses_illegal_moves_and_copies() -> None:
    steps = deckgen.new_round("two-player", seed=2)
    with pytest.raises(deckgen.DeckgenError, match="not over"):
        steps.result()
    trial = steps.copy()
    trial.apply(trial.legal_moves()[0])
    assert len(trial.actions) > len(steps.actions)
    illegal = type(steps.legal_moves()[0])(-5, 0, 0)
    with pytest.raises(deckgen.DeckgenError, match="not a legal move"):
        steps.apply(illegal)
    first = steps.legal_moves()[0]
    assert steps.describe(first) == f"{steps.tile(first.tile)} on the {first.value} (end 0)"


def test_check_rules_report_and_files(tmp_path: Path) -> None:
    check = deckgen.check_rules("two-player", rounds=2000, workers=1, seed=3)
    assert check.verdict in ("ok", "notice", "gaps", "broken")
    assert check.exit_code == {"ok": 0, "notice": 6, "gaps": 3, "broken": 4}[check.verdict]
    assert check.report["format"] == "deckgen-rules-check"
    assert check.report["players"]["2"]["stats"]["rounds"] >= 2000
    written = check.write(json_path=tmp_path / "c.json", md_path=tmp_path / "c.md")
    assert tmp_path / "c.json" in written
    assert tmp_path / "c.md" in written
    assert json.loads((tmp_path / "c.json").read_text())["verdict"] == check.verdict
    with pytest.raises(deckgen.DeckgenError, match="rounds"):
        deckgen.check_rules("two-player", rounds=0)


def test_make_booklet_user_error_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(deckgen.DeckgenError):
        deckgen.make_booklet("two-player", tmp_path / "b", langs=["fr"])  # type: ignore[list-item]
    assert not (tmp_path / "b").exists()
