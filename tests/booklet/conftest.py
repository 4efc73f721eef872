"""Fixtures for the booklet tests: small PDFs made once per session."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest


def labelled_pdf(pages: int, *, width_pt: float = 419.53, height_pt: float = 595.28) -> bytes:
    """A PDF whose page k (1-based) shows the big label ``P<k>`` in its footer."""
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(width_pt, height_pt), invariant=1)
    for k in range(1, pages + 1):
        c.setFont("Helvetica", 24)
        c.drawCentredString(width_pt / 2, 30, f"P{k}")
        c.showPage()
    c.save()
    return buf.getvalue()


@pytest.fixture
def make_labelled_pdf() -> Callable[[int], bytes]:
    return labelled_pdf


@pytest.fixture(scope="session")
def card_domino_booklets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The card-domino booklets (A5, German and English, imposed too), made once for
    all pytest-xdist workers (the first one makes them under a file lock)."""
    import fcntl
    import json
    import os

    from deckgen.booklet.make import make_booklets

    base = tmp_path_factory.getbasetemp()
    # under xdist every worker's base is a child of this run's folder; share that one
    run_dir = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    shared = run_dir / "card-domino-booklets"
    shared.mkdir(exist_ok=True)
    with open(shared / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        listing = shared / "written.json"
        if not listing.exists():
            paths = make_booklets(
                "card-domino", shared / "out", langs=("de", "en"), impose=True, age=6
            )
            listing.write_text(json.dumps([str(p) for p in paths]))
        names = [Path(p) for p in json.loads(listing.read_text())]
    return {p.name: p for p in names}
