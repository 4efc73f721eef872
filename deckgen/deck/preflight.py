"""Preflight: what a print shop would complain about, found before the files leave.

Takes card PDFs (``cards.pdf`` with the card labels from ``manifest.json``, and
``back.pdf``) and the job's rules (minimum dpi, safe margin, colour space, ink limit);
gives a :class:`PreflightReport` whose findings each name the card, the file and the
page:

- ``low-dpi``: a picture whose effective resolution on the card is below the minimum
  (every picture's dpi on every card is listed in ``pictures`` as well);
- ``safe-margin``: text, a picture or a drawing reaching into the margin between the
  cut and the safe area. Not counted: the background layer, that is everything drawn
  up to the last object that runs past the cut into the bleed (fills, card art,
  patterns: they are meant to be cut);
- ``rgb-in-cmyk``: RGB pictures or colours left in a CMYK job;
- ``font-not-embedded``: text set in a font the PDF does not carry;
- ``ink-over-limit``: total ink (C+M+Y+K) above the limit, in a CMYK job.

Pages are read with pypdfium2 (object bounds, image sizes, fonts) and pikepdf (colour
operators and image colour spaces).
"""

from __future__ import annotations

import ctypes
import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pikepdf
    import pypdfium2 as pdfium

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
MM_PER_PT = 25.4 / 72
DPI_TOLERANCE = 0.99
"""A picture prepared for 300 dpi may measure 299.7 after rounding: not a problem."""
MARGIN_TOLERANCE_MM = 0.25
"""Less than this inside the safe margin is not reported (a rule drawn on the safe line
sticks out by half its width)."""

OBJ_TEXT, OBJ_PATH, OBJ_IMAGE, OBJ_SHADING, OBJ_FORM = 1, 2, 3, 4, 5
KIND_NAMES = {
    OBJ_TEXT: "text",
    OBJ_PATH: "a drawing",
    OBJ_IMAGE: "a picture",
    OBJ_SHADING: "a shading",
}


@dataclass(frozen=True)
class Finding:
    """One problem, on one card of one file."""

    kind: str
    card: str
    file: str
    page: int
    message: str
    value: float | None = None

    def text(self) -> str:
        return f"{self.card} ({self.file} page {self.page}): {self.message}"


@dataclass(frozen=True)
class PictureUse:
    """A picture drawn on a card, with its effective resolution there."""

    card: str
    file: str
    page: int
    width_px: int
    height_px: int
    dpi: float


@dataclass
class PreflightReport:
    findings: list[Finding] = field(default_factory=list)
    pictures: list[PictureUse] = field(default_factory=list)
    pages_checked: int = 0

    @property
    def ok(self) -> bool:
        return not self.findings

    def by_kind(self, kind: str) -> list[Finding]:
        return [f for f in self.findings if f.kind == kind]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "pages_checked": self.pages_checked,
            "findings": [asdict(f) for f in self.findings],
            "pictures": [asdict(p) for p in self.pictures],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def summary_lines(self) -> list[str]:
        """One line per kind of problem, naming the cards (at most a few, then a count)."""
        lines: list[str] = []
        kinds: dict[str, list[Finding]] = {}
        for finding in self.findings:
            kinds.setdefault(finding.kind, []).append(finding)
        for kind, found in kinds.items():
            if len(found) <= 3:
                lines.extend(f.text() for f in found)
            else:
                shown = "; ".join(f.text() for f in found[:3])
                lines.append(f"{shown}; and {len(found) - 3} more cards with {kind}")
        return lines


@dataclass(frozen=True)
class PreflightRules:
    """What the job demands."""

    min_dpi: int = 300
    safe_mm: float = 4.0
    cmyk: bool = False
    max_ink_percent: float = 300.0
    check_safe_margin: bool = True


def _compose(first: Matrix, then: Matrix) -> Matrix:
    """The matrix that applies ``first``, then ``then``."""
    a1, b1, c1, d1, e1, f1 = first
    a2, b2, c2, d2, e2, f2 = then
    return (
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    )


def _bounds(
    rect: tuple[float, float, float, float], m: Matrix
) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = rect
    a, b, c, d, e, f = m
    xs, ys = [], []
    for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return (min(xs), min(ys), max(xs), max(ys))


def _matrix(obj: pdfium.PdfObject) -> Matrix:
    m = obj.get_matrix()
    return (float(m.a), float(m.b), float(m.c), float(m.d), float(m.e), float(m.f))


def _page_objects(
    page: pdfium.PdfPage,
) -> Iterator[tuple[pdfium.PdfObject, tuple[float, float, float, float], Matrix]]:
    """Every object with its bounds in page space and the matrix from its space to the page.

    pdfium reports an object inside a form XObject in the form's space; the forms'
    matrices are composed here.
    """
    parents: list[Matrix] = []
    for obj in page.get_objects(max_depth=8):
        level = obj.level
        del parents[level:]
        to_page = IDENTITY
        for parent in reversed(parents):
            to_page = _compose(to_page, parent)
        bounds = _bounds(tuple(float(v) for v in obj.get_bounds()), to_page)  # type: ignore[arg-type]
        yield obj, bounds, to_page
        if obj.type == OBJ_FORM:
            parents.append(_matrix(obj))


