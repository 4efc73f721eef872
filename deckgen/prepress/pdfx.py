"""PDF/X-4 and PDF/X-1a:2003: what each standard requires, added to a finished CMYK PDF.

Takes a :class:`pikepdf.Pdf` whose colours are already CMYK
(:func:`deckgen.prepress.cmyk.convert_document`) and a flavour; :func:`make_pdfx`
adds, one small function per requirement (shaped like WeasyPrint's ``pdf/pdfx.py``):

- :func:`set_output_intent`: the ``GTS_PDFX`` OutputIntent with the FOGRA39 profile
  deckgen ships, embedded as ``DestOutputProfile``;
- :func:`set_info`: ``Title``, ``CreationDate``, ``ModDate``, ``Trapped /False``,
  ``GTS_PDFXVersion`` (and for X-1a ``GTS_PDFXConformance``) in the Info dictionary;
- :func:`set_xmp`: an XMP metadata stream that says the same (``dc:title``,
  ``xmp:CreateDate``/``ModifyDate``/``MetadataDate``, ``pdf:Trapped``, ``xmpMM:DocumentID``/
  ``VersionID``/``RenditionClass``) plus the identification: ``pdfxid:GTS_PDFXVersion
  PDF/X-4`` for X-4, ``pdfx:GTS_PDFXVersion``/``GTS_PDFXConformance`` for X-1a:2003;
- :func:`set_boxes`: a TrimBox and a BleedBox on every page, nested in the MediaBox;
- :func:`drop_annotations`: annotations are allowed only outside the BleedBox or as
  printer's marks, so links (a booklet's table of contents) are removed; paper has none;
- :func:`flatten_transparency` (X-1a only, which forbids transparency): every image
  with a soft mask is replaced, where it is drawn, by the CMYK pixels Ghostscript
  renders there (the image composited over what lies under it); transparency groups
  are removed. Anything else transparent is an error, never left silently;
- the file version: :func:`deckgen.prepress.pdfout.save_pdf` writes an X-1a file as
  PDF 1.4 without object streams (X-1a:2003 allows 1.3 and 1.4) and an X-4 file as at
  most PDF 1.6.

The booklet's print edition uses the same functions on WeasyPrint's output: convert it
with ``convert_document``, then ``make_pdfx(pdf, "x4", title=...)`` and ``save_pdf``.
Conformance is checked in the tests by independent pikepdf checks of each clause and by
Ghostscript reading the files with ``-dPDFSTOPONERROR``.
"""

from __future__ import annotations

import tempfile
import uuid
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from deckgen.errors import InputError

if TYPE_CHECKING:
    import pikepdf
    from PIL import Image

Flavour = Literal["x4", "x1a"]


@dataclass(frozen=True)
class PdfxVariant:
    """One PDF/X flavour's identification and limits."""

    name: str
    version: str
    """The value of ``GTS_PDFXVersion``."""
    conformance: str | None
    """The value of ``GTS_PDFXConformance`` (X-1a only)."""
    pdf_version: str
    """The PDF version the file is written as (the highest the standard allows us)."""
    transparency: bool
    object_streams: bool


VARIANTS: dict[str, PdfxVariant] = {
    "x4": PdfxVariant("PDF/X-4", "PDF/X-4", None, "1.6", True, True),
    "x1a": PdfxVariant("PDF/X-1a:2003", "PDF/X-1:2003", "PDF/X-1a:2003", "1.4", False, False),
}
"""Flavours by the name vendor profiles use (``pdfx = "x4"`` or ``"x1a"``)."""

FLATTEN_DPI = 300
"""Least resolution of a flattened picture (more if the picture had more)."""
MAX_FLATTEN_DPI = 600
DEFAULT_DATE = "D:20000101000000+00'00'"
"""Creation date when a document has none (reportlab's ``invariant`` date)."""


