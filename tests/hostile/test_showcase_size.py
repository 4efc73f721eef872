"""A showcase picture is bounded: 8000 x 8000 took over a minute and 3.5 GB; now refused.

The bound (a 4K screen's pixels) is checked before anything is drawn, so the refusal is
one clear error, exit 2, and no file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckgen.cli import app
from deckgen.deck.spec import load_deck
from deckgen.errors import InputError
from deckgen.export.showcase import MAX_SHOWCASE_PIXELS, ShowcaseSize, showcase_png


def test_a_showcase_larger_than_4k_is_refused_before_drawing(tmp_path: Path) -> None:
    deck_file = tmp_path / "d.toml"
    deck_file.write_text('name = "Show"\nset = "double-2"\n')
    with pytest.raises(InputError, match=r"8,000 x 8,000 pixels \(64.0 megapixels\)"):
        showcase_png(load_deck(deck_file), "hand", ShowcaseSize(8000, 8000))
    assert MAX_SHOWCASE_PIXELS == 3840 * 2160


def test_the_command_says_so_and_writes_nothing(runner: CliRunner, tmp_path: Path) -> None:
    deck_file = tmp_path / "d.toml"
    deck_file.write_text('name = "Show"\nset = "double-2"\n')
    out = tmp_path / "show.png"
    result = runner.invoke(
        app,
        [
            "deck",
            "showcase",
            str(deck_file),
            "--width",
            "8000",
            "--height",
            "8000",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: a showcase picture of 8,000 x 8,000 pixels")
    assert "3840 x 2160" in result.stderr
    assert "Traceback" not in result.output
    assert not out.exists()
