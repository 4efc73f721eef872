"""The first worksheet of an ``.xlsx`` file as rows of text, in bounded memory and time.

An ``.xlsx`` is a zip of XML parts; the file is untrusted. The reader streams the
worksheet's XML with expat and keeps only the cells that hold a value, so nothing the
file claims (a ``<dimension>`` of the whole grid, a row numbered 1,048,576, millions of
empty cells) is materialised: it stops at the first row beyond the caller's limit of
rows with values, or at a value beyond its limit of columns.
Every part it reads is limited to :data:`MAX_PART_BYTES` once unpacked (the zip's own
size field, which Python's zip reader enforces), and an XML part that declares a
document type (``<!DOCTYPE``, where entities live) is refused: no entity is ever
expanded.

Values are what Excel last calculated: shared and inline strings, numbers (a whole
number without ``.0``), ``true``/``false``, error codes as Excel shows them, and
numbers in a date format as ISO dates.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.parsers import expat

from deckgen.errors import SpecError, excerpt

MAX_PART_BYTES = 100_000_000
"""An XML part of the workbook larger than this (unpacked) is refused."""
MAX_SHARED_CHARS = 50_000_000
"""All shared strings together hold at most this many characters."""
MAX_ROW_NUMBER = 1_048_576
"""Excel's last row."""
CHUNK_BYTES = 1 << 16
DEFAULT_SHEET = "xl/worksheets/sheet1.xml"
_CELL_REF = re.compile(r"^([A-Za-z]{1,3})([0-9]{1,7})$")


def _fail(path: Path, what: str, fix: str = "") -> SpecError:
    return SpecError(
        what,
        where=str(path),
        fix=fix or "save it from your spreadsheet program as .xlsx (or .csv)",
    )


class TooManyRowsError(Exception):
    """The sheet has more rows with values than the caller allows (it stopped there)."""


def _local(name: str) -> str:
    return name.rsplit(":", 1)[-1]


class _Refused(Exception):
    """Raised inside an expat handler; carries the user error out of the parser."""

    def __init__(self, error: SpecError) -> None:
        super().__init__(error.what)
        self.error = error


def _parse(
    book: zipfile.ZipFile,
    part: str,
    path: Path,
    start: Callable[[str, dict[str, str]], None],
    end: Callable[[str], None],
    text: Callable[[str], None] | None = None,
) -> None:
    """Stream the XML ``part`` of the workbook through expat, refusing a DTD."""
    try:
        info = book.getinfo(part)
    except KeyError:
        raise _fail(path, f"the workbook has no part '{excerpt(part)}'") from None
    if info.file_size > MAX_PART_BYTES:
        raise _fail(
            path,
            f"the workbook's part '{excerpt(part)}' unpacks to {info.file_size / 1e6:.0f} MB, "
            f"more than the {MAX_PART_BYTES / 1e6:.0f} MB an order sheet may have",
            "split the orders into several spreadsheets",
        )

    def no_dtd(*_: Any) -> None:
        raise _Refused(
            _fail(
                path,
                f"the workbook's part '{excerpt(part)}' declares a document type (DTD); "
                "deckgen does not read XML with entities",
                "open it in your spreadsheet program and save it again as .xlsx",
            )
        )

    parser = expat.ParserCreate()
    parser.StartDoctypeDeclHandler = no_dtd
    parser.EntityDeclHandler = no_dtd
    parser.StartElementHandler = lambda name, attrs: start(_local(name), attrs)
    parser.EndElementHandler = lambda name: end(_local(name))
    if text is not None:
        parser.CharacterDataHandler = text
    parser.buffer_text = True
    try:
        with book.open(info) as stream:
            while chunk := stream.read(CHUNK_BYTES):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
    except _Refused as exc:
        raise exc.error from None
    except (expat.ExpatError, LookupError, UnicodeError) as exc:  # LookupError: encoding
        raise _fail(
            path, f"the workbook's part '{excerpt(part)}' is not valid XML ({exc})"
        ) from None
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, RuntimeError) as exc:
        # a broken stream, an offset out of the file, an encrypted part
        what = f"the workbook's part '{excerpt(part)}' cannot be unpacked ({exc})"
        raise _fail(path, what) from None
    except NotImplementedError as exc:  # a zip feature Python lacks (version, method)
        what = f"the workbook's part '{excerpt(part)}' uses a zip feature deckgen cannot read"
        raise _fail(path, f"{what} ({exc})") from None


