"""Validating a spreadsheet of orders: every row becomes an :class:`Order`, or problems.

Takes a :class:`~deckgen.batch.sheet.Sheet`; gives one :class:`Order` per good row
(the deck data of the row, merged over the row's ``deck`` file if it names one, every
path resolved inside the spreadsheet's folder, the quantity and the fingerprint of its
inputs) and one :class:`Problem` per mistake, naming the row, the column and the fix.
Nothing is built here, and every row is checked before anything is built.

The fingerprint (:func:`deckgen.batch.inputs.fingerprint`) is what makes a batch
resumable: a finished deck whose manifest carries the same fingerprint is not built
again.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckgen.batch.columns import (
    BATCH_COLUMNS,
    DECK,
    ORDER,
    QUANTITY,
    Column,
    deck_columns,
    get_key,
    picture_column_value,
    set_key,
    split_list,
)
from deckgen.batch.order import Order
from deckgen.batch.settings import BatchSettings
from deckgen.batch.sheet import Sheet, SheetRow, column_letter
from deckgen.errors import DeckgenError, SpecError, did_you_mean, excerpt
from deckgen.paths import require_file, resolve_inside

MAX_QUANTITY = 1_000_000
DEMO_PREFIX = "demo:"
FOLDER_NAME_CHARS = 60
"""An order's folder name keeps this many characters of its order id (deck.spec.slugify)."""
DEVICE_NAMES = frozenset(
    ["con", "prn", "aux", "nul"] + [f"{kind}{n}" for kind in ("com", "lpt") for n in range(10)]
)
"""Names Windows reserves for devices: no folder may be called so (in any case)."""


@dataclass(frozen=True)
class Problem:
    """A mistake in one row (or in the sheet, ``row`` None) and how to fix it."""

    row: int | None
    column: str | None
    what: str
    fix: str = ""

    def text(self, *, with_row: bool = True) -> str:
        where = []
        if self.row is not None and with_row:
            where.append(f"row {self.row}")
        if self.column:
            where.append(f"column {self.column}")
        head = ", ".join(where)
        body = self.what.rstrip(". ")
        if self.fix:
            body += "; " + self.fix.rstrip(". ")
        return f"{head}: {body}" if head else body


@dataclass
class Validated:
    """The outcome of validation: the good orders and every problem found."""

    sheet: Sheet
    orders: list[Order] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def bad_rows(self) -> list[int]:
        return sorted({p.row for p in self.problems if p.row is not None})


class BatchInvalidError(SpecError):
    """Rows of the spreadsheet do not validate; nothing was built."""

    def __init__(self, validated: Validated) -> None:
        self.validated = validated
        count = len(validated.bad_rows)
        total = len(validated.sheet.rows)
        super().__init__(
            f"{count} of {total} row{'s' if total != 1 else ''} of "
            f"{validated.sheet.path} cannot be built, so nothing was built",
            fix="Correct those cells (docs/batch.md lists every column), or pass "
            "--keep-going to build the rows that are valid.",
        )

    def message(self) -> str:
        lines = [p.text() for p in self.validated.problems] if hasattr(self, "validated") else []
        return f"{self.what}:\n  " + "\n  ".join(lines) + f"\n{self.fix}"


def check_columns(sheet: Sheet) -> dict[str, Column]:
    """The deck columns of the sheet; an unknown column name is a SpecError."""
    known = deck_columns()
    found: dict[str, Column] = {}
    for i, name in enumerate(sheet.columns):
        if name in BATCH_COLUMNS:
            continue
        if name not in known:
            choices = [*BATCH_COLUMNS, *known]
            hint = did_you_mean(name, choices) or _hint_by_last_part(name, choices)
            raise SpecError(
                f"column {column_letter(i)} is named '{name}', which is not a deck-file key"
                + (f" ({hint})" if hint else ""),
                where=str(sheet.path),
                fix="name it after a deck-file key such as cover.title or back.logo "
                "(docs/batch.md lists every column), or delete it",
            )
        found[name] = known[name]
    return found


