"""Reading spreadsheets and validating rows: every problem names row, column and fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from batch_testkit import write_csv

from deckgen.batch.columns import deck_columns, split_list
from deckgen.batch.orders import BatchInvalidError, validate_sheet
from deckgen.batch.run import RunOptions, run_batch
from deckgen.batch.settings import BatchSettings
from deckgen.batch.sheet import column_letter, read_sheet
from deckgen.errors import DeckgenError, InputError, SpecError


def test_columns_follow_the_deck_file_model() -> None:
    columns = deck_columns()
    assert columns["cover.title"].kind == "text"
    assert columns["back.logo"].kind == "path"
    assert columns["faces.pictures"].kind == "path-list"
    assert columns["faces.colours"].kind == "list"
    assert columns["fonts.regular"].kind == "path"
    assert columns["faces.pictures.7"].kind == "path"
    assert split_list(" a.png ; b.png;;c.png ") == ["a.png", "b.png", "c.png"]
    assert [column_letter(i) for i in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]


def test_csv_semicolons_bom_and_row_numbers(tmp_path: Path) -> None:
    path = tmp_path / "o.csv"
    path.write_bytes("\ufeffName;Set\nA;double-3\n;\nB;double-4\n".encode())
    sheet = read_sheet(path)
    assert sheet.columns == ["name", "set"]
    assert [(r.number, r.cells["name"]) for r in sheet.rows] == [(2, "A"), (4, "B")]


def test_xlsx_is_read_like_csv(tmp_path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    ws = book.active
    assert ws is not None
    ws.append(["name", "quantity", "card.corner_index"])
    ws.append(["Deck A", 12, False])
    ws.append([None, None, None])
    ws.append(["Deck B", 3.0, True])
    book.save(tmp_path / "o.xlsx")
    sheet = read_sheet(tmp_path / "o.xlsx")
    assert [(r.number, r.cells) for r in sheet.rows] == [
        (2, {"name": "Deck A", "quantity": "12", "card.corner_index": "false"}),
        (4, {"name": "Deck B", "quantity": "3", "card.corner_index": "true"}),
    ]


def test_not_a_spreadsheet(tmp_path: Path) -> None:
    (tmp_path / "o.txt").write_text("x")
    with pytest.raises(InputError, match=r"neither a \.csv nor an \.xlsx"):
        read_sheet(tmp_path / "o.txt")
    (tmp_path / "o.xlsx").write_bytes(b"not a zip")
    with pytest.raises(SpecError, match="not an Excel workbook"):
        read_sheet(tmp_path / "o.xlsx")
    (tmp_path / "b.csv").write_bytes(b"name\n\xff\xfe\n")
    with pytest.raises(SpecError, match="not UTF-8"):
        read_sheet(tmp_path / "b.csv")


def test_unknown_and_duplicate_columns(tmp_path: Path) -> None:
    sheet = write_csv(tmp_path / "o.csv", ["name", "titel"], [{"name": "x"}])
    with pytest.raises(SpecError, match=r"column B .*'titel'.*did you mean 'cover.title'"):
        validate_sheet(read_sheet(sheet), BatchSettings())
    (tmp_path / "d.csv").write_text("name,Name\nx,y\n")
    with pytest.raises(SpecError, match="appears twice"):
        read_sheet(tmp_path / "d.csv")


def test_every_row_is_validated_before_anything_is_built(tmp_path: Path) -> None:
    (tmp_path / "logo.png").write_bytes(b"this is text, not a picture")
    columns = ["order", "name", "set", "faces.style", "back.logo", "quantity", "deck"]
    rows = [
        {"order": "good", "name": "Good", "set": "double-2"},
        {"order": "b", "name": "B", "faces.style": "photo"},
        {"order": "c", "name": "C", "back.logo": "../outside.png"},
        {"order": "d", "name": "D", "back.logo": "missing.png", "quantity": "two"},
        {"order": "e", "name": "E", "set": "double-99"},
        {"order": "good", "name": "Again"},
        {"order": "g", "deck": "nofile.toml"},
        {"order": "h"},
        {"order": "i", "name": "I", "back.logo": "logo.png"},
    ]
    sheet = write_csv(tmp_path / "o.csv", columns, rows)
    validated = validate_sheet(read_sheet(sheet), BatchSettings())
    assert [o.order_id for o in validated.orders] == ["good"]
    found = {(p.row, p.column) for p in validated.problems}
    assert found == {
        (3, "faces.style"),
        (4, "back.logo"),
        (5, "back.logo"),
        (5, "quantity"),
        (6, "set"),
        (7, "order"),
        (8, "deck"),
        (9, "name"),
        (10, "back.logo"),
    }
    texts = "\n".join(p.text() for p in validated.problems)
    assert "row 4, column back.logo: the path '../outside.png' leads outside" in texts
    assert "row 5, column quantity: 'two' is not a number of decks; write a whole number" in texts
    assert "row 10, column back.logo: the file 'logo.png' is not a picture" in texts
    with pytest.raises(BatchInvalidError) as caught:
        run_batch(sheet, BatchSettings(), RunOptions(out_dir=tmp_path / "out"))
    message = caught.value.message()
    assert "8 of 9 rows" in message
    assert "--keep-going" in message
    assert not (tmp_path / "out").exists()


def test_a_row_overrides_its_deck_file_and_paths_stay_in_the_folder(tmp_path: Path) -> None:
    from PIL import Image

    (tmp_path / "decks").mkdir()
    Image.new("RGB", (50, 50), "red").save(tmp_path / "decks" / "logo.png")
    (tmp_path / "decks" / "house.toml").write_text(
        'name = "House"\nset = "double-3"\n[back]\nlogo = "logo.png"\n[cover]\ntitle = "House"\n'
    )
    (tmp_path / "decks" / "escape.toml").write_text(
        'name = "Escape"\n[back]\nlogo = "../../elsewhere.png"\n'
    )
    sheet = write_csv(
        tmp_path / "o.csv",
        ["deck", "cover.title", "order"],
        [
            {"deck": "decks/house.toml", "cover.title": "Branch", "order": "one"},
            {"deck": "decks/escape.toml", "order": "two"},
        ],
    )
    validated = validate_sheet(read_sheet(sheet), BatchSettings())
    (order,) = validated.orders
    assert order.data["cover"]["title"] == "Branch"
    assert order.data["set"] == "double-3"
    assert order.data["back"]["logo"] == str((tmp_path / "decks" / "logo.png").resolve())
    (problem,) = validated.problems
    assert (problem.row, problem.column) == (3, "deck")
    assert "outside" in problem.what


def test_per_value_picture_columns(tmp_path: Path) -> None:
    from PIL import Image

    for v in (1, 2):
        Image.new("RGB", (40, 40), "blue").save(tmp_path / f"p{v}.png")
    sheet = write_csv(
        tmp_path / "o.csv",
        ["name", "set", "faces.style", "faces.pictures.1", "faces.pictures.2"],
        [
            {
                "name": "A",
                "set": "double-2",
                "faces.style": "pictures",
                "faces.pictures.1": "p1.png",
                "faces.pictures.2": "p2.png",
            },
            {
                "name": "B",
                "set": "double-2",
                "faces.style": "pictures",
                "faces.pictures.2": "p2.png",
            },
        ],
    )
    validated = validate_sheet(read_sheet(sheet), BatchSettings())
    assert [o.name for o in validated.orders] == ["A"]
    assert len(validated.orders[0].data["faces"]["pictures"]) == 2
    (problem,) = validated.problems
    assert problem.column == "faces.pictures.1"


def test_fingerprint_follows_the_inputs(tmp_path: Path) -> None:
    from PIL import Image

    Image.new("RGB", (40, 40), "blue").save(tmp_path / "logo.png")
    sheet = write_csv(
        tmp_path / "o.csv", ["name", "back.logo"], [{"name": "A", "back.logo": "logo.png"}]
    )

    def fp(settings: BatchSettings | None = None) -> str:
        settings = settings or BatchSettings()
        return validate_sheet(read_sheet(sheet), settings).orders[0].fingerprint

    first = fp()
    assert fp() == first
    assert fp(BatchSettings(preview=False)) != first
    assert fp(BatchSettings(make_zip=True)) == first
    Image.new("RGB", (40, 40), "green").save(tmp_path / "logo.png")
    assert fp() != first


def test_errors_are_deckgen_errors() -> None:
    assert issubclass(BatchInvalidError, DeckgenError)


def test_progress_bars_per_deck_and_overall() -> None:
    import io

    from rich.console import Console

    from deckgen.batch.outcome import Outcome
    from deckgen.cli.batch import ProgressObserver

    observer = ProgressObserver(quiet=False)
    buffer = io.StringIO()
    observer.err = Console(file=buffer, force_terminal=True, width=100)
    observer.live = True
    observer.batch_started(2, 2)
    observer.deck_event(("a", "start", "Deck A", None))
    observer.deck_event(("a", "step", "drawing cards", 4))
    observer.deck_event(("a", "advance", "", 3))
    assert observer.progress is not None
    task = observer.progress.tasks[-1]
    assert (task.description, task.completed, task.total) == ("  a: drawing cards", 3, 4)
    observer.deck_event(("a", "step", "preflight", None))
    assert observer.progress.tasks[-1].total is None
    observer.deck_finished(Outcome(2, "a", "built", folder="out/a"))
    assert [t.description for t in observer.progress.tasks] == ["[bold]all decks"]
    assert observer.progress.tasks[0].completed == 1
    observer.stop()
    assert "all decks" in buffer.getvalue()
