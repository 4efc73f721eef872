"""Starter decks as a customer finishes them: every sample item replaced by their own.

``deckgen deck new`` writes a deck file full of sample content (deckgen's demo art named
``demo:...``, a sample imprint text and subtitle) that a vendor build refuses. A
customer replaces each item; :func:`finished_starter` does the same (the demo pictures
copied in as the customer's own files, own texts), so that tests can build a starter
deck against a vendor preset.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from deckgen.deck.starter import SAMPLE_IMPRINT_TEXT, SAMPLE_SUBTITLE
from deckgen.resources import images_dir


def finish_samples(text: str, folder: Path) -> str:
    """``text`` (a starter deck file) with its sample content replaced, files in ``folder``."""
    for name in sorted(set(re.findall(r'"demo:([A-Za-z0-9_-]+\.(?:png|jpg))"', text))):
        shutil.copyfile(images_dir() / name, folder / f"own-{name}")
        text = text.replace(f'"demo:{name}"', f'"own-{name}"')
    for sample in SAMPLE_IMPRINT_TEXT.values():
        text = text.replace(sample, "Made by **the Tester family**, 2026.")
    for sample in SAMPLE_SUBTITLE.values():
        text = text.replace(f'"{sample}"', '"Our own domino"')
    return text


def finished_starter(folder: Path, set_name: str, *, preset: str | None = None) -> Path:
    """``deck new`` for ``set_name`` (and ``preset``), then every sample replaced."""
    from typer.testing import CliRunner

    from deckgen.cli import app

    deck = folder / "deck.toml"
    args = ["deck", "new", str(deck), "--set", set_name, "-q", "--force"]
    if preset is not None:
        args += ["--preset", preset]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    deck.write_text(finish_samples(deck.read_text("utf-8"), folder), encoding="utf-8")
    return deck
