"""The duplex calibration sheet: how far does this printer shift the back side?

Takes a paper name and the duplex flip; gives a two-page PDF (front, back) to print
duplex exactly like the sheets. The front has five pierce targets; behind each, on the
back, a pair of millimetre scales centred where the target should land. The user
pierces the targets with a pin (or holds the sheet against a window) and reads, on the
back, where each hole came through: the two numbers at the centre are the back offset
``--back-offset x,y`` (x right, y up, as seen on the back), which the sheets then apply
to every back. A printer that shifts more than 1.5 mm is outside what MeinSpiel
accepts; home printers drift 1 to 4 mm.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from deckgen.atomic import atomic_path
from deckgen.prepress.imposition import paper_size
from deckgen.resources import fonts_dir

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

SCALE_MM = 6
"""Each scale runs from -SCALE_MM to +SCALE_MM."""
INSET_MM = 32.0
TOP_TARGETS_MM = 100.0
"""The upper targets sit this far below the top edge, under the instructions."""

INSTRUCTIONS = [
    "1. Print this sheet exactly like the card sheets: duplex, {flip}, at 100 % "
    "(actual size, no 'fit to page').",
    "2. Pierce the centre of each cross on this side with a pin, or hold the sheet "
    "against a bright window.",
    "3. Turn the sheet over. Where the hole comes through, read the horizontal scale "
    "(x) and the vertical scale (y) of the middle target.",
    "4. Build the sheets again with those two numbers: "
    "deckgen deck build mydeck.toml --sheets ... --back-offset x,y",
    "If the four corner targets read differently from the middle one, the printer "
    "also scales or turns the back: use the middle value.",
    "Deutsch: Blatt wie die Kartenbogen beidseitig drucken, Kreuze mit einer Nadel "
    "durchstechen, auf der Rückseite x und y der Mitte ablesen und die Bogen mit "
    "--back-offset x,y neu erzeugen.",
]


def targets_mm(paper: tuple[float, float]) -> list[tuple[float, float]]:
    """The five target centres on the front: the middle, then the four corners."""
    w, h = paper
    return [
        (w / 2, h / 2),
        (INSET_MM, INSET_MM),
        (w - INSET_MM, INSET_MM),
        (INSET_MM, h - TOP_TARGETS_MM),
        (w - INSET_MM, h - TOP_TARGETS_MM),
    ]


def behind(
    point: tuple[float, float], paper: tuple[float, float], duplex: Literal["long", "short"]
) -> tuple[float, float]:
    """Where, on the back page, the point ``point`` of the front lies."""
    x, y = point
    return (paper[0] - x, y) if duplex == "long" else (x, paper[1] - y)


def _font() -> str:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    name = "DeckgenCalibrationSans"
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(fonts_dir() / "DejaVuSans.ttf")))
    return name


def write_calibration(
    target: Path, *, paper: str = "A4", duplex: Literal["long", "short"] = "long"
) -> Path:
    """Write the two-page calibration PDF to ``target`` (atomically); gives the path."""
    from reportlab.pdfgen import canvas

    from deckgen.units import PT_PER_MM as mm

    size = paper_size(paper)
    w, h = size
    font = _font()
    flip = "flip on the long edge" if duplex == "long" else "flip on the short edge"
    with atomic_path(target) as tmp:
        c = canvas.Canvas(
            str(tmp),
            pagesize=(w * mm, h * mm),
            invariant=1,
            pageCompression=1,
            initialFontName=font,  # not the unembedded Helvetica default
        )
        c.setTitle("deckgen duplex calibration")
        c.setViewerPreference("PrintScaling", "None")
        c.setViewerPreference(
            "Duplex", "DuplexFlipLongEdge" if duplex == "long" else "DuplexFlipShortEdge"
        )
        for side in ("front", "back"):
            box = [0, 0, w * mm, h * mm]
            c.setTrimBox(box)
            c.setBleedBox(box)
            if side == "front":
                _front(c, size, font, flip)
            else:
                _back(c, size, font, duplex)
            c.showPage()
        c.save()
    return target


def _front(c: Canvas, size: tuple[float, float], font: str, flip: str) -> None:
    from deckgen.units import PT_PER_MM as mm

    w, h = size
    c.setFont(font, 14)
    c.drawString(20 * mm, (h - 20) * mm, "Duplex calibration - front side")
    c.setFont(font, 8.5)
    y = h - 28
    for line in INSTRUCTIONS:
        text = line.format(flip=flip)
        for part in _wrap(text, font, 8.5, (w - 40) * mm):
            c.drawString(20 * mm, y * mm, part)
            y -= 4
        y -= 1.2
    c.setLineWidth(0.4)
    for number, (x, ty) in enumerate(targets_mm(size), start=1):
        c.circle(x * mm, ty * mm, 3 * mm, stroke=1, fill=0)
        c.line((x - 8) * mm, ty * mm, (x + 8) * mm, ty * mm)
        c.line(x * mm, (ty - 8) * mm, x * mm, (ty + 8) * mm)
        c.setFont(font, 7)
        c.drawString((x + 4) * mm, (ty + 4) * mm, f"target {number}")


def _back(
    c: Canvas, size: tuple[float, float], font: str, duplex: Literal["long", "short"]
) -> None:
    from deckgen.units import PT_PER_MM as mm

    _w, h = size
    c.setFont(font, 14)
    c.drawString(20 * mm, (h - 20) * mm, "Duplex calibration - back side")
    c.setFont(font, 8.5)
    c.drawString(
        20 * mm,
        (h - 27) * mm,
        "Read x (bottom labels) and y (right labels) where the hole of target 1, "
        "in the middle, comes through.",
    )
    c.drawString(
        20 * mm,
        (h - 32) * mm,
        "Then build the sheets with --back-offset x,y. A hole on the thick cross means "
        "the backs already line up.",
    )
    for number, point in enumerate(targets_mm(size), start=1):
        x, y = behind(point, size, duplex)
        _scales(c, x, y, font)
        c.setFont(font, 7)
        c.drawString((x - SCALE_MM) * mm, (y + SCALE_MM + 2) * mm, f"target {number}")


def _scales(c: Canvas, x: float, y: float, font: str) -> None:
    """Millimetre graph paper centred on (x, y): x labels below, y labels to the right."""
    from deckgen.units import PT_PER_MM as mm

    s = SCALE_MM
    for half in range(-2 * s, 2 * s + 1):
        v = half / 2
        if half % 4 == 0:
            c.setLineWidth(0.35)
            c.setStrokeGray(0.0)
        elif half % 2 == 0:
            c.setLineWidth(0.2)
            c.setStrokeGray(0.35)
        else:
            c.setLineWidth(0.1)
            c.setStrokeGray(0.6)
        c.line((x + v) * mm, (y - s) * mm, (x + v) * mm, (y + s) * mm)
        c.line((x - s) * mm, (y + v) * mm, (x + s) * mm, (y + v) * mm)
    c.setStrokeGray(0.0)
    c.setLineWidth(0.5)
    c.line((x - s) * mm, y * mm, (x + s) * mm, y * mm)
    c.line(x * mm, (y - s) * mm, x * mm, (y + s) * mm)
    c.setFont(font, 5)
    for v in range(-s, s + 1, 2):
        label = str(v)
        c.drawCentredString((x + v) * mm, (y - s - 2.6) * mm, label)
        c.drawString((x + s + 1) * mm, (y + v - 0.7) * mm, label)
    c.drawString((x - s - 3) * mm, (y - s - 2.6) * mm, "x")
    c.drawString((x + s + 1) * mm, (y + s + 1.5) * mm, "y")


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if stringWidth(trial, font, size) > width and current:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines
