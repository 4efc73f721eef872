"""Hostile spreadsheets of orders: ``.xlsx`` files built by hand, byte by byte.

A workbook is a zip of XML parts, so each test writes the few parts it needs with
:mod:`zipfile`: a sheet that claims the whole grid, millions of rows, a cell in the
last column, a DTD with an entity, a part whose unpacked size is a lie. Every one is
read in a child process under a memory and time limit (:func:`run_bounded`): it is
read in bounded memory, or refused with one clear paragraph and exit 2. Hypothesis
mangles a sheet's XML and the zip's bytes: read, or refused as a user error.
"""

from __future__ import annotations

import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import deckgen.batch.sheet
from deckgen.batch.sheet import MAX_COLUMNS, MAX_ROWS, read_sheet
from deckgen.cli import app
from deckgen.errors import DeckgenError, SpecError
from tests.hostile.contract import assert_clean_error, assert_refused, examples, run_bounded

WARM = (deckgen.batch.sheet,)
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
TYPES = """<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml"
 ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
<Override PartName="/xl/worksheets/sheet1.xml"
 ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>
</Types>"""
ROOT_RELS = f"""<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/>
</Relationships>"""
WORKBOOK = f"""<?xml version="1.0" encoding="UTF-8"?>
<workbook xmlns="{MAIN}" xmlns:r="{REL}">
<sheets><sheet name="orders" sheetId="1" r:id="rId1"/></sheets></workbook>"""
WORKBOOK_RELS = f"""<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>
</Relationships>"""
HEADER = '<row r="1"><c r="A1" t="inlineStr"><is><t>order</t></is></c>' + (
    '<c r="B1" t="inlineStr"><is><t>name</t></is></c></row>'
)


def _row(number: int) -> str:
    return (
        f'<row r="{number}"><c r="A{number}" t="inlineStr"><is><t>o{number}</t></is></c>'
        f'<c r="B{number}" t="inlineStr"><is><t>Deck {number}</t></is></c></row>'
    )


def _sheet(rows: str, head: str = "", prolog: str = "") -> str:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>{prolog}<worksheet xmlns="{MAIN}">{head}'
        f"<sheetData>{HEADER}{rows}</sheetData></worksheet>"
    )