def _hint_by_last_part(name: str, choices: list[str]) -> str:
    """``titel`` -> ``did you mean 'cover.title'?`` (matching the key's last part)."""
    import difflib

    last: dict[str, str] = {}
    for key in choices:
        last.setdefault(key.rsplit(".", 1)[-1], key)
    close = difflib.get_close_matches(name.rsplit(".", 1)[-1], list(last), n=1, cutoff=0.6)
    return f"did you mean '{last[close[0]]}'?" if close else ""


class _RowProblem(Exception):
    def __init__(self, column: str | None, what: str, fix: str = "") -> None:
        super().__init__(what)
        self.problem = (column, what, fix)


class _RowProblems(Exception):
    def __init__(self, problems: list[_RowProblem]) -> None:
        super().__init__(problems[0].problem[1])
        self.problems = problems


def _resolve_path(text: str, sheet: Sheet, column: str, settings: BatchSettings) -> str:
    if text.startswith(DEMO_PREFIX):
        return text
    try:
        path = resolve_inside(
            sheet.folder, text, where=column, allow_outside=settings.allow_outside
        )
    except DeckgenError as exc:
        if "outside" in exc.what:
            raise _RowProblem(
                column,
                f"the path '{excerpt(text, 80)}' leads outside the spreadsheet's folder",
                "put the file next to the spreadsheet (or in a folder below it)",
            ) from None
        raise _RowProblem(column, exc.what, exc.fix or "") from None
    try:  # a name too long, a folder, a FIFO: each with its true reason, never a hang
        require_file(path, shown=text, what="file", where=column, fix="")
    except DeckgenError as exc:
        raise _RowProblem(column, exc.what, _file_fix(path)) from None
    return str(path)


def _file_fix(path: Path) -> str:
    """How to fix a cell whose path names no regular file."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return f"put it at {excerpt(path, 120)}, or correct the path (relative to the spreadsheet)"
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return "shorten the file and folder names of the path"
        return "check the path and the file's permissions"
    except ValueError:
        return "remove the NUL character from the path"
    if stat.S_ISDIR(mode):
        return "name a file inside that folder, not the folder"
    return "name a regular file (a picture or a font), not a pipe, socket or device"


def _rebase(value: Any, deck_dir: Path, sheet: Sheet, where: str, settings: BatchSettings) -> Any:
    """A path from a row's deck file, made absolute and checked against the sheet folder."""
    if isinstance(value, dict) and isinstance(value.get("file"), str):
        return {**value, "file": _rebase(value["file"], deck_dir, sheet, where, settings)}
    if not isinstance(value, str) or value.startswith(DEMO_PREFIX):
        return value
    path = resolve_inside(deck_dir, value, where=where, allow_outside=settings.allow_outside)
    resolve_inside(sheet.folder, str(path), where=where, allow_outside=settings.allow_outside)
    return str(path)


def _base_deck(path: Path, sheet: Sheet, settings: BatchSettings) -> dict[str, Any]:
    from deckgen.specfile import load_toml

    try:
        data = load_toml(path, what="deck file")
        for column in deck_columns().values():
            if column.kind not in ("path", "path-list") or picture_column_value(column.key):
                continue
            value = get_key(data, column.key)
            if value is None:
                continue
            where = f"{path}, key {column.key}"
            if isinstance(value, list):
                rebased: Any = [_rebase(v, path.parent, sheet, where, settings) for v in value]
            else:
                rebased = _rebase(value, path.parent, sheet, where, settings)
            set_key(data, column.key, rebased)
    except DeckgenError as exc:
        raise _RowProblem(DECK, f"{exc.what} ({exc.where})", exc.fix or "") from None
    return data


def _probe_picture(path: str, text: str, column: str) -> str:
    """Refuse a file that is not a picture now, not halfway through the batch."""
    if path.startswith(DEMO_PREFIX):
        return path
    from deckgen.deck.picturefile import picture_header

    try:
        picture_header(Path(path), where=column)  # the header only: format, size
    except DeckgenError as exc:
        what = f"the file {exc.what}" if exc.what.startswith("'") else exc.what
        raise _RowProblem(column, what, exc.fix or "") from None
    return path


