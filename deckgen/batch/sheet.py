"""Reading an orders spreadsheet (CSV or XLSX) into rows of text cells.

Takes a ``.csv`` (UTF-8, with or without a byte-order mark; comma, semicolon or tab
separated, as Excel writes it in different countries) or an ``.xlsx`` (the first
worksheet, values as Excel last calculated them); gives a :class:`Sheet`: the column
names of the first row and one :class:`SheetRow` per non-empty row, numbered as a
spreadsheet program numbers them (the header is row 1). Column names are compared
without case and surrounding spaces. The file is untrusted: its size is limited.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from deckgen.errors import InputError, SpecError
from deckgen.paths import read_limited

MAX_SHEET_BYTES = 20_000_000
MAX_ROWS = 10_000
"""Rows of orders (below the header) a spreadsheet may have, CSV and XLSX alike."""
MAX_COLUMNS = 256
"""Columns an order sheet may use (deckgen's columns are about 60)."""
SUFFIXES = (".csv", ".xlsx")


@dataclass(frozen=True)
class SheetRow:
    """One data row: its spreadsheet row number and its cells by column name."""

    number: int
    cells: dict[str, str]


@dataclass(frozen=True)
class Sheet:
    """A spreadsheet of orders: where it is, its column names and its rows."""

    path: Path
    columns: list[str]
    rows: list[SheetRow]

    @property
    def folder(self) -> Path:
        return self.path.resolve().parent


def normalise_column(name: str) -> str:
    return name.strip().lower()


def _too_many_rows(path: Path) -> SpecError:
    return SpecError(
        f"the spreadsheet has more than {MAX_ROWS} rows",
        where=str(path),
        fix="split it into several spreadsheets",
    )


def _table(path: Path, header: list[str], body: list[tuple[int, list[str]]]) -> Sheet:
    columns = [normalise_column(h) for h in header]
    while columns and not columns[-1]:
        columns.pop()
    if len(columns) > MAX_COLUMNS:
        raise SpecError(
            f"the first row names {len(columns)} columns, more than the {MAX_COLUMNS} an "
            "order sheet may use",
            where=str(path),
            fix="keep only the columns of docs/batch.md",
        )
    seen: dict[str, int] = {}
    for i, name in enumerate(columns):
        letter = column_letter(i)
        if not name:
            raise SpecError(
                f"column {letter} has no name in the first row",
                where=str(path),
                fix="name every column in the first row (see docs/batch.md), or delete "
                "the empty column",
            )
        if name in seen:
            raise SpecError(
                f"the column '{name}' appears twice (columns {column_letter(seen[name])} "
                f"and {letter})",
                where=str(path),
                fix="keep one of them",
            )
        seen[name] = i
    rows: list[SheetRow] = []
    for number, values in body:
        if not any(v.strip() for v in values):
            continue
        extra = [v for v in values[len(columns) :] if v.strip()]
        if extra:
            raise SpecError(
                f"row {number} has a value in a column without a name ('{extra[0]}')",
                where=str(path),
                fix="name that column in the first row, or clear the cell",
            )
        cells = {
            name: (values[i].strip() if i < len(values) else "") for i, name in enumerate(columns)
        }
        rows.append(SheetRow(number, cells))
        if len(rows) > MAX_ROWS:
            raise _too_many_rows(path)
    if not columns:
        raise SpecError(
            "the spreadsheet has no column names in its first row",
            where=str(path),
            fix="start from `deckgen batch new orders.csv`",
        )
    return Sheet(path=path, columns=columns, rows=rows)


def column_letter(index: int) -> str:
    """0 -> ``A``, 25 -> ``Z``, 26 -> ``AA``: how spreadsheet programs name columns."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _read_csv(path: Path) -> Sheet:
    raw = read_limited(path, max_bytes=MAX_SHEET_BYTES, what="spreadsheet", where=str(path))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SpecError(
            f"the spreadsheet is not UTF-8 text (bad byte at offset {exc.start})",
            where=str(path),
            fix="save it as 'CSV UTF-8' (Excel: File > Save As), or as .xlsx",
        ) from None
    if "\x00" in text:
        raise SpecError(
            "the file holds NUL characters and is not a CSV file",
            where=str(path),
            fix="save the spreadsheet as CSV UTF-8 or .xlsx",
        )
    first_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first_line.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        records = list(reader)
    except csv.Error as exc:
        raise SpecError(
            f"the CSV file cannot be read: {exc}", where=str(path), fix="check its quotes"
        ) from None
    if not records:
        raise SpecError("the spreadsheet is empty", where=str(path), fix="add a header row")
    body = [(i + 2, r) for i, r in enumerate(records[1:])]
    return _table(path, records[0], body)


def _read_xlsx(path: Path) -> Sheet:
    from deckgen.batch.xlsx import TooManyRowsError, read_xlsx_rows

    raw = read_limited(path, max_bytes=MAX_SHEET_BYTES, what="spreadsheet", where=str(path))
    try:
        rows = read_xlsx_rows(path, raw, max_rows=MAX_ROWS, max_columns=MAX_COLUMNS)
    except TooManyRowsError:
        raise _too_many_rows(path) from None
    if not rows:
        raise SpecError("the spreadsheet is empty", where=str(path), fix="add a header row")
    header = rows[0][1] if rows[0][0] == 1 else []
    return _table(path, header, [(n, values) for n, values in rows if n > 1])


def read_sheet(path: str | Path) -> Sheet:
    """Read a ``.csv`` or ``.xlsx`` file of orders."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(
            f"'{path.name}' is neither a .csv nor an .xlsx file",
            where="argument SPREADSHEET",
            fix="save the orders as .csv (UTF-8) or .xlsx",
        )
    return _read_csv(path) if suffix == ".csv" else _read_xlsx(path)
