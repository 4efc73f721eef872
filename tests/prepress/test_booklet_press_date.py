"""The booklet's files for the press (PDF/X: ``-press.pdf``, ``-print.pdf``) carry a
true date, chosen as a deck's print files choose theirs: ``SOURCE_DATE_EPOCH`` when it
is set, else the newest modification time of the booklet's inputs (its rules file and
the deck it pictures); never PDF/X's fallback of 2000-01-01."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pikepdf
import pytest

from deckgen.booklet.make import make_booklets
from deckgen.prepress.pdfx import DEFAULT_DATE
from deckgen.prepress.sourcedate import ENV
from deckgen.resources import rules_dir

EPOCH_2031 = 1924992000  # 2031-01-01 00:00:00 UTC


def _dates(path: Path) -> tuple[str, str, str, str]:
    with pikepdf.open(path) as pdf:
        meta = pdf.open_metadata()
        return (
            str(pdf.docinfo["/CreationDate"]),
            str(pdf.docinfo["/ModDate"]),
            str(meta["xmp:CreateDate"]),
            str(meta["xmp:ModifyDate"]),
        )


def _press_files(rules: Path | str, out: Path) -> list[Path]:
    written = make_booklets(rules, out, langs=("en",), impose=True)
    files = [p for p in written if p.name.endswith(("-press.pdf", "-print.pdf"))]
    assert len(files) == 2, written
    return files


def test_source_date_epoch_dates_the_booklet_press_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "1764151200")  # 2025-11-26 10:00:00 UTC
    for path in _press_files("card-domino", tmp_path / "out"):
        created, modified, xmp_created, xmp_modified = _dates(path)
        assert created == modified == "D:20251126100000+00'00'", path.name
        assert xmp_created.startswith("2025-11-26T10:00:00"), path.name
        assert xmp_modified.startswith("2025-11-26T10:00:00"), path.name


def test_without_it_the_newest_input_dates_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV, raising=False)
    rules = tmp_path / "card-domino.toml"
    shutil.copyfile(rules_dir() / "card-domino.toml", rules)
    os.utime(rules, (EPOCH_2031, EPOCH_2031))  # newer than every other input
    for path in _press_files(rules, tmp_path / "out"):
        created, modified, xmp_created, xmp_modified = _dates(path)
        assert created != DEFAULT_DATE
        assert created == modified == "D:20310101000000+00'00'", path.name
        assert xmp_created.startswith("2031-01-01T00:00:00"), path.name
        assert xmp_modified.startswith("2031-01-01T00:00:00"), path.name
