"""HTML -> PDF with WeasyPrint, through the booklet's own URL fetcher.

Takes the HTML of a booklet and the resources it may load; gives PDF bytes (tagged,
PDF/UA-1, fonts embedded and subset, pictures limited to ``dpi``). WeasyPrint is
imported here, so import this module only when a booklet is made.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from pathlib import Path

from deckgen.errors import ResourceError
from deckgen.resources import templates_dir

PDF_VARIANT = "pdf/ua-1"
DEFAULT_DPI = 300
JPEG_QUALITY = 85


def render_pdf(
    html: str,
    *,
    allowed_files: Iterable[Path] = (),
    generated: Mapping[str, tuple[bytes, str]] | None = None,
    dpi: int = DEFAULT_DPI,
    tagged: bool = True,
) -> bytes:
    """Lay out ``html`` and return the PDF bytes.

    Only our templates, ``allowed_files`` and ``generated`` pictures (name -> (bytes,
    MIME type)) can be loaded; any other URL stops the run with a ResourceError.
    """
    import weasyprint

    from deckgen.booklet.fetcher import BookletFetcher

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    booklet_dir = templates_dir() / "booklet"
    fetcher = BookletFetcher(
        template_dirs=[booklet_dir], allowed_files=allowed_files, generated=generated
    )
    document = weasyprint.HTML(
        string=html, base_url=booklet_dir.as_uri() + "/", url_fetcher=fetcher
    )
    options: dict[str, object] = {"dpi": dpi, "jpeg_quality": JPEG_QUALITY}
    if tagged:
        options["pdf_variant"] = PDF_VARIANT
    pdf: bytes = document.write_pdf(**options)
    if fetcher.refused:
        raise ResourceError(
            f"the booklet tried to load {len(fetcher.refused)} thing(s) it may not: "
            + ", ".join(fetcher.refused[:3]),
            where="booklet HTML",
            fix="a booklet loads only deckgen's templates, its diagrams and the deck's pictures",
        )
    return pdf
