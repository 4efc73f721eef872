"""Independent PDF/X conformance checks, written from the standards' requirements.

No open-source PDF/X validator exists, so these checks read a file with pikepdf as a
prepress desk's preflight would, one function per requirement. They share no code with
:mod:`deckgen.prepress.pdfx` (which makes the files). Requirements checked, paraphrased
by subject from ISO 15930-4:2003 (PDF/X-1a:2003) and ISO 15930-7:2008 (PDF/X-4):

1. File version: X-1a:2003 is PDF 1.3 or 1.4 (no object or cross-reference streams,
   which are PDF 1.5); X-4 is at most PDF 1.6.
2. File structure: no encryption; the trailer carries a file identifier ``/ID``.
3. Info dictionary: ``Title`` present and not empty, ``CreationDate`` and ``ModDate``
   as PDF dates, ``Trapped`` is ``/True`` or ``/False``; ``GTS_PDFXVersion`` names the
   flavour (``PDF/X-1:2003`` with ``GTS_PDFXConformance PDF/X-1a:2003``; ``PDF/X-4``).
4. Metadata: a ``/Metadata`` XML stream in the catalogue whose XMP repeats the title,
   dates and trapping of the Info dictionary and identifies the flavour
   (``pdfxid:GTS_PDFXVersion PDF/X-4``; ``pdfx:GTS_PDFXVersion`` and
   ``pdfx:GTS_PDFXConformance`` for X-1a); X-4 also needs ``xmpMM:DocumentID``,
   ``xmpMM:VersionID`` and ``xmpMM:RenditionClass``.
5. Output intent: exactly one ``GTS_PDFX`` OutputIntent with an
   ``OutputConditionIdentifier`` and an embedded ``DestOutputProfile`` that is an ICC
   output (``prtr``) profile for CMYK with ``/N 4``; X-1a:2003 needs an ICC version 2
   profile.
6. Page boxes: every page has a MediaBox and a TrimBox (or an ArtBox, never both); a
   BleedBox, when present, lies inside the MediaBox and holds the TrimBox.
7. Fonts: every font used is embedded (``FontFile``, ``FontFile2`` or ``FontFile3``;
   Type 3 fonts are their own glyph programs).
8. Colour (X-1a): only DeviceCMYK, DeviceGray, Separation, DeviceN and Indexed on them:
   no RGB, CalRGB, Lab or ICCBased colour, in content operators, images, shadings and
   resources.
9. Transparency (X-1a): no soft mask on any image or graphics state, no constant alpha
   below 1, no blend mode other than Normal/Compatible, no transparency group.
10. Actions and annotations: no JavaScript, no ``/AA``; annotations only outside the
    BleedBox or of type PrinterMark/TrapNet.
11. Forbidden content (both): no PostScript XObjects, no OPI comments, no transfer
    functions in graphics states (``/TR``, ``/TR2`` other than ``/Default``); a
    Separation or DeviceN colour (registration ``All`` included) names an alternate
    space that is not RGB-like (X-1a); an explicit ``/Mask`` on an image is a 1-bit
    stencil (``/ImageMask true``) or a colour-key array, never a soft mask (X-1a).
"""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf

PDF_DATE = re.compile(r"^D:\d{4}(\d{2}(\d{2}(\d{2}(\d{2}(\d{2})?)?)?)?)?([Z+\-].*)?$")
RGB_NAMES = {"/DeviceRGB", "/CalRGB", "/Lab"}
NS = {
    "x": "adobe:ns:meta/",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "dc": "http://purl.org/dc/elements/1.1/",
    "xmp": "http://ns.adobe.com/xap/1.0/",
    "pdf": "http://ns.adobe.com/pdf/1.3/",
    "xmpMM": "http://ns.adobe.com/xap/1.0/mm/",
    "pdfx": "http://ns.adobe.com/pdfx/1.3/",
    "pdfxid": "http://www.npes.org/pdfx/ns/id/",
}


def _xmp_date(pdf_date: str) -> str:
    """PDF date -> XMP date, written here independently of deckgen's own."""
    m = re.match(r"D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(.*)", pdf_date)
    assert m, pdf_date
    zone = m.group(7).replace("'", "")
    zone = "Z" if zone in ("", "Z") else f"{zone[0]}{zone[1:3]}:{zone[3:5] or '00'}"
    return f"{m[1]}-{m[2]}-{m[3]}T{m[4]}:{m[5]}:{m[6]}{zone}"


