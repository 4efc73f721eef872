"""Paths that are not files, files from the wrong place, names that are not harmless.

Every class is tried where deckgen reads a file (deck file, picture, font, rules file,
game record, check report) and where it writes one (output folder, --record, --json,
deck new, calibrate): exit 2, one short paragraph, no traceback, no hang, nothing left.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

# Imported here (and named in WARM) so that the forked children of run_bounded start warm.
import deckgen.booklet.make
import deckgen.deck.build
import deckgen.engine.record
import deckgen.prepress.printstep
from deckgen.cli import app
from tests.hostile.contract import assert_clean_error, leftovers, run_bounded

WARM = (deckgen.booklet.make, deckgen.deck.build, deckgen.prepress.printstep, deckgen.engine.record)
LONG = "n" * 300  # longer than any file system allows (255 bytes)


def _invoke(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(app, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return -1, f"{type(result.exception).__name__}: {result.exception}"
    return result.exit_code, result.stderr


def _deck(folder: Path, extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "deck.toml"
    path.write_text(f'name = "T"\nset = "double-6"\n{extra}', encoding="utf-8")
    return path


def _not_files(folder: Path) -> dict[str, str]:
    """Names in ``folder`` that are a FIFO, a folder, a symlink loop, too long, missing."""
    os.mkfifo(folder / "fifo.png")
    (folder / "dir.png").mkdir()
    (folder / "loop.png").symlink_to(folder / "loop.png")
    return {
        "fifo": "fifo.png",
        "folder": "dir.png",
        "loop": "loop.png",
        "long": LONG + ".png",
        "missing": "none.png",
    }


def _expect_refused(args: list[str], *needles: str) -> str:
    code, err = run_bounded(lambda: _invoke(args), extra_mb=600, seconds=60)
    assert isinstance(err, str)
    assert code == 2, (code, err[-400:])
    assert err.startswith("error: "), err[:300]
    assert_clean_error(err)
    for needle in needles:
        assert needle in err, err
    return err


@pytest.mark.parametrize("kind", ["fifo", "folder", "loop", "long", "missing"])
def test_a_picture_that_is_not_a_file(kind: str, tmp_path: Path) -> None:
    name = _not_files(tmp_path)[kind]
    deck = _deck(tmp_path, f'[back]\nlogo = "{name}"\n')
    out = tmp_path / "out"
    _expect_refused(["deck", "build", str(deck), "--out", str(out)], "back.logo")
    assert not out.exists()
    assert not leftovers(tmp_path)


@pytest.mark.parametrize("kind", ["fifo", "folder", "loop", "long"])
def test_a_font_or_deck_file_or_rules_file_that_is_not_a_file(kind: str, tmp_path: Path) -> None:
    name = _not_files(tmp_path)[kind]
    deck = _deck(tmp_path, f'[fonts]\nregular = "{name}"\n')
    _expect_refused(["deck", "build", str(deck), "--out", str(tmp_path / "o")], "fonts.regular")
    _expect_refused(["deck", "build", str(tmp_path / name), "--out", str(tmp_path / "o")])
    _expect_refused(["rules", "show", str(tmp_path / name.replace(".png", ".toml"))])
    _expect_refused(["rules", "replay", str(tmp_path / name)])


@pytest.mark.parametrize("kind", ["fifo", "folder", "loop", "long"])
def test_a_check_report_that_is_not_a_file(kind: str, tmp_path: Path) -> None:
    name = _not_files(tmp_path)[kind]
    args = ["rules", "booklet", "two-player", "--check", str(tmp_path / name)]
    _expect_refused([*args, "--out", str(tmp_path / "b")], "--check")


def test_outputs_that_are_folders(tmp_path: Path) -> None:
    folder = tmp_path / "taken"
    folder.mkdir()
    _expect_refused(["rules", "play", "two-player", "--record", str(folder)], "--record")
    _expect_refused(["deck", "new", str(folder), "--force"], "folder")
    _expect_refused(["deck", "calibrate", "--out", str(folder)], "folder")
    _expect_refused(["rules", "check", "two-player", "--rounds", "10", "--report", str(folder)])
    _expect_refused(["deck", "new", str(tmp_path / LONG)], "too long")
    assert folder.is_dir()
    assert not list(folder.iterdir())


def test_a_manifest_that_is_a_folder_is_replaced_by_the_build(tmp_path: Path) -> None:
    deck = _deck(tmp_path)
    out = tmp_path / "out"
    (out / "manifest.json").mkdir(parents=True)
    (out / "manifest.json" / "x").write_text("x")
    code, err = _invoke(["deck", "build", str(deck), "--out", str(out), "-q", "--no-preview"])
    assert code == 0, err
    manifest = json.loads((out / "manifest.json").read_text())
    assert {f["path"] for f in manifest["files"]} == {"cards.pdf", "back.pdf"}
    assert not leftovers(tmp_path)


def test_an_output_folder_that_is_a_file(tmp_path: Path) -> None:
    deck = _deck(tmp_path)
    (tmp_path / "out").write_text("mine")
    _expect_refused(["deck", "build", str(deck), "--out", str(tmp_path / "out")], "not a folder")
    assert (tmp_path / "out").read_text() == "mine"


def test_imprint_rules_file_is_read_from_the_decks_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deckgen.resources import rules_dir

    here = tmp_path / "cwd"
    here.mkdir()
    (here / "mine.toml").write_text("this is not the deck's file")
    monkeypatch.chdir(here)
    decks = tmp_path / "decks"
    deck = _deck(decks, '[imprint]\nrules = "mine.toml"\n')
    (decks / "mine.toml").write_text((rules_dir() / "two-player.toml").read_text())
    code, err = _invoke(["deck", "build", str(deck), "--out", str(tmp_path / "o"), "-q"])
    assert code == 0, err  # read from decks/, not from the current folder
    deck.write_text(deck.read_text().replace("mine.toml", "../cwd/mine.toml"))
    # "../x.toml" does not match a rules reference; it is printed as text. A name that
    # resolves outside the deck's folder through a link is refused:
    (decks / "link.toml").symlink_to(here / "mine.toml")
    deck.write_text(deck.read_text().replace("../cwd/mine.toml", "link.toml"))
    _expect_refused(["deck", "build", str(deck), "--out", str(tmp_path / "o")], "outside")


@pytest.mark.parametrize("text", ["Enjoy", "Viel-Spass", "card-dominoo"])
def test_one_word_imprint_text_is_text_unless_it_is_close_to_a_rules_id(
    text: str, tmp_path: Path
) -> None:
    deck = _deck(tmp_path, f'[imprint]\nrules = "{text}"\n')
    code, err = _invoke(["deck", "build", str(deck), "--out", str(tmp_path / "o"), "-q"])
    if text == "card-dominoo":
        assert code == 2
        assert "card-domino" in err
        assert "imprint.rules" in err
    else:
        assert code == 0, err


def test_terminal_escapes_in_names_are_shown_harmlessly(tmp_path: Path) -> None:
    evil = tmp_path / "\x1b]0;owned\x07\x1b[2Jdeck\u202e.toml"
    err = _expect_refused(["deck", "build", str(evil)])
    assert "\\x1b" in err
    assert "\\u202e" in err
    deck = _deck(tmp_path, '[back]\nlogo = "a\\u001b[31m.png"\n')
    _expect_refused(["deck", "build", str(deck), "--out", str(tmp_path / "o")], "U+001B")


EVIL = "\x1b]0;owned\x07\x1b[2J\u202e\x9b31m"


@pytest.mark.parametrize(
    "args",
    [
        ["deck", "new", "NEW/deck-EVIL.toml"],
        ["rules", "play", "two-player", "--seed", "1", "--record", "NEW/game-EVIL.json"],
    ],
    ids=["deck-new", "rules-play-record"],
)
def test_wrote_lines_show_user_names_harmlessly(args: list[str], tmp_path: Path) -> None:
    args = [a.replace("NEW", str(tmp_path)).replace("EVIL", EVIL) for a in args]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert len(list(tmp_path.iterdir())) == 1  # the file has the name as given
    out = result.stdout
    for raw, shown in [("\x1b", "\\x1b"), ("\x07", "\\x07"), ("\u202e", "\\u202e")]:
        assert raw not in out, repr(out)
        assert shown in out, repr(out)
    assert "\x9b" not in out, repr(out)


def test_json_output_escapes_user_names_and_keeps_the_data(tmp_path: Path) -> None:
    record = str(tmp_path / f"game-{EVIL}.json")
    result = CliRunner().invoke(
        app, ["rules", "play", "two-player", "--seed", "1", "--json", "--record", record]
    )
    assert result.exit_code == 0, result.output
    for raw in ("\x1b", "\x07", "\u202e", "\x9b"):
        assert raw not in result.stdout, repr(raw)
    assert json.loads(result.stdout)["record"] == record


@pytest.mark.parametrize(
    "extra",
    [
        "[imprint]\ntext = '''" + "Lorem ipsum dolor sit amet. " * 3_600 + "'''\n",
        'name = "' + "Y" * 10_000 + '"\n',
        'set = "' + "double-" * 1_500 + '"\n',
    ],
    ids=["imprint-100k", "name-10k", "set-10k"],
)
def test_huge_text_is_quoted_as_a_short_excerpt(extra: str, tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    base = 'name = "T"\nset = "double-6"\n'
    for key in ("name", "set"):
        if extra.startswith(key):
            base = "\n".join(line for line in base.splitlines() if not line.startswith(key))
    deck.write_text(base + "\n" + extra, encoding="utf-8")
    code, err = run_bounded(
        lambda: _invoke(
            ["deck", "build", str(deck), "--out", str(tmp_path / "o"), "--strict-text"]
        ),
        extra_mb=800,
        seconds=120,
    )
    assert code in (0, 2), err
    if code == 2:
        assert_clean_error(err)


def test_out_dot_is_published_into_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The current folder is never swapped away: files go into place, manifest last."""
    work = tmp_path / "work"
    deck = _deck(work)
    (work / "keep.txt").write_text("mine")
    (work / "sub").mkdir()
    monkeypatch.chdir(work)
    inode = os.stat(".").st_ino
    code, err = _invoke(["deck", "build", str(deck), "--out", ".", "-q", "--no-preview"])
    assert code == 0, err
    assert os.stat(".").st_ino == inode
    assert os.stat(work).st_ino == inode
    assert (work / "keep.txt").read_text() == "mine"
    assert (work / "sub").is_dir()
    assert json.loads((work / "manifest.json").read_text())["deck"] == "T"
    assert not leftovers(work)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