def _relations(book: zipfile.ZipFile, path: Path, owner: str) -> dict[str, tuple[str, str]]:
    """The relationships of a part: id -> (type, target part name)."""
    folder, name = posixpath.split(owner)
    rels = posixpath.join(folder, "_rels", name + ".rels")
    found: dict[str, tuple[str, str]] = {}
    if rels not in book.namelist():
        return found

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == "Relationship" and attrs.get("TargetMode") != "External":
            target = attrs.get("Target", "")
            joined = (
                target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
            )
            found[attrs.get("Id", "")] = (attrs.get("Type", ""), posixpath.normpath(joined))

    _parse(book, rels, path, start, lambda tag: None)
    return found


class _Workbook:
    """What the workbook part says: the first sheet's part, the date system, shared strings."""

    def __init__(self, book: zipfile.ZipFile, path: Path) -> None:
        self.first_sheet_id: str | None = None
        self.date1904 = False
        relations: dict[str, tuple[str, str]] = {}
        if "xl/workbook.xml" in book.namelist():
            _parse(book, "xl/workbook.xml", path, self._start, lambda tag: None)
            relations = _relations(book, path, "xl/workbook.xml")
        sheet = relations.get(self.first_sheet_id or "")
        self.sheet_part = sheet[1] if sheet and sheet[0].endswith("/worksheet") else DEFAULT_SHEET
        shared = [t for kind, t in relations.values() if kind.endswith("/sharedStrings")]
        styles = [t for kind, t in relations.values() if kind.endswith("/styles")]
        names = set(book.namelist())
        self.shared_part = shared[0] if shared and shared[0] in names else None
        self.styles_part = styles[0] if styles and styles[0] in names else None

    def _start(self, tag: str, attrs: dict[str, str]) -> None:
        if tag == "sheet" and self.first_sheet_id is None:
            self.first_sheet_id = next(
                (v for k, v in attrs.items() if _local(k) == "id" and k != "sheetId"), None
            )
        elif tag == "workbookPr":
            self.date1904 = attrs.get("date1904", "0").lower() in ("1", "true")


def _shared_strings(book: zipfile.ZipFile, part: str | None, path: Path) -> list[str]:
    strings: list[str] = []
    if part is None:
        return strings
    state = {"in_t": False, "phonetic": 0, "chars": 0}
    current: list[str] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == "si":
            current.clear()
        elif tag == "rPh":
            state["phonetic"] += 1
        elif tag == "t" and not state["phonetic"]:
            state["in_t"] = True

    def end(tag: str) -> None:
        if tag == "si":
            strings.append("".join(current))
        elif tag == "rPh":
            state["phonetic"] -= 1
        elif tag == "t":
            state["in_t"] = False

    def text(data: str) -> None:
        if state["in_t"]:
            state["chars"] += len(data)
            if state["chars"] > MAX_SHARED_CHARS:
                raise _Refused(
                    _fail(
                        path,
                        f"the workbook's texts hold more than {MAX_SHARED_CHARS:,} characters",
                        "split the orders into several spreadsheets",
                    )
                )
            current.append(data)

    _parse(book, part, path, start, end, text)
    return strings


def _date_styles(book: zipfile.ZipFile, part: str | None, path: Path) -> set[int]:
    """The cell style numbers whose number format shows a date or a time."""
    from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format

    if part is None:
        return set()
    custom: dict[int, str] = {}
    formats: list[int] = []
    inside = {"cellXfs": False}

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == "numFmt":
            with contextlib.suppress(ValueError):
                custom[int(attrs.get("numFmtId", ""))] = attrs.get("formatCode", "")
        elif tag == "cellXfs":
            inside["cellXfs"] = True
        elif tag == "xf" and inside["cellXfs"]:
            try:
                formats.append(int(attrs.get("numFmtId", "0")))
            except ValueError:
                formats.append(0)

    def end(tag: str) -> None:
        if tag == "cellXfs":
            inside["cellXfs"] = False

    _parse(book, part, path, start, end)
    dates = set()
    for style, number in enumerate(formats):
        code = custom.get(number, BUILTIN_FORMATS.get(number, "General"))
        if is_date_format(code):
            dates.add(style)
    return dates


def _column_index(letters: str) -> int:
    index = 0
    for char in letters.upper():
        index = index * 26 + ord(char) - ord("A") + 1
    return index - 1


def _number_text(raw: str, is_date: bool, date1904: bool) -> str:
    try:
        value = float(raw)
    except ValueError:
        return raw
    if is_date:
        from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900, from_excel

        try:
            moment = from_excel(value, CALENDAR_MAC_1904 if date1904 else CALENDAR_WINDOWS_1900)
        except (ValueError, OverflowError):
            moment = None
        if isinstance(moment, datetime.datetime | datetime.date | datetime.time):
            return moment.isoformat()
    if value.is_integer():
        return str(int(value))
    return str(value)