def variant_for(flavour: str) -> PdfxVariant:
    """The variant named ``x4`` or ``x1a``."""
    try:
        return VARIANTS[flavour]
    except KeyError:
        raise InputError(
            f"'{flavour}' is not a PDF/X flavour deckgen writes", fix="use x4 or x1a"
        ) from None


def xmp_date(pdf_date: str) -> str:
    """``D:20240102030405+01'00'`` -> ``2024-01-02T03:04:05+01:00`` (XMP's date form).

    >>> xmp_date("D:20000101000000+00'00'")
    '2000-01-01T00:00:00+00:00'
    >>> xmp_date("D:20240102030405Z")
    '2024-01-02T03:04:05Z'
    """
    text = pdf_date[2:] if pdf_date.startswith("D:") else pdf_date
    digits = (text + "00000000000000")[:14] if len(text) < 14 else text[:14]
    y, mo, d, h, mi, s = (
        digits[0:4],
        digits[4:6] or "01",
        digits[6:8] or "01",
        digits[8:10],
        digits[10:12],
        digits[12:14],
    )
    rest = text[14:].replace("'", "")
    if rest.startswith(("+", "-")) and len(rest) >= 5:
        zone = f"{rest[0]}{rest[1:3]}:{rest[3:5]}"
    elif rest.startswith(("+", "-")) and len(rest) >= 3:
        zone = f"{rest[0]}{rest[1:3]}:00"
    else:
        zone = "Z"
    return f"{y}-{mo}-{d}T{h}:{mi}:{s}{zone}"


def _info_text(pdf: pikepdf.Pdf, key: str, default: str = "") -> str:
    value = pdf.docinfo.get(key)
    return str(value) if value is not None else default


def set_output_intent(pdf: pikepdf.Pdf, profile: Path | None = None) -> None:
    """The GTS_PDFX OutputIntent (ISO 15930, 6.2.4): with ``profile``, or the one the
    CMYK conversion embedded, or the shipped FOGRA39 profile."""
    from deckgen.prepress.iccprofile import add_output_intent

    if profile is None:
        intents = pdf.Root.get("/OutputIntents")
        if intents is not None and any(
            i.get("/S") == "/GTS_PDFX" and "/DestOutputProfile" in i for i in intents
        ):
            return
    add_output_intent(pdf, profile)


def set_info(
    pdf: pikepdf.Pdf, variant: PdfxVariant | None, *, title: str, created: str | None = None
) -> None:
    """The Info dictionary keys PDF/X requires (ISO 15930-4 and -7, 6.7.x): ``title``
    unless the document has one, ``created`` (a PDF date) as both dates when given."""
    import pikepdf

    info = pdf.docinfo
    info[pikepdf.Name.Title] = pikepdf.String(_info_text(pdf, "/Title") or title)
    if created is None:
        created = _info_text(pdf, "/CreationDate", DEFAULT_DATE)
        modified = _info_text(pdf, "/ModDate", created)
    else:
        modified = created
    info[pikepdf.Name.CreationDate] = pikepdf.String(created)
    info[pikepdf.Name.ModDate] = pikepdf.String(modified)
    info[pikepdf.Name.Trapped] = pikepdf.Name("/False")
    if variant is None:
        return
    info[pikepdf.Name.GTS_PDFXVersion] = pikepdf.String(variant.version)
    if variant.conformance is not None:
        info[pikepdf.Name.GTS_PDFXConformance] = pikepdf.String(variant.conformance)
    elif "/GTS_PDFXConformance" in info:
        del info["/GTS_PDFXConformance"]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def content_digest(pdf: pikepdf.Pdf) -> str:
    """A digest of what the pages draw: their boxes and every stream they reach (content,
    forms, pictures, fonts), in page order. Two files that print the same give the same
    digest; it does not depend on object numbers or on the metadata."""
    import hashlib

    import pikepdf

    digest = hashlib.sha256()
    seen: set[tuple[int, int]] = set()

    def visit(obj: Any, depth: int) -> None:
        if depth > 12:
            return
        if not isinstance(obj, pikepdf.Object):
            digest.update(repr(obj).encode())
            return
        if obj.is_indirect:
            if obj.objgen in seen:
                digest.update(b"@%d" % len(seen))
                return
            seen.add(obj.objgen)
        if isinstance(obj, pikepdf.Stream):
            digest.update(obj.read_raw_bytes())
        if isinstance(obj, pikepdf.Dictionary | pikepdf.Stream):
            for key in sorted(obj.keys()):
                if key in ("/Parent", "/Metadata", "/Length"):
                    continue
                digest.update(key.encode())
                visit(obj[key], depth + 1)
        elif isinstance(obj, pikepdf.Array):
            for item in obj:
                visit(item, depth + 1)
        else:
            digest.update(repr(obj).encode())

    for page in pdf.pages:
        digest.update(b"page")
        for key in ("/MediaBox", "/TrimBox", "/BleedBox"):
            digest.update(repr([float(v) for v in page.obj.get(key, [])]).encode())
        visit(page.obj.get("/Contents", pikepdf.Array()), 0)
        visit(page.obj.get("/Resources", pikepdf.Dictionary()), 0)
    return digest.hexdigest()


