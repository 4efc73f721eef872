"""Real PDF/X: MeinSpiel's files are PDF/X-4, DriveThruCards' PDF/X-1a:2003.

Every file each vendor receives is read by the independent checks of
``pdfx_checks.py`` (the requirements of ISO 15930-4 and -7 it checks are listed
there) and by Ghostscript with ``-dPDFSTOPONERROR``, as a RIP would read it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest

from deckgen.prepress.pdfout import save_pdf
from deckgen.prepress.pdfx import flatten_transparency, make_pdfx
from pdfx_checks import pdfx_problems, xmp_values


def _gs_errors(path: Path) -> str:
    gs = shutil.which("gs")
    assert gs is not None, "Ghostscript missing: run scripts/sysdeps.sh"
    done = subprocess.run(
        [gs, "-q", "-dPDFSTOPONERROR", "-dNOPAUSE", "-dBATCH", "-sDEVICE=nullpage", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return (
        f"exit {done.returncode}: {done.stdout}{done.stderr}"
        if (done.returncode or done.stdout.strip() or done.stderr.strip())
        else ""
    )


def _vendor_files(folder: Path) -> list[Path]:
    """The files for the press (proof.pdf is for the customer's screen)."""
    return sorted(p for p in folder.rglob("*.pdf") if p.name != "proof.pdf")


def test_meinspiel_files_are_pdfx4(ms_build: Path) -> None:
    files = _vendor_files(ms_build)
    names = {p.name for p in files}
    assert {"cards.pdf", "back.pdf", "fronts.pdf", "backs.pdf"} <= names, names
    for path in files:
        assert pdfx_problems(path, "x4") == [], path.name
    for path in (ms_build / "cards.pdf", ms_build / "fronts.pdf", ms_build / "backs.pdf"):
        assert _gs_errors(path) == "", path.name
        assert path.read_bytes()[:8] == b"%PDF-1.6"


def test_drivethrucards_files_are_pdfx1a(dtc_build: Path) -> None:
    files = _vendor_files(dtc_build)
    assert {p.name for p in files} == {"cards.pdf", "back.pdf", "deck-back-front.pdf"}
    for path in files:
        assert pdfx_problems(path, "x1a") == [], path.name
        assert _gs_errors(path) == "", path.name
        assert path.read_bytes()[:8] == b"%PDF-1.4"
    with pikepdf.open(dtc_build / "deck-back-front.pdf") as pdf:
        xmp = xmp_values(pdf)
        assert xmp["pdfx:GTS_PDFXConformance"] == "PDF/X-1a:2003"
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1:2003"


def test_checks_catch_what_was_missing_before(tmp_path: Path) -> None:
    """The checks fail on a CMYK file with only an output intent (deckgen's old files)."""
    from reportlab.pdfgen import canvas

    from deckgen.prepress.cmyk import convert_document

    path = tmp_path / "old.pdf"
    c = canvas.Canvas(str(path), pagesize=(200, 200), invariant=1)
    c.setFillColorRGB(0.2, 0.4, 0.8)
    c.rect(0, 0, 200, 200, fill=1, stroke=0)
    c.save()
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        convert_document(pdf)
        pdf.save(path, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    problems = pdfx_problems(path, "x1a")
    assert any("GTS_PDFXVersion" in p for p in problems)
    assert any("Metadata" in p for p in problems)
    assert any("TrimBox" in p for p in problems)
    assert any("1.3 or 1.4" in p or "streams" in p for p in problems)


def test_flattening_keeps_the_look_and_removes_soft_masks(tmp_path: Path) -> None:
    """A half-transparent logo over a coloured ground: the X-1a file looks the same."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    from deckgen.prepress.cmyk import convert_document

    logo = Image.new("RGBA", (200, 200), (250, 200, 0, 0))
    for x in range(200):
        for y in range(60, 140):
            logo.putpixel((x, y), (250, 200, 0, 160))
    source = tmp_path / "logo.pdf"
    c = canvas.Canvas(str(source), pagesize=(200, 200), invariant=1)
    c.setFillColorRGB(0.1, 0.2, 0.5)
    c.rect(0, 0, 200, 100, fill=1, stroke=0)
    c.drawImage(ImageReader(logo), 50, 50, 100, 100, mask="auto")
    c.save()
    with pikepdf.open(source, allow_overwriting_input=True) as pdf:
        convert_document(pdf)
        pdf.save(source)
    flat = tmp_path / "flat.pdf"
    with pikepdf.open(source) as pdf:
        assert flatten_transparency(pdf) == 1
        make_pdfx(pdf, "x1a", title="logo")
        save_pdf(pdf, flat)
    # a bare reportlab canvas names Helvetica without embedding it (deckgen's never do)
    assert [p for p in pdfx_problems(flat, "x1a") if "Helvetica" not in p] == []

    from separations import plates

    before = plates(source, 1, tmp_path / "before", dpi=72)
    after = plates(flat, 1, tmp_path / "after", dpi=72)
    for name, image in before.items():
        a, b = image.tobytes(), after[name].tobytes()
        worst = max(abs(x - y) for x, y in zip(a, b, strict=True))
        assert worst <= 40, f"{name} plate changed by {worst / 2.55:.0f} % ink"
        mean = sum(abs(x - y) for x, y in zip(a, b, strict=True)) / len(a)
        assert mean < 1.0, name


@pytest.mark.parametrize("flavour", ["x4", "x1a"])
def test_same_input_same_bytes(tmp_path: Path, dtc_build: Path, flavour: str) -> None:
    outputs = []
    for run in range(2):
        with pikepdf.open(dtc_build / "cards.pdf") as pdf:
            make_pdfx(pdf, flavour, title="again")
            outputs.append(save_pdf(pdf, tmp_path / f"{run}.pdf").read_bytes())
    assert outputs[0] == outputs[1]


def test_flattening_a_picture_drawn_turned_round(tmp_path: Path) -> None:
    """half_rotation draws the lower picture turned by 180 degrees: flattened in place."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    from deckgen.prepress.cmyk import convert_document

    logo = Image.new("RGBA", (120, 120), (0, 0, 0, 0))
    for x in range(120):
        for y in range(0, 40):  # only the top third is painted: orientation shows
            logo.putpixel((x, y), (230, 40, 40, 200))
    source = tmp_path / "turned.pdf"
    c = canvas.Canvas(str(source), pagesize=(200, 200), invariant=1)
    c.setFillColorRGB(0.9, 0.85, 0.3)
    c.rect(0, 0, 200, 200, fill=1, stroke=0)
    c.saveState()
    c.translate(160, 160)
    c.rotate(180)
    c.drawImage(ImageReader(logo), 0, 0, 120, 120, mask="auto")
    c.restoreState()
    c.save()
    with pikepdf.open(source, allow_overwriting_input=True) as pdf:
        convert_document(pdf)
        pdf.save(source)
    flat = tmp_path / "flat.pdf"
    with pikepdf.open(source) as pdf:
        assert flatten_transparency(pdf) == 1
        save_pdf(pdf, flat)

    from separations import plates

    before = plates(source, 1, tmp_path / "before", dpi=72)
    after = plates(flat, 1, tmp_path / "after", dpi=72)
    for name, image in before.items():
        a, b = image.tobytes(), after[name].tobytes()
        mean = sum(abs(x - y) for x, y in zip(a, b, strict=True)) / len(a)
        assert mean < 1.0, (name, mean)
