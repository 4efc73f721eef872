"""A batch replaces only deck folders a batch built: never a user's own folder or file.

An order's folder name comes from the spreadsheet, or, on a queue, from whoever wrote
the job; ``--out ~`` with a row named ``documents`` must not delete ``~/documents``.
"""

from __future__ import annotations

from pathlib import Path

from batch_testkit import SMALL_COLUMNS, check_complete, small_orders, write_csv

from deckgen.batch.run import RunOptions, run_batch
from deckgen.batch.settings import BatchSettings


def test_a_folder_or_file_that_is_no_batch_deck_is_left_alone(tmp_path: Path) -> None:
    rows = small_orders(3)
    rows[0]["order"], rows[1]["order"] = "documents", "notes"
    sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, rows)
    out = tmp_path / "home"
    (out / "documents").mkdir(parents=True)
    (out / "documents" / "thesis.txt").write_text("years of work", encoding="utf-8")
    (out / "notes").write_text("a file", encoding="utf-8")
    settings = BatchSettings(preview=False)
    summary = run_batch(sheet, settings, RunOptions(out, jobs=1, keep_going=True))
    status = {o.order: o for o in summary.outcomes}
    assert status["documents"].status == "failed"
    assert "already exists and is not a deck folder a batch built" in status["documents"].reason
    assert status["notes"].status == "failed"
    assert (out / "documents" / "thesis.txt").read_text(encoding="utf-8") == "years of work"
    assert (out / "notes").read_text(encoding="utf-8") == "a file"
    assert status["deck-02"].status == "built"
    first = check_complete(out / "deck-02")["order"]["inputs_sha256"]
    # a deck folder a batch built is replaced when its inputs change
    rows[2]["name"] = "Renamed"
    write_csv(sheet, SMALL_COLUMNS, rows[2:])
    again = run_batch(sheet, settings, RunOptions(out, jobs=1))
    assert [o.status for o in again.outcomes] == ["built"]
    assert check_complete(out / "deck-02")["order"]["inputs_sha256"] != first