def xmp_ids(pdf: pikepdf.Pdf, file_name: str, flavour: str) -> tuple[str, str]:
    """``(DocumentID, InstanceID)`` of a file: derived from its name, what its pages draw
    and its flavour, so that each file has its own and the same inputs give the same."""
    digest = content_digest(pdf)
    document = uuid.uuid5(uuid.NAMESPACE_URL, f"deckgen:document:{file_name}:{digest}")
    instance = uuid.uuid5(uuid.NAMESPACE_URL, f"deckgen:instance:{file_name}:{digest}:{flavour}")
    return f"uuid:{document}", f"uuid:{instance}"


def xmp_packet(pdf: pikepdf.Pdf, variant: PdfxVariant | None, *, file_name: str = "") -> bytes:
    """The XMP metadata for ``pdf`` (read from its Info dictionary, set first); the
    PDF/X identification only for a ``variant``."""
    title = _escape(_info_text(pdf, "/Title"))
    created = xmp_date(_info_text(pdf, "/CreationDate", DEFAULT_DATE))
    modified = xmp_date(_info_text(pdf, "/ModDate", DEFAULT_DATE))
    producer = _escape(_info_text(pdf, "/Producer", "deckgen"))
    creator_tool = _escape(_info_text(pdf, "/Creator", "deckgen"))
    author = _escape(_info_text(pdf, "/Author"))
    subject = _escape(_info_text(pdf, "/Subject"))
    keywords = _escape(_info_text(pdf, "/Keywords"))
    document_id, instance_id = xmp_ids(
        pdf, file_name or title, variant.name if variant is not None else "pdf"
    )
    if variant is None:
        ident = ""
    elif variant.conformance is None:
        ident = f"<pdfxid:GTS_PDFXVersion>{variant.version}</pdfxid:GTS_PDFXVersion>"
    else:
        ident = (
            f"<pdfx:GTS_PDFXVersion>{variant.version}</pdfx:GTS_PDFXVersion>\n"
            f"   <pdfx:GTS_PDFXConformance>{variant.conformance}</pdfx:GTS_PDFXConformance>"
        )
    optional = ""
    if author:
        optional += f"   <dc:creator><rdf:Seq><rdf:li>{author}</rdf:li></rdf:Seq></dc:creator>\n"
    if subject:
        optional += (
            "   <dc:description><rdf:Alt>"
            f'<rdf:li xml:lang="x-default">{subject}</rdf:li></rdf:Alt></dc:description>\n'
        )
    if keywords:
        optional += f"   <pdf:Keywords>{keywords}</pdf:Keywords>\n"
    text = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>
{optional}   <xmp:CreateDate>{created}</xmp:CreateDate>
   <xmp:ModifyDate>{modified}</xmp:ModifyDate>
   <xmp:MetadataDate>{modified}</xmp:MetadataDate>
   <xmp:CreatorTool>{creator_tool}</xmp:CreatorTool>
   <pdf:Producer>{producer}</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <xmpMM:DocumentID>{document_id}</xmpMM:DocumentID>
   <xmpMM:InstanceID>{instance_id}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   {ident}
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
    return text.encode("utf-8")


