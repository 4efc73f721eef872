"""The proof sheet: one page a shop sends its customer to sign off (``proof.pdf``).

Takes the build folder's ``cards.pdf`` and ``back.pdf``, the card labels, the vendor
preset, how many cards the vendor prints (with the blanks that fill the deck) and the
preflight report; gives one A4 landscape page, in German or English (the deck's
language):

- every card small, in deck order, with the back beside them larger; on each the trim
  line (where it is cut, red, with the rounded corners) and the safe line (blue,
  dashed: nothing important outside it), the bleed outside the trim shown paler;
- white frames for the blank cards that fill the deck to the vendor's count;
- the preset, the card size, bleed, safe margin and corner radius as built (a preset
  without a required card size keeps the deck's own), the card count with blanks;
- every vendor rule the preflight checked, passed or not;
- lines for the customer's signature and the date.

The cards are the print files' own pages placed as forms (vectors, not pictures); the
page is drawn with reportlab and the cards put beneath its lines with pikepdf.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from deckgen.units import PT_PER_MM

if TYPE_CHECKING:
    import pikepdf

    from deckgen.prepress.cardpages import CardPdfs
    from deckgen.prepress.preflight import PreflightReport
    from deckgen.prepress.presets import VendorPreset

PAGE_W, PAGE_H = 842.0, 595.0  # A4 landscape, pt
MARGIN = 28.0
HEADER_H = 62.0
SIDE_W = 250.0
GAP = 4.0
TRIM_RGB = (0.85, 0.1, 0.1)
SAFE_RGB = (0.1, 0.35, 0.85)

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "Proof for approval",
        "deck": "Deck",
        "vendor": "Printed by",
        "size": "Card",
        "size_value": "{w} x {h} mm, {bleed} mm bleed, {safe} mm safe margin, {radius} mm corners",
        "own_size": " (the deck's own size; {preset} does not require one)",
        "count": "Cards",
        "count_value": "{cards} cards in the deck; {printed} printed cards",
        "blanks": ", {blanks} of them blank",
        "cover_back": "; the imprint is printed on the back of the cover",
        "back": "The back (every card)",
        "legend_trim": "red: where the card is cut",
        "legend_safe": "blue, dashed: keep text and faces inside",
        "legend_bleed": "pale: bleed, cut away",
        "checks": "Checks",
        "passed": "passed",
        "failed": "not met ({n}), printed on request",
        "not_checked": "not checked: the deck's own size is kept",
        "not_run": "the checks were not run",
        "blank": "blank",
        "home": "your own printer, sheets of {paper}",
        "sign": "Approved for print (signature, date):",
        "note": "Colours on screen and on paper differ; the shop prints from the files.",
    },
    "de": {
        "title": "Andruck zur Freigabe",
        "deck": "Spiel",
        "vendor": "Druck bei",
        "size": "Karte",
        "size_value": "{w} x {h} mm, {bleed} mm Beschnitt, {safe} mm "
        "Sicherheitsabstand, {radius} mm Eckenradius",
        "own_size": " (die eigene Größe des Spiels; {preset} verlangt keine)",
        "count": "Karten",
        "count_value": "{cards} Karten im Spiel; {printed} gedruckte Karten",
        "blanks": ", davon {blanks} leer",
        "cover_back": "; das Impressum steht auf der Rückseite des Covers",
        "back": "Die Rückseite (alle Karten)",
        "legend_trim": "rot: hier wird geschnitten",
        "legend_safe": "blau, gestrichelt: Text und Bilder bleiben innen",
        "legend_bleed": "blass: Beschnitt, fällt weg",
        "checks": "Prüfungen",
        "passed": "erfüllt",
        "failed": "nicht erfüllt ({n}), auf Wunsch gedruckt",
        "not_checked": "nicht geprüft: die eigene Größe des Spiels bleibt",
        "not_run": "die Prüfungen liefen nicht",
        "blank": "leer",
        "home": "eigener Drucker, Bogen {paper}",
        "sign": "Zum Druck freigegeben (Unterschrift, Datum):",
        "note": "Farben am Bildschirm und auf Papier weichen ab; gedruckt wird aus den Dateien.",
    },
}

RULE_NAMES: dict[str, dict[str, str]] = {
    "en": {
        "card-size": "card size",
        "bleed": "bleed",
        "safe-margin": "safe margin",
        "low-dpi": "picture resolution",
        "rgb-in-cmyk": "CMYK colours only",
        "spot-colour": "process colours only",
        "boxes-missing": "trim and bleed boxes",
        "ink-over-limit": "total ink",
        "font-not-embedded": "fonts embedded",
        "text-too-small": "smallest text",
        "reversed-text-too-small": "smallest light text on dark",
        "line-too-thin": "thinnest line",
        "text-not-k-only": "black text in black ink",
        "line-not-k-only": "black lines in black ink",
        "low-contrast": "text contrast",
    },
    "de": {
        "card-size": "Kartengröße",
        "bleed": "Beschnitt",
        "safe-margin": "Sicherheitsabstand",
        "low-dpi": "Bildauflösung",
        "rgb-in-cmyk": "nur CMYK-Farben",
        "spot-colour": "keine Sonderfarben",
        "boxes-missing": "Endformat- und Beschnittrahmen",
        "ink-over-limit": "Farbauftrag",
        "font-not-embedded": "Schriften eingebettet",
        "text-too-small": "kleinste Schrift",
        "reversed-text-too-small": "kleinste helle Schrift auf dunkel",
        "line-too-thin": "dünnste Linie",
        "text-not-k-only": "schwarze Schrift nur in Schwarz",
        "line-not-k-only": "schwarze Linien nur in Schwarz",
        "low-contrast": "Kontrast der Schrift",
    },
}


@dataclass(frozen=True)
class ProofFacts:
    """What the proof states besides the cards."""

    deck_name: str
    labels: tuple[str, ...]
    printed: int
    """Cards the vendor prints (the deck's cards, the blanks included)."""
    blanks: int
    imprint_on_cover_back: bool
    language: str = "en"
    safe_mm: float | None = None
    """The safe margin the cards were built with (``None``: the preset's)."""
    corner_radius_mm: float | None = None
    """The corner radius the cards were built with (``None``: the preset's)."""

    def safe(self, preset: VendorPreset) -> float:
        return preset.safe_mm if self.safe_mm is None else self.safe_mm

    def radius(self, preset: VendorPreset) -> float:
        return preset.corner_radius_mm if self.corner_radius_mm is None else self.corner_radius_mm


def number(value: float, lang: str) -> str:
    """``value`` in millimetres as the proof prints it: up to three decimals, none
    when whole, a decimal comma in German.

    >>> number(63.5, "de"), number(3.175, "en"), number(58.99999, "de")
    ('63,5', '3.175', '59')
    """
    from babel.numbers import format_decimal

    return str(
        format_decimal(round(value, 3), format="0.###", locale=lang if lang == "de" else "en")
    )


@dataclass(frozen=True)
class _Slot:
    x: float
    y: float
    scale: float


def _grid(
    count: int, page_w: float, page_h: float, area: tuple[float, float, float, float]
) -> list[_Slot]:
    """Places for ``count`` card pages of ``page_w`` x ``page_h`` pt in ``area`` (x, y,
    w, h), as large as they fit in rows."""
    ax, ay, aw, ah = area
    best: tuple[float, int, int] = (0.0, 1, count)
    for cols in range(1, count + 1):
        rows = -(-count // cols)
        scale = min(
            (aw - (cols - 1) * GAP) / cols / page_w, (ah - (rows - 1) * GAP) / rows / page_h
        )
        if scale > best[0]:
            best = (scale, cols, rows)
    scale, cols, _ = best
    cell_w, cell_h = page_w * scale, page_h * scale
    slots = []
    for i in range(count):
        row, col = divmod(i, cols)
        slots.append(
            _Slot(ax + col * (cell_w + GAP), ay + ah - (row + 1) * cell_h - row * GAP, scale)
        )
    return slots


def _fonts() -> tuple[str, str]:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from deckgen.resources import fonts_dir

    names = ("DgProof", "DgProofBold")
    if names[0] not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(names[0], str(fonts_dir() / "DejaVuSans.ttf")))
        pdfmetrics.registerFont(TTFont(names[1], str(fonts_dir() / "DejaVuSans-Bold.ttf")))
    return names


def _card_lines(
    c: object,
    slot: _Slot,
    radius_mm: float,
    safe_mm: float,
    bleed_mm: float,
    page: tuple[float, float],
) -> None:
    """Pale bleed, red trim line with rounded corners, dashed blue safe line."""
    from reportlab.pdfgen.canvas import Canvas

    assert isinstance(c, Canvas)
    s = slot.scale
    w, h = page
    b = bleed_mm * PT_PER_MM * s
    tw, th = w * s - 2 * b, h * s - 2 * b
    x, y = slot.x, slot.y
    # bleed: a pale veil between the page edge and the trim
    from reportlab.pdfgen.canvas import FILL_EVEN_ODD

    c.saveState()
    path = c.beginPath()
    path.rect(x, y, w * s, h * s)
    path.roundRect(x + b, y + b, tw, th, radius_mm * PT_PER_MM * s)
    c.setFillColorRGB(1, 1, 1, alpha=0.6)
    c.drawPath(path, stroke=0, fill=1, fillMode=FILL_EVEN_ODD)  # the ring only
    c.restoreState()
    c.setLineWidth(0.4)
    c.setStrokeColorRGB(*TRIM_RGB)
    c.roundRect(x + b, y + b, tw, th, radius_mm * PT_PER_MM * s, stroke=1, fill=0)
    safe = safe_mm * PT_PER_MM * s
    c.setStrokeColorRGB(*SAFE_RGB)
    c.setDash(1.5, 1.2)
    c.roundRect(
        x + b + safe,
        y + b + safe,
        tw - 2 * safe,
        th - 2 * safe,
        radius_mm * PT_PER_MM * s,
        stroke=1,
        fill=0,
    )
    c.setDash()


def _overlay(
    facts: ProofFacts,
    preset: VendorPreset,
    report: PreflightReport | None,
    page: tuple[float, float],
    bleed_mm: float,
    slots: Sequence[_Slot],
    back_slot: _Slot,
) -> bytes:
    """The page's lines and words, drawn over the cards (transparent where they lie)."""
    from reportlab.pdfgen import canvas

    from deckgen.prepress.contract import RULES

    regular, bold = _fonts()
    text = TEXT.get(facts.language, TEXT["en"])
    rules = RULE_NAMES.get(facts.language, RULE_NAMES["en"])
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(PAGE_W, PAGE_H), invariant=1)
    c.setTitle(f"{facts.deck_name}: {text['title']}")
    top = PAGE_H - MARGIN
    c.setFillColorRGB(0, 0, 0)
    c.setFont(bold, 16)
    c.drawString(MARGIN, top - 16, f"{text['title']}: {facts.deck_name}")
    c.setFont(regular, 8.5)
    line = top - 32
    lang = facts.language
    bleed_trim = bleed_mm * PT_PER_MM
    size = text["size_value"].format(
        w=number((page[0] - 2 * bleed_trim) / PT_PER_MM, lang),
        h=number((page[1] - 2 * bleed_trim) / PT_PER_MM, lang),
        bleed=number(bleed_mm, lang),
        safe=number(facts.safe(preset), lang),
        radius=number(facts.radius(preset), lang),
    )
    if not preset.card_size_required:
        size += text["own_size"].format(preset=preset.name)
    count = text["count_value"].format(cards=len(facts.labels), printed=facts.printed)
    if facts.blanks:
        count += text["blanks"].format(blanks=facts.blanks)
    if facts.imprint_on_cover_back:
        count += text["cover_back"]
    if preset.sheet is not None:
        vendor = text["home"].format(paper=preset.sheet.paper)
    else:  # the shop's name, as its preset's title begins
        vendor = preset.title.split(":")[0]
    for label, value in (
        (text["vendor"], f"{vendor} ({preset.name})"),
        (text["size"], size),
        (text["count"], count),
    ):
        c.setFont(bold, 8.5)
        c.drawString(MARGIN, line, f"{label}:")
        c.setFont(regular, 8.5)
        c.drawString(MARGIN + 66, line, value[:150])
        line -= 11

    for index, slot in enumerate(slots):
        _card_lines(c, slot, facts.radius(preset), facts.safe(preset), bleed_mm, page)
        if index >= len(facts.labels):
            c.setFont(regular, 6)
            c.setFillColorRGB(0.4, 0.4, 0.4)
            c.drawCentredString(
                slot.x + page[0] * slot.scale / 2, slot.y + page[1] * slot.scale / 2, text["blank"]
            )
            c.setFillColorRGB(0, 0, 0)
    _card_lines(c, back_slot, facts.radius(preset), facts.safe(preset), bleed_mm, page)

    side_x = PAGE_W - MARGIN - SIDE_W
    y = back_slot.y - 14
    c.setFont(bold, 8.5)
    c.drawString(side_x, back_slot.y + page[1] * back_slot.scale + 4, text["back"])
    c.setFont(regular, 7.5)
    for colour, words in (
        (TRIM_RGB, text["legend_trim"]),
        (SAFE_RGB, text["legend_safe"]),
        ((0.6, 0.6, 0.6), text["legend_bleed"]),
    ):
        c.setFillColorRGB(*colour)
        c.rect(side_x, y + 1, 8, 5, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.drawString(side_x + 12, y, words)
        y -= 10
    y -= 6
    c.setFont(bold, 8.5)
    c.drawString(side_x, y, text["checks"])
    y -= 11
    c.setFont(regular, 7.2)
    if report is None:
        c.drawString(side_x, y, text["not_run"])
        y -= 9
    else:
        for kind in RULES:
            if preset.colour_space != "cmyk" and kind in ("rgb-in-cmyk", "spot-colour"):
                continue  # not a rule of an RGB vendor
            found = report.by_kind(kind)
            if kind in ("card-size", "bleed") and not preset.card_size_required:
                # the preset keeps the deck's own size: nothing was checked against it
                c.setFillColorRGB(0.45, 0.45, 0.45)
                c.drawString(side_x, y, "–")
                c.setFillColorRGB(0, 0, 0)
                c.drawString(side_x + 10, y, f"{rules.get(kind, kind)}: {text['not_checked']}")
                y -= 9
                continue
            mark, status = (
                ("✓", text["passed"]) if not found else ("✗", text["failed"].format(n=len(found)))
            )
            c.setFillColorRGB(*((0.1, 0.5, 0.2) if not found else TRIM_RGB))
            c.drawString(side_x, y, mark)
            c.setFillColorRGB(0, 0, 0)
            c.drawString(side_x + 10, y, f"{rules.get(kind, kind)}: {status}")
            y -= 9
    y -= 8
    c.setFont(regular, 7.5)
    c.drawString(side_x, y, text["sign"])
    c.setLineWidth(0.5)
    c.setStrokeColorRGB(0, 0, 0)
    c.line(side_x, y - 22, PAGE_W - MARGIN, y - 22)
    c.setFont(regular, 6.5)
    c.setFillColorRGB(0.35, 0.35, 0.35)
    c.drawString(MARGIN, MARGIN - 14, text["note"])
    c.showPage()
    c.save()
    return buffer.getvalue()


def proof_document(
    pdfs: CardPdfs,
    facts: ProofFacts,
    preset: VendorPreset,
    report: PreflightReport | None,
) -> pikepdf.Pdf:
    """The proof page of the open card PDFs ``pdfs`` as a pikepdf document (the caller
    adds metadata and saves it, before it closes ``pdfs``)."""
    import pikepdf

    cards, back, geo = pdfs.cards, pdfs.back, pdfs.geometry
    page = (geo.page_w_mm * PT_PER_MM, geo.page_h_mm * PT_PER_MM)
    if len(cards.pages) != len(facts.labels):
        raise ValueError(f"{len(facts.labels)} labels for {len(cards.pages)} cards")
    total = len(cards.pages) + facts.blanks
    grid_area = (
        MARGIN,
        MARGIN,
        PAGE_W - 2 * MARGIN - SIDE_W - 12,
        PAGE_H - 2 * MARGIN - HEADER_H,
    )
    slots = _grid(total, page[0], page[1], grid_area)
    back_scale = min((SIDE_W * 0.5) / page[0], 190 / page[1])
    side_x = PAGE_W - MARGIN - SIDE_W
    back_slot = _Slot(side_x, PAGE_H - MARGIN - HEADER_H - page[1] * back_scale, back_scale)
    drawn = _overlay(facts, preset, report, page, geo.bleed_mm, slots, back_slot)
    overlay = pikepdf.open(io.BytesIO(drawn))
    out_page = overlay.pages[0]
    xobjects = out_page.obj.Resources.get("/XObject", pikepdf.Dictionary())
    ops = []

    def place(src: pikepdf.Pdf, index: int, name: str, slot: _Slot) -> None:
        form = src.pages[index].as_form_xobject()
        form.BBox = src.pages[index].obj.MediaBox
        xobjects[name] = overlay.copy_foreign(src.make_indirect(form))
        mx0, my0 = (float(v) for v in src.pages[index].obj.MediaBox[:2])
        s = slot.scale
        ops.append(
            f"q {s:.5f} 0 0 {s:.5f} {slot.x - mx0 * s:.3f} {slot.y - my0 * s:.3f} cm {name} Do Q"
        )

    for index in range(len(cards.pages)):
        place(cards, index, f"/Card{index}", slots[index])
    place(back, 0, "/Back", back_slot)
    for slot in slots[len(cards.pages) :]:  # blank cards: a white card with a grey edge
        w, h = page[0] * slot.scale, page[1] * slot.scale
        ops.append(f"q 1 g 0.6 G 0.4 w {slot.x:.3f} {slot.y:.3f} {w:.3f} {h:.3f} re B Q")
    out_page.obj.Resources.XObject = xobjects
    out_page.contents_add(overlay.make_stream("\n".join(ops).encode("ascii")), prepend=True)
    return overlay
