"""``deckgen rules list/show/play/replay`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from deckgen.cli import app

RULES = Path(__file__).resolve().parents[2] / "rules"


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deckgen", "rules", *args],
        capture_output=True,
        text=True,
        input=stdin,
        check=False,
        timeout=120,
    )


def test_list_json(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(app, ["rules", "list", "--json"])
    assert result.exit_code == 0, result.output
    ids = {r["id"] for r in json.loads(result.stdout)["rules"]}
    assert {
        "card-domino",
        "block-classic",
        "draw-classic",
        "two-player",
        "partnership",
        "double-twelve",
    } <= ids


def test_show_in_both_languages(runner) -> None:  # type: ignore[no-untyped-def]
    result = runner.invoke(app, ["rules", "show", "Karten-Domino", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert "höchstens drei Karten" in result.stdout
    assert "Anmerkungen" in result.stdout
    result = runner.invoke(app, ["rules", "show", "partnership", "--json"])
    data = json.loads(result.stdout)
    assert data["params"]["scoring"]["bands"] == 10
    assert data["sections"][0]["id"] == "aim"


def test_play_record_replay_and_tamper(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    args = ["--players", "3", "--bots", "smart,greedy,random", "--seed", "8"]
    proc = _run("play", "draw-classic", *args, "--record", str(rec), "--check-invariants")
    assert proc.returncode == 0, proc.stderr
    assert "Match over after" in proc.stdout
    assert "seed 8" in proc.stdout
    assert _run("replay", str(rec)).returncode == 0
    data = json.loads(rec.read_text())
    k = next(i for i, a in enumerate(data["rounds"][0]["actions"]) if a["act"] == "play")
    data["rounds"][0]["actions"][k]["tile"] = (
        "6-6" if data["rounds"][0]["actions"][k]["tile"] != "6-6" else "0-0"
    )
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    proc = _run("replay", str(bad))
    assert proc.returncode == 1
    assert f"action {k + 1}" in proc.stdout
    assert "MISMATCH" in proc.stdout


def test_bad_rules_and_bad_options_exit_2(tmp_path: Path) -> None:
    proc = _run("show", "card-domno")
    assert proc.returncode == 2
    assert "did you mean 'card-domino'" in proc.stderr
    assert "Traceback" not in proc.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('format = 1\nid = "x"\n[players\n', encoding="utf-8")
    proc = _run("play", str(bad))
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ")
    assert "bad.toml" in proc.stderr
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(
        (RULES / "two-player.toml").read_text().replace("draw_limit = 3", "draw_limt = 3")
    )
    proc = _run("show", str(wrong))
    assert proc.returncode == 2
    assert "draw_limit" in proc.stderr
    proc = _run("play", "two-player", "--players", "3")
    assert proc.returncode == 2
    assert "2 players" in proc.stderr
    proc = _run("play", "two-player", "--bots", "randon")
    assert proc.returncode == 2
    assert "did you mean 'random'" in proc.stderr


def test_human_seat_from_piped_input(tmp_path: Path) -> None:
    rec = tmp_path / "h.json"
    # always choose move 1 (with a few bad entries first); 400 lines cover a whole match
    stdin = "x\n99\n" + "1\n" * 400
    proc = _run(
        "play", "two-player", "--human", "1", "--seed", "4", "--record", str(rec), stdin=stdin
    )
    assert proc.returncode == 0, proc.stderr
    assert "Your hand:" in proc.stdout
    assert "Please type a number" in proc.stdout
    assert "Match over after 4 rounds" in proc.stdout
    # seats are numbered from 1 for people: the human is seat 1, the bot seat 2
    assert "A new round begins" in proc.stdout
    assert "  seat 2 plays" in proc.stdout
    assert "Your turn (seat 1)" in proc.stdout
    assert "seat 0" not in proc.stdout
    assert json.loads(rec.read_text())["bots"][0] == "human"  # JSON: 0-based seats
    assert _run("replay", str(rec)).returncode == 0
    proc = _run("play", "two-player", "--human", "1", "--seed", "4", stdin="1\n")
    assert proc.returncode == 2
    assert "input ended" in proc.stderr
    proc = _run("play", "two-player", "--human", "0", "--seed", "4", stdin="1\n")
    assert proc.returncode == 2
    assert "from 1 to 2" in proc.stderr
