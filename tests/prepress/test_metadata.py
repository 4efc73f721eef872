"""Every print file says what it is: its own title, its own XMP DocumentID and
InstanceID, and a true creation date (the newest input, or SOURCE_DATE_EPOCH) that is
the same for the same inputs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pikepdf
import pytest

from deckgen.prepress.presets import load_preset
from deckgen.prepress.printout import PrintOptions, make_print_outputs
from deckgen.prepress.sourcedate import deck_inputs, pdf_date, source_epoch
from print_synthetic import deck_labels, make_deck_pdfs


def _meta(path: Path) -> dict[str, str]:
    with pikepdf.open(path) as pdf:
        xmp = pdf.Root.Metadata.read_bytes().decode("utf-8")

        def tag(name: str) -> str:
            found = re.search(rf"<{name}>([^<]*)</{name}>", xmp)
            assert found is not None, f"{path.name}: no {name} in its XMP"
            return found.group(1)

        title = re.search(r'<rdf:li xml:lang="x-default">([^<]*)</rdf:li>', xmp)
        assert title is not None, path.name
        return {
            "title": str(pdf.docinfo["/Title"]),
            "xmp_title": title.group(1),
            "created": str(pdf.docinfo["/CreationDate"]),
            "modified": str(pdf.docinfo["/ModDate"]),
            "xmp_created": tag("xmp:CreateDate"),
            "document": tag("xmpMM:DocumentID"),
            "instance": tag("xmpMM:InstanceID"),
        }


def _xmp(pdf_date_text: str) -> str:
    d = pdf_date_text[2:]
    return f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}+00:00"


@pytest.mark.parametrize("build", ["ms_build", "dtc_build"])
def test_each_file_has_its_own_ids_true_title_and_date(
    build: str, request: pytest.FixtureRequest
) -> None:
    from deckgen.product import load_printed_deck
    from deckgen.resources import images_dir

    folder: Path = request.getfixturevalue(build)
    files = sorted(folder.rglob("*.pdf"))
    metas = {p.relative_to(folder).as_posix(): _meta(p) for p in files}
    documents = [m["document"] for m in metas.values()]
    instances = [m["instance"] for m in metas.values()]
    assert len(set(documents)) == len(files), metas
    assert len(set(instances)) == len(files), metas
    assert not set(documents) & set(instances)
    deck = load_printed_deck(images_dir() / "demo-deck.toml")
    expected = pdf_date(source_epoch(deck_inputs(deck)))
    assert not expected.startswith("D:2000")
    for name, meta in metas.items():
        assert meta["title"] == meta["xmp_title"], name
        assert meta["created"] == expected, name
        assert meta["modified"] == expected, name
        assert meta["xmp_created"] == _xmp(expected), name
        if "back" in Path(name).stem and "front" not in Path(name).stem:
            assert "front" not in meta["title"], (name, meta["title"])
            assert "back" in meta["title"], (name, meta["title"])
    if build == "dtc_build":
        title = metas["deck-back-front.pdf"]["title"]
        assert "backs and fronts" in title, title


def test_per_card_files_differ_and_same_inputs_give_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764151200")  # 2025-11-26 10:00 UTC
    epoch = source_epoch([])
    assert epoch == 1764151200
    labels = deck_labels(2)
    src = tmp_path / "src"
    src.mkdir()
    make_deck_pdfs(src, labels, card_mm=(59.0, 91.0))
    outputs = []
    for run in ("a", "b"):
        folder = tmp_path / run
        folder.mkdir()
        for name in ("cards.pdf", "back.pdf"):
            shutil.copy(src / name, folder / name)
        options = PrintOptions(
            preset=load_preset("meinspiel"), force=True, card_pdfs=True, source_epoch=epoch
        )
        make_print_outputs(folder, labels, options, pictures=None)
        outputs.append(folder)
    a, b = outputs
    names = sorted(p.relative_to(a).as_posix() for p in a.rglob("*.pdf"))
    assert len(names) >= 2 + 2 + len(labels) + 1
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    metas = {n: _meta(a / n) for n in names}
    assert len({m["document"] for m in metas.values()}) == len(names)
    assert {m["created"] for m in metas.values()} == {"D:20251126100000+00'00'"}
    assert metas["cards/002-0-0.pdf"]["title"].endswith("card 2 of 8, tile 0-0")
    assert metas["cards/back.pdf"]["title"].endswith("card back")


def test_a_bad_source_date_epoch_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from deckgen.errors import InputError

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(InputError, match="SOURCE_DATE_EPOCH"):
        source_epoch([])


def test_home_sheets_and_calibration_have_their_own_title_and_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764151200")
    labels = deck_labels(2)
    make_deck_pdfs(tmp_path, labels)
    epoch = source_epoch([])
    options = PrintOptions(preset=load_preset("home-a4"), force=True, source_epoch=epoch)
    make_print_outputs(tmp_path, labels, options)
    sheets, calibration = _meta(tmp_path / "sheets.pdf"), _meta(tmp_path / "calibration.pdf")
    assert sheets["title"].endswith("sheets for duplex printing")
    assert calibration["title"].endswith("duplex calibration page")
    assert sheets["document"] != calibration["document"]
    for meta in (sheets, calibration):
        assert meta["created"] == "D:20251126100000+00'00'"
