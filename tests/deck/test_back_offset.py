"""A deck file's ``back_offset_mm`` moves the backs on duplex sheets by that much."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckgen.errors import SpecError

DPI = 100
MM_PX = DPI / 25.4


def _backs_centroid(sheets: Path) -> tuple[float, float]:
    import pypdfium2 as pdfium
    from PIL import ImageOps

    page = pdfium.PdfDocument(str(sheets))[1]  # the first backs sheet
    image = ImageOps.invert(page.render(scale=DPI / 72).to_pil().convert("L"))
    mask = image.point(lambda v: 255 if v > 40 else 0)
    w, h = mask.size
    data = mask.tobytes()
    sx = sy = n = 0
    for y in range(0, h, 2):
        row = data[y * w : (y + 1) * w]
        for x in range(0, w, 2):
            if row[x]:
                sx += x
                sy += y
                n += 1
    return sx / n, sy / n


def _build(tmp_path: Path, name: str, offset: str | None) -> Path:
    from deckgen.deck.build import build_deck
    from deckgen.prepress.printout import PrintOptions
    from deckgen.prepress.printstep import print_step

    deck = tmp_path / f"{name}.toml"
    deck.write_text(
        f'name = "{name}"\nset = "double-6"\n' + (f"back_offset_mm = {offset}\n" if offset else "")
    )
    out = tmp_path / name
    build_deck(
        deck,
        out,
        extra_steps=[print_step(PrintOptions(sheets="A4", duplex="long", marks="none"))],
    )
    return out / "sheets.pdf"


def test_back_offset_from_deck_file_moves_backs(tmp_path: Path) -> None:
    x0, y0 = _backs_centroid(_build(tmp_path, "plain", None))
    x1, y1 = _backs_centroid(_build(tmp_path, "shifted", "[1.5, -0.8]"))
    assert abs(abs(x1 - x0) - 1.5 * MM_PX) < 0.6
    assert abs(abs(y1 - y0) - 0.8 * MM_PX) < 0.6


def test_back_offset_out_of_range(tmp_path: Path) -> None:
    from deckgen.deck.spec import load_deck

    deck = tmp_path / "d.toml"
    deck.write_text('name = "x"\nback_offset_mm = [25, 0]\n')
    with pytest.raises(SpecError, match="back_offset_mm"):
        load_deck(deck)
