"""A deck of a batch is the deck ``deck build`` makes: the same bytes, the same warnings.

Batch workers keep prepared pictures for the next deck they build
(:mod:`deckgen.deck.picturecache`); these tests prove that the cache changes no output
byte: decks that share pictures (a photo, a transparent logo, a picture too small for
a sharp print) are built by one batch worker one after another and compared, file by
file, with separate ``deck build`` runs of the same deck files.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from batch_testkit import write_csv
from PIL import Image
from typer.testing import CliRunner

from deckgen.batch.run import RunOptions, run_batch
from deckgen.batch.settings import BatchSettings
from deckgen.cli import app
from deckgen.deck import picturecache
from deckgen.deck.build import build_deck
from deckgen.deck.spec import load_deck

COLUMNS = [
    "order",
    "name",
    "set",
    "faces.style",
    "faces.pictures",
    "back.logo",
    "cover.title",
    "cover.picture",
]


def _pictures(folder: Path) -> None:
    """A photo-like JPEG, a transparent PNG logo and a too-small JPEG."""
    photo = Image.radial_gradient("L").resize((900, 700)).convert("RGB")
    photo = Image.merge(
        "RGB", (photo.getchannel(0), photo.rotate(90).getchannel(0), photo.getchannel(0))
    )
    photo.save(folder / "photo.jpg", quality=90)
    logo = Image.new("RGBA", (300, 200), (0, 0, 0, 0))
    logo.paste((200, 40, 40, 255), (40, 40, 260, 160))
    logo.save(folder / "logo.png")
    # too small for 300 dpi (a warning), not so small that it is useless (an error)
    Image.linear_gradient("L").resize((160, 160)).convert("RGB").save(folder / "tiny.jpg")


def _rows(count: int) -> list[dict[str, str]]:
    return [
        {
            "order": f"shop-{i}",
            "name": f"Shop {i}",
            "set": "double-2",
            "faces.style": "pictures+pips",
            "faces.pictures": "photo.jpg;tiny.jpg" if i % 2 == 0 else "tiny.jpg;photo.jpg",
            "back.logo": "logo.png",
            "cover.title": f"Shop {i}",
            "cover.picture": "photo.jpg",  # the photo in a second box
        }
        for i in range(count)
    ]


def _deck_file(folder: Path, row: dict[str, str]) -> Path:
    pictures = ", ".join(f'"{p}"' for p in row["faces.pictures"].split(";"))
    path = folder / f"{row['order']}.toml"
    path.write_text(
        f'name = "{row["name"]}"\nset = "{row["set"]}"\n'
        f'[faces]\nstyle = "{row["faces.style"]}"\npictures = [{pictures}]\n'
        f'[back]\nlogo = "{row["back.logo"]}"\n[cover]\ntitle = "{row["cover.title"]}"\n'
        f'picture = "{row["cover.picture"]}"\n',
        encoding="utf-8",
    )
    return path


def _manifest_without_order(folder: Path) -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    manifest.pop("order", None)
    return manifest


def test_batch_decks_equal_deck_build_byte_for_byte(tmp_path: Path, runner: CliRunner) -> None:
    _pictures(tmp_path)
    rows = _rows(3)
    sheet = write_csv(tmp_path / "orders.csv", COLUMNS, rows)
    out = tmp_path / "batch"
    # One worker builds the three decks in turn: the second and third reuse its pictures.
    summary = run_batch(sheet, BatchSettings(), RunOptions(out_dir=out, jobs=1))
    assert [o.status for o in summary.outcomes] == ["built"] * 3
    for row, outcome in zip(rows, summary.outcomes, strict=True):
        single = tmp_path / "single" / row["order"]
        result = runner.invoke(
            app, ["deck", "build", str(_deck_file(tmp_path, row)), "--out", str(single)]
        )
        assert result.exit_code == 0, result.output
        batch = out / row["order"]
        names = sorted(p.name for p in single.iterdir())
        assert names == sorted(p.name for p in batch.iterdir())
        for name in names:
            if name != "manifest.json":
                assert (batch / name).read_bytes() == (single / name).read_bytes(), name
        assert _manifest_without_order(batch) == _manifest_without_order(single)
        # Pictures below 300 dpi are reported on every deck, also when they came from
        # the cache: once per picture and slot, by the build's preflight.
        low = [w for w in outcome.warnings if "tiny.jpg (" in w or "logo.png (" in w]
        assert len(low) == 2, outcome.warnings


@pytest.fixture
def shared_cache() -> Iterator[picturecache.PreparedCache[Any]]:
    cache = picturecache.enable_shared_cache()
    yield cache
    picturecache.disable_shared_cache()


def test_cache_prepares_a_shared_picture_once_and_sees_an_edited_file(
    tmp_path: Path, shared_cache: picturecache.PreparedCache[Any]
) -> None:
    _pictures(tmp_path)
    first, second = (_deck_file(tmp_path, row) for row in _rows(2))
    one = build_deck(load_deck(first), tmp_path / "one", preview=False)
    assert one.pictures_decoded == 3
    assert shared_cache.hits == 0
    two = build_deck(load_deck(second), tmp_path / "two", preview=False)
    assert two.pictures_decoded == 0  # every picture came from the first deck's work
    assert shared_cache.hits > 0
    picturecache.disable_shared_cache()
    alone = build_deck(load_deck(second), tmp_path / "alone", preview=False)
    assert alone.pictures_decoded == 3
    assert two.warnings == alone.warnings
    _same_files(tmp_path / "two", tmp_path / "alone")

    # After the photo changed (same size, same time stamps) the cache goes by content:
    # the new photo is decoded and drawn.
    cache = picturecache.enable_shared_cache()
    build_deck(load_deck(second), tmp_path / "warm", preview=False)
    photo = tmp_path / "photo.jpg"
    stat = photo.stat()
    Image.new("RGB", (900, 700), (10, 200, 30)).save(photo, quality=90)
    os.utime(photo, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    again = build_deck(load_deck(second), tmp_path / "again", preview=False)
    assert again.pictures_decoded == 1
    assert cache.hits > 0
    picturecache.disable_shared_cache()
    build_deck(load_deck(second), tmp_path / "fresh", preview=False)
    _same_files(tmp_path / "again", tmp_path / "fresh")
    assert (tmp_path / "again" / "cards.pdf").read_bytes() != (
        tmp_path / "two" / "cards.pdf"
    ).read_bytes()


def _same_files(left: Path, right: Path) -> None:
    for name in ("cards.pdf", "back.pdf"):
        assert (left / name).read_bytes() == (right / name).read_bytes(), name