def set_xmp(pdf: pikepdf.Pdf, variant: PdfxVariant | None, *, file_name: str = "") -> None:
    """The XMP metadata stream (``Root /Metadata``, uncompressed as PDF/X asks)."""
    import pikepdf

    stream = pdf.make_stream(xmp_packet(pdf, variant, file_name=file_name))
    stream.Type = pikepdf.Name.Metadata
    stream.Subtype = pikepdf.Name.XML
    pdf.Root.Metadata = stream


def set_boxes(pdf: pikepdf.Pdf) -> None:
    """Every page gets a TrimBox and a BleedBox (the MediaBox where missing), nested."""
    import pikepdf

    for page in pdf.pages:
        media = [float(v) for v in page.obj.MediaBox]
        for key in ("/BleedBox", "/TrimBox"):
            if key not in page.obj:
                page.obj[key] = pikepdf.Array(media)
        if "/ArtBox" in page.obj:
            del page.obj["/ArtBox"]  # PDF/X: a TrimBox or an ArtBox, not both


def drop_annotations(pdf: pikepdf.Pdf) -> int:
    """Remove every annotation that reaches into its page's BleedBox and is no printer's
    mark or trap network (ISO 15930, 6.3.1); gives how many were removed."""
    import pikepdf

    removed = 0
    for page in pdf.pages:
        annots = page.obj.get("/Annots")
        if not isinstance(annots, pikepdf.Array):
            continue
        box = page.obj.get("/BleedBox", page.obj.MediaBox)
        bx0, by0, bx1, by1 = (float(v) for v in box)
        kept = []
        for annot in annots:
            rect = annot.get("/Rect")
            if annot.get("/Subtype") in (pikepdf.Name.PrinterMark, pikepdf.Name.TrapNet) or (
                isinstance(rect, pikepdf.Array)
                and (
                    float(rect[2]) < bx0
                    or float(rect[0]) > bx1
                    or float(rect[3]) < by0
                    or float(rect[1]) > by1
                )
            ):
                kept.append(annot)
            else:
                removed += 1
        if kept:
            page.obj.Annots = pikepdf.Array(kept)
        else:
            del page.obj["/Annots"]
    return removed


# --- flattening (X-1a) -------------------------------------------------------------

Matrix = tuple[float, float, float, float, float, float]


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (PDF row-vector convention: m x n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + b * c2,
        a * b2 + b * d2,
        c * a2 + d * c2,
        c * b2 + d * d2,
        e * a2 + f * c2 + e2,
        e * b2 + f * d2 + f2,
    )


def _has_soft_mask(image: Any) -> bool:
    import pikepdf

    smask = image.get("/SMask")
    return smask is not None and not (isinstance(smask, pikepdf.Name) and smask == "/None")


def _needs_flattening(xobject: Any, depth: int = 0) -> bool:
    """Whether a form or image (or a form it draws) has a soft-masked image."""
    import pikepdf

    if depth > 8:
        return False
    if xobject.get("/Subtype") == pikepdf.Name.Image:
        return _has_soft_mask(xobject)
    resources = xobject.get("/Resources")
    xobjects = resources.get("/XObject") if resources is not None else None
    if xobjects is None:
        return False
    return any(_needs_flattening(xobjects[k], depth + 1) for k in xobjects.keys())  # noqa: SIM118


@dataclass
class _Placement:
    resources: Any
    name: str
    ctm: Matrix
    image: Any