def _workbook(path: Path, sheet: str, **more: str) -> Path:
    parts = {
        "[Content_Types].xml": TYPES,
        "_rels/.rels": ROOT_RELS,
        "xl/workbook.xml": WORKBOOK,
        "xl/_rels/workbook.xml.rels": WORKBOOK_RELS,
        "xl/worksheets/sheet1.xml": sheet,
        **more,
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as book:
        for name, text in parts.items():
            book.writestr(name, text)
    return path


def _read(path: Path) -> tuple[str, object]:
    """Read the sheet in a bounded child: ("rows", numbers) or ("refused", message)."""

    def read() -> tuple[str, object]:
        try:
            sheet = read_sheet(path)
        except SpecError as exc:
            return "refused", exc.message()
        return "rows", [row.number for row in sheet.rows]

    result: tuple[str, object] = run_bounded(read, extra_mb=300, seconds=60)
    return result


def test_a_sheet_that_claims_the_whole_grid_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """The issue's 4.7 KB file: dimension A1:XFD1048576 and one row at 1048576."""
    sheet = _sheet(_row(1_048_576), head='<dimension ref="A1:XFD1048576"/>')
    path = _workbook(tmp_path / "grid.xlsx", sheet)
    assert path.stat().st_size < 10_000
    assert _read(path) == ("rows", [1_048_576])


def test_fifty_thousand_rows_stop_at_the_row_limit(tmp_path: Path) -> None:
    rows = "".join(_row(n) for n in range(2, 50_002))
    grid = '<dimension ref="A1:XFD1048576"/>'
    path = _workbook(tmp_path / "many.xlsx", _sheet(rows, head=grid))
    kind, message = _read(path)
    assert kind == "refused"
    assert f"more than {MAX_ROWS} rows" in str(message)
    # exactly the limit is fine, as for CSV
    exact = _workbook(tmp_path / "exact.xlsx", _sheet("".join(_row(n) for n in range(2, 10_002))))
    kind, numbers = _read(exact)
    assert kind == "rows"
    assert isinstance(numbers, list)
    assert len(numbers) == MAX_ROWS
    # and the same limit, in the same words, for CSV
    csv = tmp_path / "many.csv"
    csv.write_text("order,name\n" + "".join(f"o{n},D{n}\n" for n in range(MAX_ROWS + 1)))
    assert _read(csv) == ("refused", str(message).replace("many.xlsx", "many.csv"))


def test_rows_of_empty_cells_cost_nothing_and_a_far_value_is_refused(tmp_path: Path) -> None:
    empty = "".join(f'<c r="{_letters(i)}2"/>' for i in range(2, 16_384))
    wide = f'<row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c>{empty}</row>'
    path = _workbook(tmp_path / "wide.xlsx", _sheet(wide * 1 + _row(3)))
    assert _read(path) == ("rows", [2, 3])
    far = '<row r="2"><c r="XFD2" t="inlineStr"><is><t>far</t></is></c></row>'
    kind, message = _read(_workbook(tmp_path / "far.xlsx", _sheet(far)))
    assert kind == "refused"
    assert f"cell XFD2, beyond the {MAX_COLUMNS} columns" in str(message)


def _letters(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


ENTITY = '<!DOCTYPE worksheet [<!ENTITY boom "Boom">]>'


@pytest.mark.parametrize("part", ["xl/worksheets/sheet1.xml", "xl/workbook.xml", "shared"])
def test_a_dtd_with_an_entity_is_one_clear_error(tmp_path: Path, part: str) -> None:
    shared = f'<?xml version="1.0"?><sst xmlns="{MAIN}"><si><t>x</t></si></sst>'
    sheet = _sheet(_row(2))
    workbook = WORKBOOK
    if part == "xl/worksheets/sheet1.xml":
        sheet = _sheet(_row(2), prolog=ENTITY).replace("Deck 2", "&boom;")
    elif part == "xl/workbook.xml":
        workbook = WORKBOOK.replace("?>", "?>" + ENTITY, 1)
    else:
        part = "xl/sharedStrings.xml"
        shared = shared.replace("?>", "?>" + ENTITY, 1).replace(">x<", ">&boom;<")
    rels = WORKBOOK_RELS.replace(
        "</Relationships>",
        f'<Relationship Id="rId2" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>'
        "</Relationships>",
    )
    path = _workbook(
        tmp_path / "dtd.xlsx",
        sheet,
        **{
            "xl/workbook.xml": workbook,
            "xl/_rels/workbook.xml.rels": rels,
            "xl/sharedStrings.xml": shared,
        },
    )
    kind, message = _read(path)
    assert kind == "refused"
    assert f"'{part}' declares a document type (DTD)" in str(message)
    assert "Boom" not in str(message)
    result = CliRunner().invoke(app, ["batch", str(path), "--check"])
    assert_refused(result)
    assert "declares a document type" in result.stderr


def test_a_part_whose_unpacked_size_is_huge_is_refused_before_reading(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "big.xlsx", _sheet(" " * 101_000_000))
    assert path.stat().st_size < 1_000_000
    kind, message = _read(path)
    assert kind == "refused"
    assert "unpacks to 101 MB" in str(message)
    assert_clean_error(str(message))


def test_an_xlsx_that_is_not_xml_or_not_a_zip_is_one_clear_error(tmp_path: Path) -> None:
    broken = _workbook(tmp_path / "broken.xlsx", "<worksheet><sheetData><row>")
    kind, message = _read(broken)
    assert kind == "refused"
    assert "is not valid XML" in str(message)
    text = tmp_path / "text.xlsx"
    text.write_text("order,name\n", encoding="utf-8")
    kind, message = _read(text)
    assert kind == "refused"
    assert "not an Excel workbook" in str(message)


TOKENS = [
    "<",
    ">",
    "&",
    '"',
    "</row>",
    "<row>",
    '<row r="0">',
    '<c r="ZZZZ9">',
    '<c t="s"><v>99</v></c>',
    '<c t="b"><v>2</v></c>',
    '<c t="n"><v>1e999</v></c>',
    "<v>",
    "</v>",
    "<is><t>",
    "</t></is>",
    "<!DOCTYPE x>",
    "&amp;",
    "&#0;",
    "\x00",
    "\ud800",
    "9" * 30,
]


@st.composite
def _mutated_sheet(draw: st.DrawFn) -> str:
    text = _sheet(_row(2) + _row(3))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            text = text[:at] + draw(st.sampled_from(TOKENS)) + text[at:]
        else:
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
    return text


@settings(max_examples=examples(60, 3000), deadline=None)
@given(sheet=_mutated_sheet(), flip=st.one_of(st.none(), st.integers(0, 10_000)))
def test_mangled_workbooks_are_read_or_refused(sheet: str, flip: int | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "o.xlsx"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as book:
            book.writestr("xl/workbook.xml", WORKBOOK)
            book.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
            book.writestr("xl/worksheets/sheet1.xml", sheet.encode("utf-8", "surrogatepass"))
        if flip is not None:
            raw = bytearray(path.read_bytes())
            raw[flip % len(raw)] ^= 0x55
            path.write_bytes(bytes(raw))
        try:
            read_sheet(path)
        except DeckgenError as exc:
            assert_clean_error(exc.message())