class _SheetReader:
    """Expat handlers for a worksheet: collects the rows that hold values."""

    def __init__(
        self,
        path: Path,
        strings: list[str],
        date_styles: set[int],
        date1904: bool,
        limits: tuple[int, int],
    ) -> None:
        self.path = path
        self.max_rows, self.max_columns = limits
        self.body_rows = 0
        self.strings = strings
        self.date_styles = date_styles
        self.date1904 = date1904
        self.rows: list[tuple[int, list[str]]] = []
        self.row_number = 0
        self.row: dict[int, str] = {}
        self.column = -1
        self.ref = ""
        self.cell_type = "n"
        self.cell_style = 0
        self.text: list[str] | None = None
        self.value: list[str] = []
        self.inline: list[str] = []
        self.phonetic = 0

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        if tag == "c":
            self._start_cell(attrs)
        elif tag == "v":
            self.text = self.value
        elif tag == "t" and not self.phonetic:
            self.text = self.inline
        elif tag == "rPh":
            self.phonetic += 1
        elif tag == "row":
            self._start_row(attrs)

    def end(self, tag: str) -> None:
        if tag in ("v", "t"):
            self.text = None
        elif tag == "rPh":
            self.phonetic -= 1
        elif tag == "c":
            self._end_cell()
        elif tag == "row":
            self._end_row()

    def data(self, text: str) -> None:
        if self.text is not None:
            self.text.append(text)

    def _start_row(self, attrs: dict[str, str]) -> None:
        number = attrs.get("r")
        try:
            self.row_number = int(number) if number is not None else self.row_number + 1
        except ValueError:
            self.row_number = -1
        if not 1 <= self.row_number <= MAX_ROW_NUMBER:
            raise _Refused(_fail(self.path, f"a row is numbered '{excerpt(number)}'"))
        self.row = {}
        self.column = -1

    def _start_cell(self, attrs: dict[str, str]) -> None:
        ref = attrs.get("r")
        self.ref = ref or ""
        if ref is None:
            self.column += 1
        else:
            match = _CELL_REF.match(ref)
            if match is None:
                raise _Refused(_fail(self.path, f"a cell is named '{excerpt(ref)}'"))
            self.column = _column_index(match.group(1))
        self.cell_type = attrs.get("t", "n")
        try:
            self.cell_style = int(attrs.get("s", "0"))
        except ValueError:
            self.cell_style = 0
        self.value = []
        self.inline = []
        self.text = None

    def _end_cell(self) -> None:
        text = self._cell_text().strip()
        if not text:
            return
        if self.column >= self.max_columns:
            where = f"cell {self.ref}" if self.ref else f"column {self.column + 1}"
            raise _Refused(
                _fail(
                    self.path,
                    f"row {self.row_number} has a value in {where}, "
                    f"beyond the {self.max_columns} columns an order sheet may use",
                    "delete the cells to the right of your order columns",
                )
            )
        self.row[self.column] = text

    def _cell_text(self) -> str:
        raw = "".join(self.value)
        kind = self.cell_type
        if kind == "s":
            try:
                return self.strings[int(raw)]
            except (ValueError, IndexError):
                raise _Refused(
                    _fail(self.path, f"a cell in row {self.row_number} names a missing text")
                ) from None
        if kind == "inlineStr":
            return "".join(self.inline)
        if kind == "b":
            return "true" if raw.strip() in ("1", "true") else "false"
        if kind in ("str", "e", "d"):
            return raw
        if not raw:
            return ""
        return _number_text(raw, self.cell_style in self.date_styles, self.date1904)

    def _end_row(self) -> None:
        if not self.row:
            return
        if self.row_number > 1:
            self.body_rows += 1
            if self.body_rows > self.max_rows:
                raise TooManyRowsError
        width = max(self.row) + 1
        self.rows.append((self.row_number, [self.row.get(i, "") for i in range(width)]))
        self.row = {}


def read_xlsx_rows(
    path: Path, raw: bytes, *, max_rows: int, max_columns: int
) -> list[tuple[int, list[str]]]:
    """The rows with values of the first worksheet: (row number, cell texts from column A).

    Raises :class:`TooManyRowsError` at the first row with values beyond ``max_rows``
    below the header (row 1), and a SpecError for a value beyond ``max_columns``.
    """
    try:
        book = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError) as exc:
        raise _fail(path, f"the file is not an Excel workbook ({exc})") from None
    except NotImplementedError as exc:  # a zip feature Python lacks (version, method)
        raise _fail(path, f"the workbook uses a zip feature deckgen cannot read ({exc})") from None
    with book:
        workbook = _Workbook(book, path)
        strings = _shared_strings(book, workbook.shared_part, path)
        dates = _date_styles(book, workbook.styles_part, path)
        limits = (max_rows, max_columns)
        reader = _SheetReader(path, strings, dates, workbook.date1904, limits)
        _parse(book, workbook.sheet_part, path, reader.start, reader.end, reader.data)
    return reader.rows