def check_version(raw: bytes, pdf: pikepdf.Pdf, flavour: str) -> list[str]:
    header = raw[:8].decode("latin-1")
    version = header[5:8]
    if flavour == "x1a":
        bad = []
        if version not in ("1.3", "1.4"):
            bad.append(f"PDF/X-1a must be PDF 1.3 or 1.4, not {version}")
        if b"/ObjStm" in raw or b"/XRef" in raw:
            bad.append("PDF/X-1a must not use object or cross-reference streams (PDF 1.5)")
        return bad
    return [] if version <= "1.6" else [f"PDF/X-4 must be at most PDF 1.6, not {version}"]


def check_structure(pdf: pikepdf.Pdf) -> list[str]:
    bad = []
    if pdf.is_encrypted or "/Encrypt" in pdf.trailer:
        bad.append("encrypted")
    ident = pdf.trailer.get("/ID")
    if not isinstance(ident, pikepdf.Array) or len(ident) != 2:
        bad.append("no file identifier /ID in the trailer")
    return bad


def check_info(pdf: pikepdf.Pdf, flavour: str) -> list[str]:
    info = pdf.docinfo
    bad = []
    if not str(info.get("/Title", "")).strip():
        bad.append("Info /Title missing or empty")
    for key in ("/CreationDate", "/ModDate"):
        if not PDF_DATE.match(str(info.get(key, ""))):
            bad.append(f"Info {key} missing or not a PDF date")
    if info.get("/Trapped") not in (pikepdf.Name("/True"), pikepdf.Name("/False")):
        bad.append("Info /Trapped must be /True or /False")
    expected = {"x4": ("PDF/X-4", None), "x1a": ("PDF/X-1:2003", "PDF/X-1a:2003")}[flavour]
    if str(info.get("/GTS_PDFXVersion", "")) != expected[0]:
        bad.append(f"Info /GTS_PDFXVersion is not {expected[0]}")
    if expected[1] is not None and str(info.get("/GTS_PDFXConformance", "")) != expected[1]:
        bad.append(f"Info /GTS_PDFXConformance is not {expected[1]}")
    return bad


def xmp_values(pdf: pikepdf.Pdf) -> dict[str, str]:
    """Every simple XMP property as ``prefix:name`` -> text (dc:title's x-default too)."""
    import xml.etree.ElementTree as ET

    meta = pdf.Root.get("/Metadata")
    assert isinstance(meta, pikepdf.Stream)
    root = ET.fromstring(meta.read_bytes())
    prefixes = {uri: prefix for prefix, uri in NS.items()}
    out: dict[str, str] = {}
    for desc in root.iter(f"{{{NS['rdf']}}}Description"):
        for child in desc:
            uri, _, name = child.tag[1:].partition("}")
            key = f"{prefixes.get(uri, uri)}:{name}"
            li = child.find(f".//{{{NS['rdf']}}}li")
            out[key] = (li.text if li is not None else child.text) or ""
    return out


def check_metadata(pdf: pikepdf.Pdf, flavour: str) -> list[str]:
    meta = pdf.Root.get("/Metadata")
    if not isinstance(meta, pikepdf.Stream):
        return ["no XMP /Metadata stream in the catalogue"]
    bad = []
    if meta.get("/Type") != "/Metadata" or meta.get("/Subtype") != "/XML":
        bad.append("the metadata stream is not /Type /Metadata /Subtype /XML")
    xmp = xmp_values(pdf)
    info = pdf.docinfo
    if xmp.get("dc:title") != str(info.get("/Title", "")):
        bad.append("XMP dc:title differs from Info /Title")
    for prop, key in (("xmp:CreateDate", "/CreationDate"), ("xmp:ModifyDate", "/ModDate")):
        if xmp.get(prop) != _xmp_date(str(info.get(key, ""))):
            bad.append(f"XMP {prop} differs from Info {key}")
    if xmp.get("pdf:Trapped") != str(info.get("/Trapped", ""))[1:]:
        bad.append("XMP pdf:Trapped differs from Info /Trapped")
    if flavour == "x4":
        if xmp.get("pdfxid:GTS_PDFXVersion") != "PDF/X-4":
            bad.append("XMP pdfxid:GTS_PDFXVersion is not PDF/X-4")
        for prop in ("xmpMM:DocumentID", "xmpMM:VersionID", "xmpMM:RenditionClass"):
            if not xmp.get(prop):
                bad.append(f"XMP {prop} missing")
    else:
        if xmp.get("pdfx:GTS_PDFXVersion") != "PDF/X-1:2003":
            bad.append("XMP pdfx:GTS_PDFXVersion is not PDF/X-1:2003")
        if xmp.get("pdfx:GTS_PDFXConformance") != "PDF/X-1a:2003":
            bad.append("XMP pdfx:GTS_PDFXConformance is not PDF/X-1a:2003")
    return bad


