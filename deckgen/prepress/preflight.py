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
- ``ink-over-limit``: total ink (C+M+Y+K) above the limit, in a CMYK job;
- ``spot-colour``: Separation or DeviceN colours (spot inks) in a CMYK job;
- ``boxes-missing``: a page without TrimBox or BleedBox;
- ``text-too-small``, ``reversed-text-too-small``, ``line-too-thin``: text below the
  vendor's minimum size (light text on a dark ground has a larger minimum), stroked
  lines thinner than its minimum width;
- ``text-not-k-only`` / ``line-not-k-only``: in a CMYK job, black or grey text, or a
  black or grey line thinner than :data:`THIN_LINE_PT`, printed with cyan, magenta or
  yellow ink (they must be black ink only, :mod:`deckgen.prepress.blackink`; coloured
  text and lines are a design choice and are not reported);
- ``low-contrast``: text whose colour stands out too little from the ground under it
  (WCAG 2 contrast ratio below 4.5:1, 3:1 for text of 18 pt and more: the
  thresholds of :mod:`deckgen.deck.colour`); the ground is read off the rendered page.

Pages are read with pypdfium2 (object bounds, image sizes, fonts) and pikepdf (colour
operators and image colour spaces).
"""

from __future__ import annotations

import ctypes
import json
import math
from collections.abc import Iterator, Sequence
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen.units import MM_PER_PT

if TYPE_CHECKING:
    import pikepdf
    import pypdfium2 as pdfium

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
DPI_TOLERANCE = 0.99
"""A picture prepared for 300 dpi may measure 299.7 after rounding: not a problem."""
MARGIN_TOLERANCE_MM = 0.25
"""Less than this inside the safe margin is not reported (a rule drawn on the safe line
sticks out by half its width)."""

THIN_LINE_PT = 1.0
"""Lines at most this wide are hairlines: they must print in one ink."""

CONTRAST_DPI = 48
"""Pages are rendered this fine to read the ground under each text."""

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
        where = f"{self.file} page {self.page}" if self.page else self.file
        return f"{self.card} ({where}): {self.message}"


@dataclass(frozen=True)
class PictureUse:
    """A picture drawn on a card, with its effective resolution there."""

    card: str
    file: str
    page: int
    width_px: int
    height_px: int
    dpi: float


@dataclass(frozen=True)
class CardInk:
    """Total ink of one card as the press prints it (rendered, per cent)."""

    card: str
    file: str
    page: int
    max_percent: float
    over_fraction: float


@dataclass
class PreflightReport:
    findings: list[Finding] = field(default_factory=list)
    pictures: list[PictureUse] = field(default_factory=list)
    pages_checked: int = 0
    ink: list[CardInk] = field(default_factory=list)
    ink_limit_percent: float | None = None
    picture_files: list[dict[str, Any]] = field(default_factory=list)
    """One entry per picture file: real size, lowest dpi, cards (from the deck)."""

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
            "ink_limit_percent": self.ink_limit_percent,
            "ink": [asdict(i) for i in self.ink],
            "picture_files": self.picture_files,
            "pictures": [asdict(p) for p in self.pictures],
        }

    def to_markdown(self) -> str:
        """The report for people: a verdict, the findings by kind, the ink per card."""
        lines = ["# Preflight", ""]
        verdict = "no problems found" if self.ok else f"{len(self.findings)} problem(s)"
        lines.append(f"{self.pages_checked} pages checked: **{verdict}**.")
        if self.ink:
            top = max(self.ink, key=lambda i: i.max_percent)
            limit = f" (limit {self.ink_limit_percent:g} %)" if self.ink_limit_percent else ""
            lines.append(f"Highest total ink: {top.max_percent:.0f} % on {top.card}{limit}.")
        kinds: dict[str, list[Finding]] = {}
        for finding in self.findings:
            kinds.setdefault(finding.kind, []).append(finding)
        for kind, found in kinds.items():
            lines += ["", f"## {kind} ({len(found)})", ""]
            lines += [f"- {f.text()}" for f in found]
        if self.picture_files:
            lines += [
                "",
                "## Pictures",
                "",
                "| file | pixels | lowest dpi | cards |",
                "|---|---|---|---|",
            ]
            for pic in self.picture_files:
                lines.append(
                    f"| {pic['file']} | {pic['width_px']} x {pic['height_px']} | "
                    f"{pic['dpi']:.0f} | {len(pic['cards'])} |"
                )
        if self.ink:
            lines += ["", "## Total ink per card", "", "| card | file | max % | above limit |"]
            lines.append("|---|---|---|---|")
            for ink in self.ink:
                lines.append(
                    f"| {ink.card} | {ink.file} | {ink.max_percent:.0f} | "
                    f"{ink.over_fraction * 100:.2f} % |"
                )
        return "\n".join(lines) + "\n"

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
    min_text_pt: float = 0.0
    """Smallest text size (0: not checked)."""
    min_reversed_text_pt: float = 0.0
    """Smallest size of light text (on a dark ground)."""
    min_line_pt: float = 0.0
    """Thinnest stroked line (0: not checked)."""


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


SIZE_TOLERANCE_PT = 0.05
"""Sizes this close below a minimum pass (6.5 pt text measured as 6.4999)."""
LIGHT_TEXT = 0.6
"""Text whose luminance (0..1) is above this is light: reversed out of a dark ground."""


def _scale(m: Matrix) -> float:
    a, b, c, d, _, _ = m
    return math.sqrt(abs(a * d - b * c))


def _text_size(obj: pdfium.PdfObject, to_page: Matrix) -> tuple[float, bool]:
    """The printed size (pt) of a text object and whether it is light (reversed)."""
    import pypdfium2.raw as raw

    size = ctypes.c_float(0)
    raw.FPDFTextObj_GetFontSize(obj.raw, ctypes.byref(size))
    r, g, b, a = (ctypes.c_uint(0) for _ in range(4))
    raw.FPDFPageObj_GetFillColor(
        obj.raw, ctypes.byref(r), ctypes.byref(g), ctypes.byref(b), ctypes.byref(a)
    )
    luminance = (0.2126 * r.value + 0.7152 * g.value + 0.0722 * b.value) / 255
    return float(size.value) * _scale(_compose(_matrix(obj), to_page)), luminance > LIGHT_TEXT


def _line_width(obj: pdfium.PdfObject, to_page: Matrix) -> float | None:
    """The printed width (pt) of a stroked path, ``None`` for an unstroked one."""
    import pypdfium2.raw as raw

    fill_mode, stroke = ctypes.c_int(0), ctypes.c_int(0)
    raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill_mode), ctypes.byref(stroke))
    if not stroke.value:
        return None
    width = ctypes.c_float(0)
    raw.FPDFPageObj_GetStrokeWidth(obj.raw, ctypes.byref(width))
    return float(width.value) * _scale(_compose(_matrix(obj), to_page))


def _size_findings(
    rules: PreflightRules, sizes: dict[str, float], where: tuple[str, str, int]
) -> list[Finding]:
    card, file, number = where
    out = []
    if "text" in sizes:
        out.append(
            Finding(
                "text-too-small",
                card,
                file,
                number,
                f"text set at {sizes['text']:.1f} pt, below the {rules.min_text_pt:g} pt "
                "the printer can print sharply: make it larger",
                round(sizes["text"], 2),
            )
        )
    if "reversed" in sizes:
        out.append(
            Finding(
                "reversed-text-too-small",
                card,
                file,
                number,
                f"light text on a dark ground set at {sizes['reversed']:.1f} pt, below "
                f"{rules.min_reversed_text_pt:g} pt (ink spreads into thin light letters): "
                "make it larger",
                round(sizes["reversed"], 2),
            )
        )
    if "line" in sizes:
        out.append(
            Finding(
                "line-too-thin",
                card,
                file,
                number,
                f"a line {sizes['line']:.2f} pt wide, thinner than the "
                f"{rules.min_line_pt:g} pt the printer holds: draw it thicker",
                round(sizes["line"], 3),
            )
        )
    return out


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
    too_small: dict[str, float] = {}
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
            size, light = _text_size(obj, to_page)
            limit = rules.min_reversed_text_pt if light else rules.min_text_pt
            key = "reversed" if light else "text"
            if size > 0 and size < limit - SIZE_TOLERANCE_PT:
                too_small[key] = min(too_small.get(key, size), size)
        if obj.type == OBJ_PATH and rules.min_line_pt > 0:
            width = _line_width(obj, to_page)
            if width is not None and 0 < width < rules.min_line_pt - 0.01:
                too_small["line"] = min(too_small.get("line", width), width)
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
    report.findings.extend(_size_findings(rules, too_small, (card, file, number)))
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
    from deckgen.prepress.cmyk import is_rgb_space

    return bool(is_rgb_space(space, resources))


def _is_spot(space: Any, resources: Any) -> bool:
    """Whether a colour space (a name or array, maybe a resource name) is a spot colour."""
    import pikepdf

    if isinstance(space, pikepdf.Name) and resources is not None and "/ColorSpace" in resources:
        named = resources.ColorSpace.get(str(space))
        if named is not None:
            return _is_spot(named, None)
    if isinstance(space, pikepdf.Array) and len(space) >= 2:
        kind = str(space[0])
        if kind == "/Separation":
            return str(space[1]) not in ("/All", "/None")
        if kind == "/DeviceN":
            return any(str(n) not in ("/Cyan", "/Magenta", "/Yellow", "/Black") for n in space[1])
        if kind == "/Indexed":
            return _is_spot(space[1], None)
    return False


def _image_ink(obj: pikepdf.Stream, cache: dict[tuple[int, int], float]) -> float:
    """Highest total ink of a CMYK image in per cent (C+M+Y+K)."""
    import pikepdf
    from PIL import ImageMath

    key = obj.objgen
    if key in cache:
        return cache[key]
    from deckgen.prepress.cmyk import image_pixels

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

    from deckgen.prepress.blackink import STROKE_OPS, TEXT_OPS, is_k_only, looks_grey

    rgb_things: set[str] = set()
    spots: set[str] = set()
    max_ink = 0.0
    seen: set[tuple[int, int]] = set()
    not_black: dict[str, list[float]] = {}

    def walk(contents: Any, resources: Any, depth: int, start: list[Any]) -> None:
        nonlocal max_ink
        if depth > 8:
            return
        fill_rgb = stroke_rgb = False
        # graphics state: fill CMYK, stroke CMYK, line width
        stack: list[list[Any]] = [list(start)]
        for instruction in pikepdf.parse_content_stream(contents):
            operands, op = instruction.operands, str(instruction.operator)
            state = stack[-1]
            if op == "q":
                stack.append(list(state))
            elif op == "Q" and len(stack) > 1:
                stack.pop()
            elif op == "w" and operands:
                state[2] = float(operands[0])
            elif op in ("g", "G") and operands:
                state[0 if op == "g" else 1] = (0.0, 0.0, 0.0, 1 - float(operands[0]))
            if op in ("rg", "RG"):
                rgb_things.add("colours")
                state[0 if op == "rg" else 1] = None
            elif op in ("cs", "CS") and operands:
                if _is_spot(operands[0], resources):
                    spots.add("colours")
                is_rgb = _is_rgb(operands[0], resources)
                if op == "cs":
                    fill_rgb = is_rgb
                else:
                    stroke_rgb = is_rgb
                if is_rgb:
                    rgb_things.add("colours")
            elif op in ("sc", "scn", "SC", "SCN") and (fill_rgb or stroke_rgb):
                rgb_things.add("colours")
            elif op in ("sc", "scn", "SC", "SCN") and len(operands) == 4:
                state[0 if op in ("sc", "scn") else 1] = tuple(float(v) for v in operands)
                max_ink = max(max_ink, sum(float(v) for v in operands) * 100)
            elif op in ("k", "K") and len(operands) == 4:
                state[0 if op == "k" else 1] = tuple(float(v) for v in operands)
                max_ink = max(max_ink, sum(float(v) for v in operands) * 100)
            elif op in TEXT_OPS and rules.cmyk and state[0] is not None:
                if not is_k_only(state[0]) and looks_grey(state[0]):
                    not_black.setdefault("text", list(state[0]))
            elif op == "Do" and operands and resources is not None:
                xobjects = resources.get("/XObject")
                target = xobjects.get(str(operands[0])) if xobjects is not None else None
                if not isinstance(target, pikepdf.Stream):
                    continue
                key = target.objgen
                if target.get("/Subtype") == pikepdf.Name.Image:
                    space = target.get("/ColorSpace")
                    if _is_spot(space, None):
                        spots.add("pictures")
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
                    walk(target, target.get("/Resources", resources), depth + 1, state)
            elif op == "INLINE IMAGE":
                rgb_things.add("an inline picture")
            if (
                op in STROKE_OPS
                and rules.cmyk
                and state[1] is not None
                and state[2] <= THIN_LINE_PT
                and not is_k_only(state[1])
                and looks_grey(state[1])
            ):
                not_black.setdefault("line", list(state[1]))

    page = pdf.pages[index]
    walk(page, page.obj.get("/Resources"), 0, [(0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0, 1.0), 1.0])
    number = index + 1
    for what, cmyk in sorted(not_black.items()):
        inks = " ".join(f"{n}{v * 100:.0f}" for n, v in zip("CMYK", cmyk, strict=True))
        report.findings.append(
            Finding(
                f"{what}-not-k-only",
                card,
                file,
                number,
                f"{'text' if what == 'text' else 'a thin line'} printed in {inks} "
                "(several inks fringe when small): use black or grey, which print in "
                "black ink alone",
                round(sum(cmyk) * 100, 1),
            )
        )
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
    if rules.cmyk and spots:
        report.findings.append(
            Finding(
                "spot-colour",
                card,
                file,
                number,
                "spot colour " + " and ".join(sorted(spots)) + " in a four-colour job: "
                "the printer prints CMYK only; use process colours",
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
    parsed: Any = None,
    opened: pikepdf.Pdf | None = None,
) -> PreflightReport:
    """Check every page of ``path``; ``labels[i]`` names the card on page ``i + 1``.

    ``parsed``: the file's bytes already parsed by pypdfium2 (a ``PdfDocument`` of the
    very bytes on disk, as the build drew them), used instead of parsing it again.
    ``opened``: the file as pikepdf already has it open (the document those bytes were
    saved from), read instead of opening it again.
    """
    import pikepdf
    import pypdfium2 as pdfium

    report = report or PreflightReport()
    ink_cache: dict[tuple[int, int], float] = {}
    doc = parsed if parsed is not None else pdfium.PdfDocument(str(path))
    try:
        with nullcontext(opened) if opened is not None else pikepdf.open(path) as pdf:
            for index in range(len(doc)):
                card = labels[index] if index < len(labels) else f"page {index + 1}"
                missing = [
                    name for name in ("/TrimBox", "/BleedBox") if name not in pdf.pages[index].obj
                ]
                if missing:
                    report.findings.append(
                        Finding(
                            "boxes-missing",
                            card,
                            path.name,
                            index + 1,
                            "no " + " and no ".join(m[1:] for m in missing) + ": the printer "
                            "cannot tell where to cut; make the page from deckgen's cards.pdf",
                        )
                    )
                page = doc[index]
                _check_page_objects(
                    page, card=card, file=path.name, number=index + 1, rules=rules, report=report
                )
                _check_contrast(page, where=(card, path.name, index + 1), report=report)
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
        if parsed is None:
            doc.close()
    return report


def _fill_rgb(obj: pdfium.PdfObject) -> tuple[int, int, int]:
    import pypdfium2.raw as raw

    r, g, b, a = (ctypes.c_uint(0) for _ in range(4))
    raw.FPDFPageObj_GetFillColor(
        obj.raw, ctypes.byref(r), ctypes.byref(g), ctypes.byref(b), ctypes.byref(a)
    )
    return (int(r.value), int(g.value), int(b.value))


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _ground(
    image: Any, box: tuple[float, float, float, float], scale: float
) -> tuple[int, int, int] | None:
    """The median colour of a band around ``box`` (pt, from the top left) on the page
    rendered at ``scale``: the ground a text stands on (its letters are inside)."""
    x0, y0, x1, y1 = (v * scale for v in box)
    pad = max(2.0, 0.3 * (y1 - y0))
    outer = (
        max(0, math.floor(x0 - pad)),
        max(0, math.floor(y0 - pad)),
        min(image.width, math.ceil(x1 + pad)),
        min(image.height, math.ceil(y1 + pad)),
    )
    inner = (math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))
    if outer[2] <= outer[0] or outer[3] <= outer[1]:
        return None
    import numpy as np

    area = np.asarray(image.crop(outer)).reshape(outer[3] - outer[1], outer[2] - outer[0], 3)
    ring = np.ones(area.shape[:2], dtype=bool)
    ring[
        max(0, inner[1] - outer[1]) : max(0, inner[3] - outer[1]),
        max(0, inner[0] - outer[0]) : max(0, inner[2] - outer[0]),
    ] = False
    pixels = area[ring]
    if len(pixels) == 0:
        return None
    r, g, b = (int(v) for v in np.median(pixels, axis=0))
    return (r, g, b)


def _contrast_fix(ink: float, ground: float) -> str:
    """Which way to move the colours apart (by luminance) to raise the contrast."""
    if ink >= ground:  # light text on a darker ground
        return (
            "choose a lighter text colour"
            if ground < 0.01
            else "choose a lighter text colour or a darker background"
        )
    return (
        "choose a darker text colour"
        if ground > 0.95
        else "choose a darker text colour or a lighter background"
    )


def _check_contrast(
    page: pdfium.PdfPage, *, where: tuple[str, str, int], report: PreflightReport
) -> None:
    """One ``low-contrast`` finding per page: its text of the lowest contrast, if too low.

    The ground under a text is read off the rendered page around the text's bounds
    (:func:`_ground`).
    """
    from deckgen.deck.colour import (
        LARGE_TEXT_PT,
        MIN_LARGE_TEXT_CONTRAST,
        MIN_TEXT_CONTRAST,
        contrast_ratio,
    )

    texts = [
        (obj, bounds, to_page)
        for obj, bounds, to_page in _page_objects(page)
        if obj.type == OBJ_TEXT and bounds[2] > bounds[0] and bounds[3] > bounds[1]
    ]
    if not texts:
        return
    scale = CONTRAST_DPI / 72
    image = page.render(scale=scale).to_pil().convert("RGB")
    x_origin, _, _, y_top = (float(v) for v in page.get_mediabox())
    worst: tuple[float, float, tuple[int, int, int], tuple[int, int, int], float] | None = None
    for obj, (x0, y0, x1, y1), to_page in texts:
        ground = _ground(image, (x0 - x_origin, y_top - y1, x1 - x_origin, y_top - y0), scale)
        if ground is None:
            continue
        ink = _fill_rgb(obj)
        size, _ = _text_size(obj, to_page)
        ratio = contrast_ratio(ink, ground)
        needed = MIN_LARGE_TEXT_CONTRAST if size >= LARGE_TEXT_PT else MIN_TEXT_CONTRAST
        if ratio < needed - 0.005 and (worst is None or ratio / needed < worst[0] / worst[1]):
            worst = (ratio, needed, ink, ground, size)
    if worst is None:
        return
    ratio, needed, ink, ground, size = worst
    from deckgen.deck.colour import luminance

    fix = _contrast_fix(luminance(ink), luminance(ground))
    card, file, number = where
    report.findings.append(
        Finding(
            "low-contrast",
            card,
            file,
            number,
            f"{size:.0f} pt text in {_hex(ink)} on a ground of {_hex(ground)} has a contrast "
            f"of {ratio:.2f}:1, less than the {needed:g}:1 that reads well: {fix}",
            round(ratio, 2),
        )
    )


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