def _cell_value(column: Column, text: str, sheet: Sheet, settings: BatchSettings) -> Any:
    if column.kind == "list":
        return split_list(text)
    if column.kind == "path":
        path = _resolve_path(text, sheet, column.key, settings)
        return path if column.key.startswith("fonts.") else _probe_picture(path, text, column.key)
    if column.kind == "path-list":
        return [
            _probe_picture(_resolve_path(t, sheet, column.key, settings), t, column.key)
            for t in split_list(text)
        ]
    return text


def _check_cell(key: str, value: Any) -> None:
    """Validate one cell alone against the deck file's model, for a message per column."""
    from pydantic import ValidationError

    from deckgen.deck.spec import DeckFile
    from deckgen.specfile import describe_validation_error

    data: dict[str, Any] = {"name": "x"}
    set_key(data, key, value)
    try:
        DeckFile.model_validate(data)
    except ValidationError as exc:
        lines = describe_validation_error(exc, DeckFile)
        text = "; ".join(line.split(": ", 1)[-1] for line in lines)
        raise _RowProblem(key, text, "docs/batch.md says what the column takes") from None


KEY_IN_WHERE = re.compile(r"key ([\w.]+)")


def _column_of(exc: DeckgenError, row: SheetRow) -> str | None:
    match = KEY_IN_WHERE.search(exc.where or "")
    if not match:
        return None
    key = match.group(1)
    if key == "faces.pictures":
        singles = [c for c in row.cells if picture_column_value(c) and row.cells[c]]
        if singles and not row.cells.get(key):
            return singles[0].rsplit(".", 1)[0] + ".N"
    if row.cells.get(key):
        return key
    return DECK if row.cells.get(DECK) else key


def _row_order(
    row: SheetRow, sheet: Sheet, columns: dict[str, Column], settings: BatchSettings
) -> Order:
    """The row's order; every problem of the row at once as :class:`_RowProblems`."""
    from deckgen.deck.spec import slugify

    problems: list[_RowProblem] = []
    cells = {k: v for k, v in row.cells.items() if v}
    deck_file: str | None = None
    data: dict[str, Any] = {}
    if DECK in cells:
        try:
            deck_file = _resolve_path(cells[DECK], sheet, DECK, settings)
            data = _base_deck(Path(deck_file), sheet, settings)
        except _RowProblem as exc:
            problems.append(exc)
    singles: dict[int, str] = {}
    for column_name, text in cells.items():
        column = columns.get(column_name)
        if column is None:
            continue
        try:
            value = _cell_value(column, text, sheet, settings)
            number = picture_column_value(column_name)
            if number is not None:
                singles[number] = value
                continue
            _check_cell(column.key, value)
            set_key(data, column.key, value)
        except _RowProblem as exc:
            problems.append(exc)
    if singles:
        pictures = list(get_key(data, "faces.pictures") or [])
        pictures += [None] * (max(singles) - len(pictures))
        for number, value in singles.items():
            pictures[number - 1] = value
        missing = [i + 1 for i, value in enumerate(pictures) if value is None]
        if missing:
            problems.append(
                _RowProblem(
                    f"faces.pictures.{missing[0]}",
                    f"the picture for value {missing[0]} is missing",
                    "fill every value's picture column from 1 up",
                )
            )
        set_key(data, "faces.pictures", pictures)
    quantity = 1
    try:
        quantity = _quantity(cells.get(QUANTITY, ""))
    except _RowProblem as exc:
        problems.append(exc)
    name = data.get("name")
    deck_failed = any(p.problem[0] == DECK for p in problems)
    if (not isinstance(name, str) or not name.strip()) and not deck_failed:
        problems.append(
            _RowProblem(
                "name",
                "the deck has no name",
                "fill the name column, or point the deck column at a deck file with a name",
            )
        )
    order_id = slugify(cells.get(ORDER) or (name if isinstance(name, str) else ""))
    if order_id in DEVICE_NAMES:
        problems.append(
            _RowProblem(
                ORDER if cells.get(ORDER) else "name",
                f"the order id '{excerpt(cells.get(ORDER) or name)}' would be the folder name "
                f"'{order_id}', which Windows reserves for a device",
                f"choose another order id (order column), such as '{order_id}-1'",
            )
        )
    if problems:
        raise _RowProblems(problems)
    assert isinstance(name, str)
    return Order(
        row=row.number,
        order_id=order_id,
        name=name,
        quantity=quantity,
        data=data,
        deck_path=sheet.folder / f"{sheet.path.name} row {row.number}",
        sheet=str(sheet.path),
        cells=cells,
        deck_file=deck_file,
    )


