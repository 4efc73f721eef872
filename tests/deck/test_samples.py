"""Sample content of the starter deck is never printed silently.

Shows: ``deck new`` marks every sample it puts in (deckgen's demo art by ``demo:``, the
sample texts); a build against a vendor preset refuses while any is left (exit 2, one
paragraph naming each item as the customer sees it and how to replace it, nothing
written); a plain build warns; :func:`deckgen.deck.starter.sample_items` lists what is
left, in German and English, for the studio's checklist; a finished deck has none.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck.spec import load_deck
from deckgen.deck.starter import sample_items, samples_paragraph
from starterkit import finish_samples

runner = CliRunner()


def _new(folder: Path, *extra: str) -> Path:
    deck = folder / "deck.toml"
    result = runner.invoke(app, ["deck", "new", str(deck), "--set", "double-3", "-q", *extra])
    assert result.exit_code == 0, result.output
    return deck


def test_a_vendor_build_refuses_sample_content_naming_each_item(tmp_path: Path) -> None:
    deck = _new(tmp_path)
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["deck", "build", str(deck), "--preset", "meinspiel", "--out", str(out)]
    )
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.output
    error = errors[0]
    for slot in (
        "the cover picture",
        "the cover's subtitle",
        "the logo on the back",
        "the text on the imprint card",
    ):
        assert slot in error, f"{slot!r} is not named: {error}"
    assert "replace each with your own" in error
    assert "demo:" not in error, "speaks of what the customer sees, not of keys"
    assert "imprint.text" not in error
    assert "shortened" not in error
    assert not out.exists() or not any(out.iterdir()), "nothing may be written"


def test_a_plain_build_warns_about_sample_content(tmp_path: Path) -> None:
    deck = _new(tmp_path)
    result = runner.invoke(app, ["deck", "build", str(deck), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if "sample content" in line]
    assert warnings, result.output
    assert warnings[0].startswith("warning:")
    assert "the text on the imprint card" in warnings[0]


def test_sample_items_in_german_and_english_and_none_once_replaced(tmp_path: Path) -> None:
    deck = _new(tmp_path)
    text = deck.read_text("utf-8").replace('style = "pips"', 'style = "pictures"')
    deck.write_text(text, encoding="utf-8")
    items = sample_items(load_deck(deck))
    assert [i.name("en") for i in items] == [
        "the cover picture",
        "the cover's subtitle",
        "the picture for 1",
        "the picture for 2",
        "the picture for 3",
        "the logo on the back",
        "the text on the imprint card",
    ]
    assert items[2].name("de") == "das Bild für die 1"
    assert "Impressumskarte" in items[-1].name("de")
    assert "the pictures for 1, 2 and 3" in samples_paragraph(items, "en")
    assert "die Bilder für 1, 2 und 3" in samples_paragraph(items, "de")
    deck.write_text(finish_samples(deck.read_text("utf-8"), tmp_path), encoding="utf-8")
    assert sample_items(load_deck(deck)) == []
    out = str(tmp_path / "out")
    built = runner.invoke(app, ["deck", "build", str(deck), "--preset", "meinspiel", "--out", out])
    assert built.exit_code == 0, built.output


def test_deck_new_without_samples_has_none(tmp_path: Path) -> None:
    deck = _new(tmp_path, "--no-samples")
    assert sample_items(load_deck(deck)) == []