def _font_info(obj: pdfium.PdfObject) -> tuple[str, bool]:
    import pypdfium2.raw as raw

    font = raw.FPDFTextObj_GetFont(obj.raw)
    if not font:
        return ("unknown", True)
    size = raw.FPDFFont_GetBaseFontName(font, None, 0)
    name = "unknown"
    if size > 0:
        buffer = ctypes.create_string_buffer(size)
        raw.FPDFFont_GetBaseFontName(font, buffer, size)
        name = buffer.value.decode("latin-1", "replace")
    return (name, bool(raw.FPDFFont_GetIsEmbedded(font)))


def _check_page_objects(
    page: pdfium.PdfPage,
    *,
    card: str,
    file: str,
    number: int,
    rules: PreflightRules,
    report: PreflightReport,
) -> None:
    import pypdfium2 as pdfium

    tx0, ty0, tx1, ty1 = (float(v) for v in page.get_trimbox())
    safe = rules.safe_mm / MM_PER_PT
    tol = MARGIN_TOLERANCE_MM / MM_PER_PT
    sx0, sy0, sx1, sy1 = tx0 + safe, ty0 + safe, tx1 - safe, ty1 - safe
    margin_hits: dict[str, float] = {}
    fonts_missing: set[str] = set()
    objects = [item for item in _page_objects(page) if item[0].type != OBJ_FORM]
    last_bleeding = -1
    for index, (_, (x0, y0, x1, y1), _) in enumerate(objects):
        if x0 < tx0 - tol or y0 < ty0 - tol or x1 > tx1 + tol or y1 > ty1 + tol:
            last_bleeding = index
    for index, (obj, (x0, y0, x1, y1), to_page) in enumerate(objects):
        if isinstance(obj, pdfium.PdfImage) or obj.type == OBJ_IMAGE:
            assert isinstance(obj, pdfium.PdfImage)
            w_px, h_px = obj.get_px_size()
            a, b, c, d, _, _ = _compose(_matrix(obj), to_page)
            w_in, h_in = math.hypot(a, b) / 72, math.hypot(c, d) / 72
            if w_in > 0 and h_in > 0:
                dpi = round(min(w_px / w_in, h_px / h_in), 1)
                report.pictures.append(PictureUse(card, file, number, w_px, h_px, dpi))
                if dpi < rules.min_dpi * DPI_TOLERANCE:
                    report.findings.append(
                        Finding(
                            "low-dpi",
                            card,
                            file,
                            number,
                            f"a {w_px} x {h_px} px picture is printed at {dpi:.0f} dpi, "
                            f"below {rules.min_dpi} dpi: use a larger picture",
                            dpi,
                        )
                    )
        if obj.type == OBJ_TEXT:
            name, embedded = _font_info(obj)
            if not embedded:
                fonts_missing.add(name)
        if not rules.check_safe_margin:
            continue
        if index <= last_bleeding:
            continue  # the background layer: fills, card art, patterns
        outside_trim = x1 <= tx0 or x0 >= tx1 or y1 <= ty0 or y0 >= ty1
        if outside_trim:
            continue
        depth = max(sx0 - x0, sy0 - y0, x1 - sx1, y1 - sy1)
        if depth > tol:
            kind = KIND_NAMES.get(obj.type, "something")
            margin_hits[kind] = max(margin_hits.get(kind, 0.0), depth * MM_PER_PT)
    for kind, depth_mm in sorted(margin_hits.items()):
        report.findings.append(
            Finding(
                "safe-margin",
                card,
                file,
                number,
                f"{kind} reaches {depth_mm:.1f} mm into the {rules.safe_mm:g} mm safe margin "
                "and may be cut off: move it inwards",
                round(depth_mm, 2),
            )
        )
    for name in sorted(fonts_missing):
        report.findings.append(
            Finding(
                "font-not-embedded",
                card,
                file,
                number,
                f"the font {name} is not embedded: the printer may substitute it",
            )
        )


def _is_rgb(space: Any, resources: Any) -> bool:
    from deckgen.deck.cmyk import is_rgb_space

    return bool(is_rgb_space(space, resources))


def _image_ink(obj: pikepdf.Stream, cache: dict[tuple[int, int], float]) -> float:
    """Highest total ink of a CMYK image in per cent (C+M+Y+K)."""
    import pikepdf
    from PIL import ImageMath

    key = obj.objgen
    if key in cache:
        return cache[key]
    from deckgen.deck.cmyk import image_pixels

    try:
        image = image_pixels(obj)
    except (pikepdf.PdfError, NotImplementedError, ValueError):
        cache[key] = 0.0
        return 0.0
    if image.mode != "CMYK":
        cache[key] = 0.0
        return 0.0
    c, m, y, k = (band.convert("I") for band in image.split())
    total = ImageMath.lambda_eval(lambda v: v["c"] + v["m"] + v["y"] + v["k"], c=c, m=m, y=y, k=k)
    top = float(total.getextrema()[1]) / 255 * 100
    cache[key] = top
    return top