def check_output_intent(pdf: pikepdf.Pdf, flavour: str) -> list[str]:
    intents = [i for i in pdf.Root.get("/OutputIntents", []) if i.get("/S") == "/GTS_PDFX"]
    if len(intents) != 1:
        return [f"{len(intents)} GTS_PDFX output intents, need exactly one"]
    intent = intents[0]
    bad = []
    if not str(intent.get("/OutputConditionIdentifier", "")).strip():
        bad.append("output intent without OutputConditionIdentifier")
    profile = intent.get("/DestOutputProfile")
    if not isinstance(profile, pikepdf.Stream):
        return [*bad, "output intent without an embedded DestOutputProfile"]
    data = profile.read_bytes()
    if data[12:16] != b"prtr" or data[16:20] != b"CMYK" or int(profile.get("/N", 0)) != 4:
        bad.append("DestOutputProfile is not a CMYK output (prtr) profile with /N 4")
    if flavour == "x1a" and data[8] != 2:
        bad.append(f"PDF/X-1a:2003 needs an ICC version 2 profile, not {data[8]}")
    return bad


def _box(page: pikepdf.Page, key: str) -> tuple[float, ...] | None:
    value = page.obj.get(key)
    if value is None:
        return None
    x0, y0, x1, y1 = (float(v) for v in value)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _inside(inner: tuple[float, ...], outer: tuple[float, ...], tol: float = 0.01) -> bool:
    return (
        inner[0] >= outer[0] - tol
        and inner[1] >= outer[1] - tol
        and inner[2] <= outer[2] + tol
        and inner[3] <= outer[3] + tol
    )


def check_boxes(pdf: pikepdf.Pdf) -> list[str]:
    bad = []
    for number, page in enumerate(pdf.pages, start=1):
        media, trim = _box(page, "/MediaBox"), _box(page, "/TrimBox")
        art, bleed = _box(page, "/ArtBox"), _box(page, "/BleedBox")
        if media is None:
            bad.append(f"page {number}: no MediaBox")
            continue
        if (trim is None) == (art is None):
            bad.append(f"page {number}: needs a TrimBox or an ArtBox (one of them)")
        if bleed is not None and not _inside(bleed, media):
            bad.append(f"page {number}: BleedBox outside the MediaBox")
        if bleed is not None and trim is not None and not _inside(trim, bleed):
            bad.append(f"page {number}: TrimBox outside the BleedBox")
    return bad


def _dicts(pdf: pikepdf.Pdf) -> list[pikepdf.Dictionary | pikepdf.Stream]:
    return [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary | pikepdf.Stream)]


def check_fonts(pdf: pikepdf.Pdf) -> list[str]:
    bad = []
    for obj in _dicts(pdf):
        if obj.get("/Type") != "/Font" or obj.get("/Subtype") in ("/Type3", "/Type0"):
            continue
        desc = obj.get("/FontDescriptor")
        if desc is None or not any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
            bad.append(f"font {obj.get('/BaseFont')} is not embedded")
    return bad


def _space_is_rgb_like(space: pikepdf.Object | None) -> bool:
    if isinstance(space, pikepdf.Name):
        return str(space) in RGB_NAMES
    if isinstance(space, pikepdf.Array) and len(space) > 0:
        kind = str(space[0])
        if kind in RGB_NAMES or kind == "/ICCBased":
            return True
        if kind == "/Indexed" and len(space) > 1:
            return _space_is_rgb_like(space[1])
    return False