def _private_resources(pdf: pikepdf.Pdf, resources: Any) -> Any:
    """A copy of a resource dictionary (and its XObject dictionary) to change freely."""
    import pikepdf

    copy = pikepdf.Dictionary({k: resources[k] for k in resources.keys()})  # noqa: SIM118
    if "/XObject" in copy:
        xobjects = copy.XObject
        copy.XObject = pikepdf.Dictionary({k: xobjects[k] for k in xobjects.keys()})  # noqa: SIM118
    return copy


def _walk(
    pdf: pikepdf.Pdf, owner: Any, resources: Any, ctm: Matrix, found: list[_Placement]
) -> tuple[bytes, Any]:
    """Rewrite ``owner``'s content so that every soft-masked image it (or a form in it)
    draws has a name of its own; gives the new content and resources."""
    import pikepdf

    resources = _private_resources(pdf, resources)
    xobjects = resources.get("/XObject")
    instructions: list[Any] = list(pikepdf.parse_content_stream(owner))
    stack = [ctm]
    out: list[Any] = []
    for operands, operator in instructions:
        op = str(operator)
        if op == "q":
            stack.append(stack[-1])
        elif op == "Q" and len(stack) > 1:
            stack.pop()
        elif op == "cm" and len(operands) == 6:
            m = tuple(float(v) for v in operands)
            stack[-1] = _mul(m, stack[-1])  # type: ignore[arg-type]
        elif op == "Do" and xobjects is not None and str(operands[0]) in xobjects:
            target = xobjects[str(operands[0])]
            if _needs_flattening(target):
                name = f"/DgFlat{len(found)}x{len(out)}"
                if target.get("/Subtype") == pikepdf.Name.Image:
                    xobjects[name] = target
                    found.append(_Placement(resources, name, stack[-1], target))
                else:
                    matrix = tuple(float(v) for v in target.get("/Matrix", [1, 0, 0, 1, 0, 0]))
                    data, inner = _walk(
                        pdf,
                        target,
                        target.get("/Resources", pikepdf.Dictionary()),
                        _mul(matrix, stack[-1]),  # type: ignore[arg-type]
                        found,
                    )
                    copy = pdf.make_stream(data)
                    for key in target.keys():  # noqa: SIM118
                        if key not in ("/Length", "/Filter", "/DecodeParms", "/Resources"):
                            copy[key] = target[key]
                    copy.Resources = inner
                    xobjects[name] = copy
                out.append(([pikepdf.Name(name)], operator))
                continue
        out.append((operands, operator))
    if xobjects is not None:
        used = {str(ops[0]) for ops, op in out if str(op) == "Do" and ops}
        for key in list(xobjects.keys()):
            if key not in used and _needs_flattening(xobjects[key]):
                del xobjects[key]  # drawn only through its private copies now
    return pikepdf.unparse_content_stream(out), resources


def _render_cmyk(pdf: pikepdf.Pdf, page_number: int, dpi: int) -> Image.Image:
    """Page ``page_number`` (1-based) rendered by Ghostscript as a CMYK image."""
    from deckgen.prepress.ghostscript import render_cmyk

    with tempfile.TemporaryDirectory(prefix="deckgen-flatten-") as tmp:
        source = Path(tmp) / "in.pdf"
        pdf.save(source)
        pages = render_cmyk(
            source, dpi=dpi, purpose="flatten transparency for PDF/X-1a",
            fix="install it (scripts/sysdeps.sh does) or choose a PDF/X-4 vendor",
            first_page=page_number, last_page=page_number, media_box=True, timeout=300,
        )  # fmt: skip
    return pages[0]


def _image_dpi(placement: _Placement) -> int:
    a, b, c, d, _, _ = placement.ctm
    width_in = max((a * a + b * b) ** 0.5, 1e-6) / 72
    height_in = max((c * c + d * d) ** 0.5, 1e-6) / 72
    px = max(int(placement.image.Width) / width_in, int(placement.image.Height) / height_in)
    return int(min(max(FLATTEN_DPI, px), MAX_FLATTEN_DPI))


