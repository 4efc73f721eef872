"""Small synthetic card PDFs for the print tests and the print benchmark (reportlab).

``make_deck_pdfs(folder, labels, ...)`` writes ``cards.pdf`` (one page per label: the
card plus bleed, TrimBox = the card, BleedBox = MediaBox), ``back.pdf`` and a minimal
``manifest.json`` the way the deck build does. Every card has a full-bleed background
in its own colour, a white safe area, its label, and a black 4 mm square at the card's
centre (tests find centres by it); the back has the square too and an arrow pointing up.
Optional pictures: ``pictures`` maps a card index to (PIL image, width_mm) drawn at the
card centre; the same image object drawn on several cards is embedded once.
"""

from __future__ import annotations

import colorsys
import json
from pathlib import Path

from PIL import Image
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

MARKER_MM = 4.0


def _page(c: canvas.Canvas, w: float, h: float, bleed: float) -> None:
    c.setPageSize(((w + 2 * bleed) * mm, (h + 2 * bleed) * mm))
    full = [0, 0, (w + 2 * bleed) * mm, (h + 2 * bleed) * mm]
    trim = [bleed * mm, bleed * mm, (w + bleed) * mm, (h + bleed) * mm]
    c.setBleedBox(full)
    c.setTrimBox(trim)


def make_deck_pdfs(
    folder: Path,
    labels: list[str],
    *,
    card_mm: tuple[float, float] = (63.0, 88.0),
    bleed_mm: float = 3.0,
    safe_mm: float = 4.0,
    pictures: dict[int, tuple[Image.Image, float]] | None = None,
    text_in_margin: set[int] | None = None,
) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    w, h = card_mm
    b = bleed_mm
    readers: dict[int, ImageReader] = {}
    c = canvas.Canvas(str(folder / "cards.pdf"), invariant=1, pageCompression=1)
    for i, label in enumerate(labels):
        _page(c, w, h, b)
        red, green, blue = colorsys.hsv_to_rgb((i * 0.13) % 1.0, 0.45, 0.95)
        c.setFillColorRGB(red, green, blue)
        c.rect(0, 0, (w + 2 * b) * mm, (h + 2 * b) * mm, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        c.roundRect(
            (b + safe_mm) * mm,
            (b + safe_mm) * mm,
            (w - 2 * safe_mm) * mm,
            (h - 2 * safe_mm) * mm,
            3 * mm,
            stroke=0,
            fill=1,
        )
        cx, cy = (b + w / 2) * mm, (b + h / 2) * mm
        if pictures and i in pictures:
            image, width_mm = pictures[i]
            key = id(image)
            if key not in readers:
                readers[key] = ImageReader(image)
            pw, ph = image.size
            dw = width_mm * mm
            dh = dw * ph / pw
            c.drawImage(readers[key], cx - dw / 2, cy - dh / 2 + 12 * mm, dw, dh)
        c.setFillColorRGB(0, 0, 0)
        s = MARKER_MM * mm
        c.rect(cx - s / 2, cy - s / 2, s, s, stroke=0, fill=1)
        c.setFont("Helvetica-Bold", 14)
        c.drawCentredString(cx, (b + safe_mm + 6) * mm, label)
        if text_in_margin and i in text_in_margin:
            c.drawString((b + 1) * mm, cy, "edge")
        c.showPage()
    c.save()

    c = canvas.Canvas(str(folder / "back.pdf"), invariant=1, pageCompression=1)
    _page(c, w, h, b)
    c.setFillColorRGB(0.1, 0.2, 0.5)
    c.rect(0, 0, (w + 2 * b) * mm, (h + 2 * b) * mm, stroke=0, fill=1)
    cx, cy = (b + w / 2) * mm, (b + h / 2) * mm
    c.setFillColorRGB(1, 0.8, 0.2)
    path = c.beginPath()
    path.moveTo(cx, cy + 30 * mm)
    path.lineTo(cx - 10 * mm, cy + 15 * mm)
    path.lineTo(cx + 10 * mm, cy + 15 * mm)
    path.close()
    c.drawPath(path, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    s = MARKER_MM * mm
    c.rect(cx - s / 2, cy - s / 2, s, s, stroke=0, fill=1)
    c.showPage()
    c.save()

    cards = []
    for i, label in enumerate(labels):
        kind = "cover" if label == "cover" else "imprint" if label == "imprint" else "tile"
        entry: dict[str, int | str] = {"index": i, "kind": kind, "page": i + 1}
        if kind == "tile":
            entry["tile"] = label
        cards.append(entry)
    manifest = {"format": 1, "files": ["cards.pdf", "back.pdf"], "cards": cards}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2))
    return folder / "cards.pdf", folder / "back.pdf"


def deck_labels(n: int) -> list[str]:
    """Labels of a double-n deck: cover, 0-0 ... n-n, imprint."""
    tiles = [f"{a}-{b}" for a in range(n + 1) for b in range(a, n + 1)]
    return ["cover", *tiles, "imprint"]