def check_colour_x1a(pdf: pikepdf.Pdf) -> list[str]:
    bad: set[str] = set()
    for obj in _dicts(pdf):
        if _space_is_rgb_like(obj.get("/ColorSpace")):
            bad.add(f"an object ({obj.get('/Subtype') or obj.get('/ShadingType')}) in RGB/ICC")
        if _space_is_rgb_like(obj.get("/CS")):
            bad.add("a group or inline image in RGB/ICC")
        spaces = obj.get("/ColorSpace")
        if isinstance(spaces, pikepdf.Dictionary):
            bad.update(
                f"resource colour space {k}" for k, v in spaces.items() if _space_is_rgb_like(v)
            )
        if isinstance(obj, pikepdf.Stream) and (
            obj.get("/Subtype") == "/Form" or obj.get("/Type") == "/Page"
        ):
            for instruction in pikepdf.parse_content_stream(obj):
                if str(instruction.operator) in ("rg", "RG"):
                    bad.add("rg/RG colour operators")
    for page in pdf.pages:
        for instruction in pikepdf.parse_content_stream(page):
            if str(instruction.operator) in ("rg", "RG"):
                bad.add("rg/RG colour operators on a page")
    return sorted(bad)


def check_transparency_x1a(pdf: pikepdf.Pdf) -> list[str]:
    bad: set[str] = set()
    for obj in _dicts(pdf):
        smask = obj.get("/SMask")
        if smask is not None and smask != pikepdf.Name("/None"):
            bad.add(f"a soft mask on {obj.get('/Subtype') or obj.get('/Type')}")
        if obj.get("/Type") == "/ExtGState":
            if any(float(obj.get(k, 1)) < 1 for k in ("/CA", "/ca")):
                bad.add("constant alpha below 1")
            if str(obj.get("/BM", "/Normal")) not in ("/Normal", "/Compatible"):
                bad.add("a blend mode")
        group = obj.get("/Group")
        if isinstance(group, pikepdf.Dictionary) and group.get("/S") == "/Transparency":
            bad.add("a transparency group")
    return sorted(bad)


def check_actions(pdf: pikepdf.Pdf) -> list[str]:
    bad = []
    if "/AA" in pdf.Root or "/JavaScript" in pdf.Root.get("/Names", {}):
        bad.append("document actions or JavaScript")
    for number, page in enumerate(pdf.pages, start=1):
        bleed = _box(page, "/BleedBox") or _box(page, "/MediaBox")
        for annot in page.obj.get("/Annots", []):
            if annot.get("/Subtype") in ("/PrinterMark", "/TrapNet"):
                continue
            rect = tuple(float(v) for v in annot.Rect)
            if bleed is not None and not (
                rect[2] < bleed[0] or rect[0] > bleed[2] or rect[3] < bleed[1] or rect[1] > bleed[3]
            ):
                bad.append(f"page {number}: an annotation inside the BleedBox")
    return bad


def check_forbidden(pdf: pikepdf.Pdf, flavour: str) -> list[str]:
    bad: set[str] = set()
    for obj in _dicts(pdf):
        if obj.get("/Subtype") == "/PS" or ("/PS" in obj and obj.get("/Subtype") == "/Form"):
            bad.add("a PostScript XObject")
        if "/OPI" in obj:
            bad.add("OPI comments")
        if obj.get("/Type") == "/ExtGState":
            for key in ("/TR", "/TR2"):
                if key in obj and obj[key] != pikepdf.Name("/Default"):
                    bad.add(f"a transfer function ({key})")
        if flavour != "x1a":
            continue
        for value in list(obj.values()):
            if (
                isinstance(value, pikepdf.Array)
                and len(value) >= 3
                and str(value[0]) in ("/Separation", "/DeviceN")
                and _space_is_rgb_like(value[2])
            ):
                bad.add(f"a {value[0]} colour with an RGB alternate")
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
            mask = obj.get("/Mask")
            if isinstance(mask, pikepdf.Stream) and not (
                bool(mask.get("/ImageMask", False)) and int(mask.get("/BitsPerComponent", 1)) == 1
            ):
                bad.add("an image /Mask that is not a 1-bit stencil")
            if "/SMaskInData" in obj and int(obj.SMaskInData) != 0:
                bad.add("a JPEG 2000 image with its own transparency")
    return sorted(bad)


def pdfx_problems(path: Path, flavour: str) -> list[str]:
    """Every requirement the file breaks (empty: conforms to what is checked here)."""
    raw = path.read_bytes()
    with pikepdf.open(path) as pdf:
        problems = (
            check_version(raw, pdf, flavour)
            + check_structure(pdf)
            + check_info(pdf, flavour)
            + check_metadata(pdf, flavour)
            + check_output_intent(pdf, flavour)
            + check_boxes(pdf)
            + check_fonts(pdf)
            + check_actions(pdf)
            + check_forbidden(pdf, flavour)
        )
        if flavour == "x1a":
            problems += check_colour_x1a(pdf) + check_transparency_x1a(pdf)
    return problems
