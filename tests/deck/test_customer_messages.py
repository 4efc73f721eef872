"""Messages from a customer review: a real ``deck build`` of a deck from ``deck new``,
with the mistakes customers make, names things as the customer sees them.

Each refused build exits with 2 and says it in one paragraph, without a traceback.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from pathlib import Path

import pytest
from deck_testkit import to_toml
from PIL import Image
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck.spec import load_deck, slugify

NAMES = ["anna", "ben", "carl", "dora", "emil", "fritz"]


def _deck(runner: CliRunner, folder: Path, pictures: list[str], **top: object) -> Path:
    """A German starter deck (``deck new --lang de``) with photos in ``fotos/``."""
    deck_file = folder / "deck.toml"
    result = runner.invoke(app, ["deck", "new", str(deck_file), "--lang", "de", "--quiet"])
    assert result.exit_code == 0, result.output
    (folder / "fotos").mkdir(exist_ok=True)
    for name in NAMES:
        Image.new("RGB", (900, 1200), (90, 140, 200)).save(folder / "fotos" / f"{name}.jpg")
    data = tomllib.loads(deck_file.read_text(encoding="utf-8"))
    data["faces"]["style"] = "pictures"
    data["faces"]["pictures"] = pictures
    data.update(top)
    deck_file.write_text(to_toml(data), encoding="utf-8")
    return deck_file


def _refused(runner: CliRunner, deck_file: Path) -> str:
    out = deck_file.parent / "out"
    result = runner.invoke(app, ["deck", "build", str(deck_file), "--out", str(out), "-q"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1  # one paragraph (a warning may follow on its own line)
    assert result.stderr.startswith(errors[0])
    return errors[0]


def _photos(*names: str) -> list[str]:
    return [f"fotos/{n}.jpg" for n in names]


def test_misspelt_picture_names_the_slot_and_suggests(runner: CliRunner, tmp_path: Path) -> None:
    deck_file = _deck(runner, tmp_path, _photos("anna", "bne", "carl", "dora", "emil", "fritz"))
    error = _refused(runner, deck_file)
    assert "the picture for 2 ('fotos/bne.jpg') does not exist" in error
    assert "faces.pictures[" not in error  # no internal zero-based index
    assert "key faces.pictures)" in error
    assert "did you mean 'fotos/ben.jpg'?" in error


def test_case_only_difference_is_suggested(runner: CliRunner, tmp_path: Path) -> None:
    deck_file = _deck(runner, tmp_path, _photos(*NAMES))
    (tmp_path / "fotos" / "anna.jpg").rename(tmp_path / "fotos" / "Anna.jpg")
    error = _refused(runner, deck_file)
    assert "the picture for 1 ('fotos/anna.jpg') does not exist" in error
    assert "did you mean 'fotos/Anna.jpg'?" in error


def test_numbered_photos_are_not_suggested_for_each_other(
    runner: CliRunner, tmp_path: Path
) -> None:
    deck_file = _deck(runner, tmp_path, _photos(*NAMES))
    for n, name in enumerate(NAMES, start=1):
        (tmp_path / "fotos" / f"{name}.jpg").rename(tmp_path / "fotos" / f"foto{n}.jpg")
    data = tomllib.loads(deck_file.read_text(encoding="utf-8"))
    data["faces"]["pictures"] = _photos("foto1", "foto2", "foto7", "foto4", "foto5", "foto6")
    deck_file.write_text(to_toml(data), encoding="utf-8")
    error = _refused(runner, deck_file)
    assert "the picture for 3 ('fotos/foto7.jpg') does not exist" in error
    assert "did you mean" not in error


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"Liebe Oma, hier die Fotos!\n", "it holds text, not a picture"),
        (b"", "it is empty (0 bytes)"),
    ],
)
def test_unreadable_picture_names_the_slot(
    runner: CliRunner, tmp_path: Path, content: bytes, reason: str
) -> None:
    deck_file = _deck(runner, tmp_path, _photos(*NAMES))
    (tmp_path / "fotos" / "carl.jpg").write_bytes(content)
    error = _refused(runner, deck_file)
    assert "the picture for 3 ('carl.jpg') is not a picture deckgen can read" in error
    assert reason in error
    assert "faces.pictures[" not in error


def test_decomposed_umlaut_on_disk_is_found(runner: CliRunner, tmp_path: Path) -> None:
    deck_file = _deck(runner, tmp_path, _photos("Öma", *NAMES[1:]))
    nfd = unicodedata.normalize("NFD", "Öma.jpg")
    assert nfd != "Öma.jpg"
    (tmp_path / "fotos" / "anna.jpg").rename(tmp_path / "fotos" / nfd)
    deck = load_deck(deck_file)
    assert deck.value_pictures[0].path.name == nfd
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["deck", "build", str(deck_file), "--out", str(out), "-q", "--no-preview"]
    )
    assert result.exit_code == 0, result.output
    assert (out / "cards.pdf").is_file()


def test_set_typo_is_said_once_with_a_suggestion(runner: CliRunner, tmp_path: Path) -> None:
    deck_file = _deck(runner, tmp_path, _photos(*NAMES), set="dobule-6")
    error = _refused(runner, deck_file)
    assert "'dobule-6' is not a domino set (did you mean 'double-6'?)" in error
    assert error.count("dobule-6") == 1


def test_wrong_style_lists_the_choices(runner: CliRunner, tmp_path: Path) -> None:
    deck_file = _deck(runner, tmp_path, _photos(*NAMES))
    text = deck_file.read_text(encoding="utf-8")
    deck_file.write_text(text.replace('style = "pictures"', 'style = "bilder"'), encoding="utf-8")
    error = _refused(runner, deck_file)
    assert "faces.style: choose one of 'pips', 'numerals', 'pictures' or 'pictures+pips'" in error
    assert "got 'bilder'" in error
    assert "Input should" not in error


def test_missing_name_reads_like_a_sentence(runner: CliRunner, tmp_path: Path) -> None:
    deck_file = _deck(runner, tmp_path, _photos(*NAMES))
    text = deck_file.read_text(encoding="utf-8")
    deck_file.write_text(re.sub(r"(?m)^name = .*\n", "", text), encoding="utf-8")
    error = _refused(runner, deck_file)
    assert "name: the deck needs a name" in error
    assert "Field required" not in error


def test_output_folder_spells_umlauts_out() -> None:
    assert slugify("Familie Müller") == "familie-mueller"
    assert slugify("Große Runde für Öma & Ülla") == "grosse-runde-fuer-oema-uella"
    assert slugify(unicodedata.normalize("NFD", "Müller")) == "mueller"


def test_code_still_reads_the_internal_key(runner: CliRunner, tmp_path: Path) -> None:
    """The studio and the batch find the field from ``where``; only the text changes."""
    import pickle

    from deckgen.errors import ResourceError

    deck_file = _deck(runner, tmp_path, _photos("anna", "bne", "carl", "dora", "emil", "fritz"))
    with pytest.raises(ResourceError) as caught:
        load_deck(deck_file)
    assert caught.value.where is not None
    assert caught.value.where.endswith("key faces.pictures[1]")
    again = pickle.loads(pickle.dumps(caught.value))  # as from a batch worker
    assert str(again) == str(caught.value)
    assert "key faces.pictures)" in str(again)


def test_every_picture_too_small_to_print_is_named(runner: CliRunner, tmp_path: Path) -> None:
    """Two thumbnails: the refusal names both slots (it said "(and 1 more)")."""
    deck_file = _deck(runner, tmp_path, _photos("anna", "ben", "carl", "dora", "emil", "fritz"))
    for name in ("ben", "emil"):
        Image.new("RGB", (12, 16), (90, 140, 200)).save(tmp_path / "fotos" / f"{name}.jpg")
    error = _refused(runner, deck_file)
    assert "and 1 more" not in error
    assert "ben.jpg" in error
    assert "also too small: the picture for 5 (emil.jpg" in error
    assert "faces.pictures[" not in error  # no internal zero-based index
