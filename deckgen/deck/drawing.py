"""The drawing context shared by every card part, and the few primitives they use.

Takes a reportlab canvas, the loaded deck, its geometry, fonts and picture store;
gives :class:`DrawContext` with helpers to fill, draw rounded boxes, place a prepared
picture (each one embedded once, as a form XObject reused by every card that shows
it) and set wrapped text. Colours go through :func:`deckgen.deck.colour.pdf_colour`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deckgen.deck.colour import RGB, pdf_colour, press_colour
from deckgen.deck.fonts import FontPair
from deckgen.deck.geometry import Box, CardGeometry
from deckgen.deck.pictures import PictureStore, PictureUse, PreparedPicture
from deckgen.deck.press import PressRules
from deckgen.deck.spec import LoadedDeck, ResolvedPicture
from deckgen.deck.textfit import Line
from deckgen.progress import Reporter
from deckgen.units import mm_to_pt


@dataclass
class DrawContext:
    """Everything a card part needs to draw itself."""

    canvas: Any
    deck: LoadedDeck
    geometry: CardGeometry
    fonts: FontPair
    pictures: PictureStore
    reporter: Reporter | None
    strict_text: bool = False
    press: PressRules = field(default_factory=PressRules)
    """What the printer asks of the drawing: every line at least ``min_line_pt`` wide,
    black text and lines in solid black, grey ones in black ink alone."""
    embedded: set[str] = field(default_factory=set)

    # -- colour and shapes -------------------------------------------------------------
    def ink(self, rgb: RGB) -> RGB:
        """``rgb`` as the printer's rules want text and lines drawn (see PressRules)."""
        return press_colour(
            rgb, solid_black=self.press.solid_black, black_ink=self.press.black_ink_lines
        )

    def fill(self, rgb: RGB) -> None:
        """Fill colour of areas (a near-black is solid black where the printer asks)."""
        rgb = press_colour(rgb, solid_black=self.press.solid_black, black_ink=False)
        self.canvas.setFillColor(pdf_colour(rgb))

    def text_fill(self, rgb: RGB) -> None:
        """Fill colour of text (see :meth:`ink`)."""
        self.canvas.setFillColor(pdf_colour(self.ink(rgb)))

    def stroke(self, rgb: RGB, width: float) -> None:
        """Stroke colour and width; no line is thinner than the printer's thinnest."""
        self.canvas.setStrokeColor(pdf_colour(self.ink(rgb)))
        self.canvas.setLineWidth(max(width, self.press.min_line_pt))

    def fill_box(self, box: Box, rgb: RGB) -> None:
        self.fill(rgb)
        self.canvas.rect(box.x, box.y, box.w, box.h, stroke=0, fill=1)

    def round_box(
        self,
        box: Box,
        radius: float,
        *,
        fill: RGB | None = None,
        edge: RGB | None = None,
        edge_width: float = 0.8,
    ) -> None:
        if fill is not None:
            self.fill(fill)
        if edge is not None:
            self.stroke(edge, edge_width)
        self.canvas.roundRect(
            box.x,
            box.y,
            box.w,
            box.h,
            radius,
            stroke=int(edge is not None),
            fill=int(fill is not None),
        )

    def clip_round(self, box: Box, radius: float) -> None:
        """Clip further drawing to a rounded box (call inside saveState/restoreState)."""
        path = self.canvas.beginPath()
        path.roundRect(box.x, box.y, box.w, box.h, radius)
        self.canvas.clipPath(path, stroke=0, fill=0)

    # -- pictures ------------------------------------------------------------------------
    def prepared(self, pic: ResolvedPicture, use: PictureUse, *, card: str) -> PreparedPicture:
        return self.pictures.get(pic.path, use, card=card)

    def place(self, prep: PreparedPicture, box: Box) -> None:
        """Draw ``prep`` centred in ``box`` at its prepared size (embedded once per PDF)."""
        from deckgen.deck.imagexobject import ensure_picture_form

        name = ensure_picture_form(self.canvas, prep)
        self.embedded.add(prep.key)
        scale_w = box.w if prep.draw_width_mm <= 0 else mm_to_pt(prep.draw_width_mm)
        scale_h = box.h if prep.draw_height_mm <= 0 else mm_to_pt(prep.draw_height_mm)
        c = self.canvas
        c.saveState()
        c.translate(box.cx - scale_w / 2, box.cy - scale_h / 2)
        c.scale(scale_w, scale_h)
        c.doForm(name)
        c.restoreState()

    def picture_in(
        self,
        pic: ResolvedPicture,
        box: Box,
        *,
        fit: str = "cover",
        card: str,
        radius: float = 0.0,
    ) -> None:
        """Prepare ``pic`` for ``box`` (cover or contain) and draw it, clipped if rounded."""
        from deckgen.deck.layoutboxes import use_for

        use = use_for(box, fit, pic)  # type: ignore[arg-type]
        prep = self.prepared(pic, use, card=card)
        c = self.canvas
        c.saveState()
        if radius > 0:
            self.clip_round(box, radius)
        self.place(prep, box)
        c.restoreState()

    # -- text ----------------------------------------------------------------------------
    def text_lines(
        self,
        lines: list[Line | None],
        box: Box,
        *,
        size: float,
        leading: float,
        colour: RGB,
        align: str = "centre",
        valign: str = "top",
        height: float | None = None,
    ) -> None:
        """Set wrapped ``lines`` into ``box`` (top-aligned or centred vertically)."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        c = self.canvas
        self.text_fill(colour)
        total = height if height is not None else 0.0
        top = box.y + box.h
        if valign == "middle" and total:
            top = box.cy + total / 2
        y = top - size * 0.93
        for raw_line in lines:
            if raw_line is None:
                y -= leading * 0.5
                continue
            line = _merge_runs(raw_line)
            width = sum(
                stringWidth(t, self.fonts.bold if b else self.fonts.regular, size) for t, b in line
            )
            if align == "centre":
                x = box.cx - width / 2
            elif align == "right":
                x = box.x + box.w - width
            else:
                x = box.x
            for text, bold in line:
                font = self.fonts.bold if bold else self.fonts.regular
                c.setFont(font, size)
                c.drawString(x, y, text)
                x += stringWidth(text, font, size)
            y -= leading

    def centred_text(
        self, text: str, cx: float, baseline: float, *, size: float, colour: RGB, bold: bool = False
    ) -> None:
        self.text_fill(colour)
        self.canvas.setFont(self.fonts.bold if bold else self.fonts.regular, size)
        self.canvas.drawCentredString(cx, baseline, text)

    def warn(self, message: str) -> None:
        if self.reporter is not None:
            self.reporter.warn(message)


def _merge_runs(line: Line) -> Line:
    """Join neighbouring runs of the same weight (one text object per run)."""
    out: Line = []
    for text, bold in line:
        if out and out[-1][1] == bold:
            out[-1] = (out[-1][0] + text, bold)
        else:
            out.append((text, bold))
    return out
