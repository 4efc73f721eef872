"""Row problems say the row, the column and the true reason.

A picture path longer than the file system allows, a FIFO, a folder; an order id
Windows reserves for a device; two distinct order ids that end up as one folder name.
"""

from __future__ import annotations

import os
from pathlib import Path

from batch_testkit import write_csv
from typer.testing import CliRunner

from deckgen.batch.orders import Problem, validate_sheet
from deckgen.batch.settings import BatchSettings
from deckgen.batch.sheet import read_sheet
from deckgen.cli import app

COLUMNS = ["order", "name", "set", "faces.style", "back.logo"]


def _problems(sheet: Path) -> dict[int, Problem]:
    validated = validate_sheet(read_sheet(sheet), BatchSettings())
    found = {p.row: p for p in validated.problems if p.row is not None}
    assert len(found) == len(validated.problems), validated.problems
    return found


def _row(order: str, logo: str = "") -> dict[str, str]:
    return {"order": order, "name": order.title(), "set": "double-2", "faces.style": "pips"} | (
        {"back.logo": logo} if logo else {}
    )


def test_a_path_too_long_a_fifo_and_a_folder_each_get_their_row_and_reason(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.png")
    (tmp_path / "folder.png").mkdir()
    rows = [
        _row("long-name", "n" * 300 + ".png"),
        _row("long-path", "/".join(["d" * 200] * 30) + ".png"),
        _row("fifo", "pipe.png"),
        _row("folder", "folder.png"),
        _row("missing", "nowhere.png"),
        _row("fine"),
    ]
    sheet = write_csv(tmp_path / "o.csv", COLUMNS, rows)
    found = _problems(sheet)
    assert sorted(found) == [2, 3, 4, 5, 6], found
    assert all(p.column == "back.logo" for p in found.values())
    for row in (2, 3):
        assert "the file name is too long" in found[row].what
        assert "shorten the file and folder names" in found[row].fix
        assert "space" not in found[row].text()
    assert "is a named pipe (FIFO), not a file" in found[4].what
    assert "does not exist" not in found[4].what
    assert "is a folder, not a file" in found[5].what
    assert "name a file inside that folder" in found[5].fix
    assert "does not exist" in found[6].what
    assert str(tmp_path / "nowhere.png") in found[6].fix
    # the whole check runs: every row is reported, exit 1 (rows invalid), not 2
    result = CliRunner().invoke(app, ["batch", str(sheet), "--check"])
    assert result.exit_code == 1, result.output
    assert "row 2, column back.logo:" in result.output
    assert "1 of 6 rows are valid" in result.output


def test_an_order_id_windows_reserves_is_refused(tmp_path: Path) -> None:
    rows = [_row("CON"), _row("aux"), _row("Lpt1"), _row("com7"), _row("con-1"), _row("nul.txt")]
    sheet = write_csv(tmp_path / "o.csv", COLUMNS, rows)
    found = _problems(sheet)
    assert sorted(found) == [2, 3, 4, 5]
    assert found[2].column == "order"
    assert "the order id 'CON' would be the folder name 'con'" in found[2].what
    assert "Windows reserves for a device" in found[2].what
    assert "'con-1'" in found[2].fix
    # from the name, when the order column is empty
    unnamed = write_csv(
        tmp_path / "n.csv", COLUMNS, [{"name": "Prn", "set": "double-2", "faces.style": "pips"}]
    )
    (problem,) = _problems(unnamed).values()
    assert problem.column == "name"
    assert "'prn'" in problem.what


def test_distinct_order_ids_that_become_one_folder_name_both_rows_named(tmp_path: Path) -> None:
    long_a, long_b = "x" * 60 + "-north", "x" * 60 + "-south"
    rows = [_row(long_a), _row(long_b), _row("Acme Berlin"), _row("acme-berlin")]
    rows += [_row("same"), _row("same")]
    found = _problems(write_csv(tmp_path / "o.csv", COLUMNS, rows))
    assert sorted(found) == [3, 5, 7]
    cut = found[3].what
    assert "rows 2 and 3" in cut
    assert "'…xxxxxxxxxx-north' and '…xxxxxxxxxx-south'" in cut
    assert "differ only after their first 60 characters" in cut
    assert "is also row" not in cut
    folded = found[5].what
    assert "'Acme Berlin' (row 4) and 'acme-berlin' (row 5)" in folded
    assert "both would be the folder 'acme-berlin'" in folded
    assert found[7].what == "the order 'same' is also row 6's"