def _quantity(text: str) -> int:
    if not text:
        return 1
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value.is_integer() or not 1 <= value <= MAX_QUANTITY:
        raise _RowProblem(
            QUANTITY,
            f"'{text}' is not a number of decks",
            f"write a whole number from 1 to {MAX_QUANTITY}, or leave it empty for 1",
        )
    return int(value)


def _order_source(order: Order) -> str:
    """The text the order id was made from: the order cell, else the deck's name."""
    return order.cells.get(ORDER) or order.name


def _same_folder(order: Order, row: SheetRow, first_row: int, first_source: str) -> _RowProblem:
    """Two rows whose order ids give one folder: a duplicate, or two ids cut or folded alike."""
    column = ORDER if row.cells.get(ORDER) else "name"
    fix = "give each row its own order id (order column) so each gets its own folder"
    source = _order_source(order)
    if source == first_source:
        return _RowProblem(column, f"the order '{order.order_id}' is also row {first_row}'s", fix)
    if len(order.order_id) == FOLDER_NAME_CHARS:
        what = (
            f"the order ids of rows {first_row} and {row.number} (ending "
            f"'…{excerpt(first_source[-16:])}' and '…{excerpt(source[-16:])}') differ only "
            f"after their first {FOLDER_NAME_CHARS} characters, all a folder name keeps"
        )
    else:
        what = (
            f"the order ids '{excerpt(first_source, 40)}' (row {first_row}) and "
            f"'{excerpt(source, 40)}' (row {row.number}) differ only in case, accents or "
            "punctuation, which a folder name drops"
        )
    return _RowProblem(
        column,
        f"{what}: both would be the folder '{order.order_id}'",
        "make them differ within their first 60 letters and digits",
    )


def validate_sheet(sheet: Sheet, settings: BatchSettings) -> Validated:
    """Check every row (deck data, paths, pictures, fonts, rules); build nothing."""
    from deckgen.batch.deckload import load_order_deck
    from deckgen.batch.inputs import fingerprint

    columns = check_columns(sheet)
    result = Validated(sheet=sheet)
    if not sheet.rows:
        result.problems.append(
            Problem(None, None, "the spreadsheet has no rows of orders", "add a row per deck")
        )
        return result
    owners: dict[str, tuple[int, str]] = {}
    for row in sheet.rows:
        try:
            order = _row_order(row, sheet, columns, settings)
            try:
                deck = load_order_deck(order, settings)
            except DeckgenError as exc:
                raise _RowProblem(_column_of(exc, row), exc.what, exc.fix or "") from None
            if order.order_id in owners:
                raise _same_folder(order, row, *owners[order.order_id])
        except (_RowProblem, _RowProblems) as exc:
            found = exc.problems if isinstance(exc, _RowProblems) else [exc]
            for one in found:
                column, what, fix = one.problem
                result.problems.append(Problem(row.number, column, what, fix))
            continue
        owners[order.order_id] = (row.number, _order_source(order))
        result.orders.append(
            Order(**{**order.__dict__, "fingerprint": fingerprint(order, deck, settings)})
        )
    return result