def _flattened_image(
    pdf: pikepdf.Pdf, page: Image.Image, placement: _Placement, media: list[float], dpi: int
) -> Any:
    """The rendered pixels under ``placement``'s unit square, as a CMYK image XObject."""
    import pikepdf
    from PIL import Image

    a, b, c, d, e, f = placement.ctm
    if abs(b) > 1e-6 or abs(c) > 1e-6 or a == 0 or d == 0:
        raise InputError(
            "a picture with transparency is drawn turned by 90 degrees or skewed, which "
            "deckgen cannot flatten for PDF/X-1a",
            fix="use a picture without an alpha channel, or a PDF/X-4 vendor",
        )
    scale = dpi / 72
    left, right = sorted((e, e + a))
    bottom_pt, top_pt = sorted((f, f + d))
    x0, x1 = (left - media[0]) * scale, (right - media[0]) * scale
    top, bottom = (media[3] - top_pt) * scale, (media[3] - bottom_pt) * scale
    width = max(1, round(x1 - x0))
    height = max(1, round(bottom - top))
    pixels = page.resize((width, height), box=(x0, top, x1, bottom))
    # the image is drawn through the same matrix: undo its mirroring (a turn by 180
    # degrees is both), so that the pixels land where they were rendered
    if a < 0:
        pixels = pixels.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    if d < 0:
        pixels = pixels.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    stream = pdf.make_stream(zlib.compress(pixels.tobytes(), 6))
    stream.Type = pikepdf.Name.XObject
    stream.Subtype = pikepdf.Name.Image
    stream.Width = width
    stream.Height = height
    stream.ColorSpace = pikepdf.Name.DeviceCMYK
    stream.BitsPerComponent = 8
    stream.Filter = pikepdf.Name.FlateDecode
    stencil = _stencil(pdf, placement.image, width, height)
    if stencil is not None:
        stream.Mask = stencil
    return stream


def _stencil(pdf: pikepdf.Pdf, image: Any, width: int, height: int) -> Any:
    """A 1-bit explicit mask (PDF 1.3, allowed in PDF/X-1a) that leaves out every pixel
    where the picture's soft mask is fully transparent: there the page beneath stays
    what it was (vectors stay vectors), so the flattened box leaves no seam; only where
    the picture shows are the rendered pixels drawn. ``None`` if nothing is clear."""
    import pikepdf
    from PIL import Image

    smask = image.get("/SMask")
    try:
        alpha = pikepdf.PdfImage(smask).as_pil_image().convert("L")
    except (pikepdf.PdfError, NotImplementedError, ValueError):
        return None
    # BOX keeps any pixel the picture touches at all (partly covered pixels are drawn:
    # the rendering holds the picture over what lies beneath)
    covered = alpha.resize((width, height), Image.Resampling.BOX)
    lowest = covered.getextrema()[0]
    if isinstance(lowest, int | float) and lowest > 0:
        return None  # opaque everywhere: no mask needed
    clear = covered.point(lambda v: 255 if v == 0 else 0).convert("1")
    mask = pdf.make_stream(zlib.compress(clear.tobytes(), 9))
    mask.Type = pikepdf.Name.XObject
    mask.Subtype = pikepdf.Name.Image
    mask.Width = width
    mask.Height = height
    mask.ImageMask = True
    mask.BitsPerComponent = 1
    mask.Decode = pikepdf.Array([0, 1])
    mask.Filter = pikepdf.Name.FlateDecode
    return pdf.make_indirect(mask)


def _drop_groups(pdf: pikepdf.Pdf) -> None:
    import pikepdf

    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary | pikepdf.Stream) and "/Group" in obj:
            group = obj.Group
            if isinstance(group, pikepdf.Dictionary) and group.get("/S") == "/Transparency":
                del obj["/Group"]