def _colour_checks(
    pdf: pikepdf.Pdf,
    index: int,
    *,
    card: str,
    file: str,
    rules: PreflightRules,
    report: PreflightReport,
    ink_cache: dict[tuple[int, int], float],
) -> None:
    """RGB content and total ink on one page (content streams and forms, recursively)."""
    import pikepdf

    rgb_things: set[str] = set()
    max_ink = 0.0
    seen: set[tuple[int, int]] = set()

    def walk(contents: Any, resources: Any, depth: int) -> None:
        nonlocal max_ink
        if depth > 8:
            return
        fill_rgb = stroke_rgb = False
        for instruction in pikepdf.parse_content_stream(contents):
            operands, op = instruction.operands, str(instruction.operator)
            if op in ("rg", "RG"):
                rgb_things.add("colours")
            elif op in ("cs", "CS") and operands:
                is_rgb = _is_rgb(operands[0], resources)
                if op == "cs":
                    fill_rgb = is_rgb
                else:
                    stroke_rgb = is_rgb
                if is_rgb:
                    rgb_things.add("colours")
            elif op in ("sc", "scn", "SC", "SCN") and (fill_rgb or stroke_rgb):
                rgb_things.add("colours")
            elif op in ("k", "K") and len(operands) == 4:
                max_ink = max(max_ink, sum(float(v) for v in operands) * 100)
            elif op == "Do" and operands and resources is not None:
                xobjects = resources.get("/XObject")
                target = xobjects.get(str(operands[0])) if xobjects is not None else None
                if not isinstance(target, pikepdf.Stream):
                    continue
                key = target.objgen
                if target.get("/Subtype") == pikepdf.Name.Image:
                    space = target.get("/ColorSpace")
                    if _is_rgb(space, None) or (
                        isinstance(space, pikepdf.Array)
                        and space[0] == pikepdf.Name.Indexed
                        and _is_rgb(space[1], None)
                    ):
                        rgb_things.add("pictures")
                    elif rules.cmyk and space == pikepdf.Name.DeviceCMYK:
                        max_ink = max(max_ink, _image_ink(target, ink_cache))
                elif target.get("/Subtype") == pikepdf.Name.Form and key not in seen:
                    seen.add(key)
                    walk(target, target.get("/Resources", resources), depth + 1)
            elif op == "INLINE IMAGE":
                rgb_things.add("an inline picture")

    page = pdf.pages[index]
    walk(page, page.obj.get("/Resources"), 0)
    number = index + 1
    if rules.cmyk and rgb_things:
        report.findings.append(
            Finding(
                "rgb-in-cmyk",
                card,
                file,
                number,
                "RGB " + " and ".join(sorted(rgb_things)) + " in a CMYK job: "
                "build with --cmyk so that they are converted",
            )
        )
    if rules.cmyk and max_ink > rules.max_ink_percent + 0.5:
        report.findings.append(
            Finding(
                "ink-over-limit",
                card,
                file,
                number,
                f"total ink reaches {max_ink:.0f} %, more than the {rules.max_ink_percent:.0f} % "
                "allowed: lighten the darkest colours",
                round(max_ink, 1),
            )
        )


def preflight_pdf(
    path: Path,
    labels: Sequence[str],
    rules: PreflightRules,
    *,
    report: PreflightReport | None = None,
) -> PreflightReport:
    """Check every page of ``path``; ``labels[i]`` names the card on page ``i + 1``."""
    import pikepdf
    import pypdfium2 as pdfium

    report = report or PreflightReport()
    ink_cache: dict[tuple[int, int], float] = {}
    doc = pdfium.PdfDocument(str(path))
    try:
        with pikepdf.open(path) as pdf:
            for index in range(len(doc)):
                card = labels[index] if index < len(labels) else f"page {index + 1}"
                page = doc[index]
                _check_page_objects(
                    page, card=card, file=path.name, number=index + 1, rules=rules, report=report
                )
                page.close()
                _colour_checks(
                    pdf,
                    index,
                    card=card,
                    file=path.name,
                    rules=rules,
                    report=report,
                    ink_cache=ink_cache,
                )
                report.pages_checked += 1
    finally:
        doc.close()
    return report


def card_labels(manifest: dict[str, Any]) -> list[str]:
    """Names of the cards in page order, from a build's manifest: cover, tile 0-0 ..."""
    cards = sorted(manifest.get("cards", []), key=lambda c: int(c.get("page", 0)))
    labels = []
    for card in cards:
        if card.get("kind") == "tile" and card.get("tile"):
            labels.append(f"tile {card['tile']}")
        else:
            labels.append(f"the {card.get('kind', 'card')} card")
    return labels


def preflight_build(folder: Path, rules: PreflightRules) -> PreflightReport:
    """Check a build folder: ``cards.pdf`` (cards named from ``manifest.json``) and
    ``back.pdf``."""
    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text("utf-8")) if manifest_path.is_file() else {}
    report = preflight_pdf(folder / "cards.pdf", card_labels(manifest), rules)
    return preflight_pdf(folder / "back.pdf", ["the back"], rules, report=report)