def _check_graphics_states(pdf: pikepdf.Pdf) -> None:
    import pikepdf

    for obj in pdf.objects:
        if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Type") != "/ExtGState":
            continue
        smask = obj.get("/SMask")
        opaque = all(float(obj.get(k, 1)) == 1.0 for k in ("/CA", "/ca"))
        blend = str(obj.get("/BM", "/Normal")) in ("/Normal", "/Compatible")
        if not opaque or not blend or (smask is not None and smask != "/None"):
            raise InputError(
                "the PDF uses transparency (opacity, a blend mode or a soft mask) that "
                "deckgen cannot flatten for PDF/X-1a",
                fix="choose a PDF/X-4 vendor profile",
            )


def flatten_transparency(pdf: pikepdf.Pdf) -> int:
    """Flatten every soft-masked image (and drop transparency groups); gives how many.

    Each place a soft-masked image is drawn gets an opaque CMYK image of its own: the
    page as Ghostscript renders it there (the picture over what lies beneath), at the
    picture's own resolution (at least 300 dpi). Content drawn on top of the picture is
    still drawn on top, as vectors.
    """
    flattened = 0
    for number, page in enumerate(pdf.pages, start=1):
        resources = page.obj.get("/Resources")
        if resources is None or not any(
            _needs_flattening(x) for x in (resources.get("/XObject") or {}).values()
        ):
            continue
        found: list[_Placement] = []
        data, new_resources = _walk(pdf, page, resources, (1, 0, 0, 1, 0, 0), found)
        page.obj.Contents = pdf.make_stream(data)
        page.obj.Resources = new_resources
        dpi = max(_image_dpi(p) for p in found)
        rendered = _render_cmyk(pdf, number, dpi)
        media = [float(v) for v in page.obj.MediaBox]
        for placement in found:
            placement.resources.XObject[placement.name] = _flattened_image(
                pdf, rendered, placement, media, dpi
            )
            flattened += 1
    _drop_groups(pdf)
    _check_graphics_states(pdf)
    return flattened


def make_pdfx(
    pdf: pikepdf.Pdf,
    flavour: Flavour | str,
    *,
    title: str = "deckgen",
    file_name: str = "",
    created: str | None = None,
    profile: Path | None = None,
) -> PdfxVariant:
    """Make ``pdf`` (already CMYK) a PDF/X file of ``flavour``; save it with
    :func:`deckgen.prepress.pdfout.save_pdf`, which writes the version the flavour needs.

    ``file_name`` (the name it is saved as) goes into its XMP document and instance
    IDs; ``created`` (a PDF date) replaces its creation and modification dates;
    ``profile`` is the output intent's (default: the one it has, else FOGRA39)."""
    variant = variant_for(flavour)
    if not variant.transparency:
        flatten_transparency(pdf)
    set_boxes(pdf)
    drop_annotations(pdf)
    set_output_intent(pdf, profile)
    set_info(pdf, variant, title=title, created=created)
    set_xmp(pdf, variant, file_name=file_name)
    return variant


def set_metadata(
    pdf: pikepdf.Pdf, *, title: str, file_name: str, created: str | None = None
) -> None:
    """Title, dates and XMP (with its own IDs) for a file that is not PDF/X."""
    if "/Title" in pdf.docinfo:
        del pdf.docinfo["/Title"]
    set_info(pdf, None, title=title, created=created)
    for key in ("/GTS_PDFXVersion", "/GTS_PDFXConformance"):
        if key in pdf.docinfo:
            del pdf.docinfo[key]
    if pdf.docinfo.get("/Trapped") is not None and "/OutputIntents" not in pdf.Root:
        del pdf.docinfo["/Trapped"]
    set_xmp(pdf, None, file_name=file_name)


def pdfx_variant_of(pdf: pikepdf.Pdf) -> PdfxVariant | None:
    """The flavour a document was made as (from its Info dictionary), if any."""
    version = _info_text(pdf, "/GTS_PDFXVersion")
    conformance = _info_text(pdf, "/GTS_PDFXConformance")
    for variant in VARIANTS.values():
        if variant.version == version and (variant.conformance or "") == conformance:
            return variant
    return None
