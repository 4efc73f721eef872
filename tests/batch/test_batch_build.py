"""Building a batch: one complete folder per order, resumable after kill -9 and Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from batch_testkit import SMALL_COLUMNS, check_complete, deck_folders, small_orders, write_csv
from typer.testing import CliRunner

from deckgen.batch.run import RunOptions, check_batch, run_batch
from deckgen.batch.settings import BatchSettings
from deckgen.cli import app

DECKGEN = [sys.executable, "-m", "deckgen"]


def test_starter_spreadsheets_build_as_they_are(tmp_path: Path, runner: CliRunner) -> None:
    result = runner.invoke(app, ["batch", "new", str(tmp_path / "csv" / "orders.csv")])
    assert result.exit_code == 0, result.output
    validated = check_batch(tmp_path / "csv" / "orders.csv", BatchSettings())
    assert not validated.problems
    assert [o.order_id for o in validated.orders] == [
        "acme-hamburg",
        "family-photos",
        "acme-berlin",
    ]
    again = runner.invoke(app, ["batch", "new", str(tmp_path / "csv" / "orders.csv")])
    assert again.exit_code == 2
    assert "already exists" in again.output

    sheet = tmp_path / "xlsx" / "orders.xlsx"
    assert runner.invoke(app, ["batch", "new", str(sheet)]).exit_code == 0
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["batch", str(sheet), "--out", str(out), "--zip", "--json", "--no-preview"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["totals"] == {"built": 3, "skipped": 0, "failed": 0, "invalid": 0}
    quantities = {}
    for folder in deck_folders(out):
        manifest = check_complete(folder)
        quantities[folder.name] = manifest["order"]["quantity"]
        with zipfile.ZipFile(out / f"{folder.name}.zip") as zf:
            assert f"{folder.name}/cards.pdf" in zf.namelist()
            assert zf.comment.decode() == manifest["order"]["inputs_sha256"]
    assert quantities == {"acme-hamburg": 50, "family-photos": 2, "acme-berlin": 25}
    berlin = json.loads((out / "acme-berlin" / "manifest.json").read_text())
    assert berlin["faces"]["style"] == "numerals"  # from house-deck.toml
    assert berlin["set"] == "double-6"


def test_resume_skips_what_is_current_and_rebuilds_what_changed(tmp_path: Path) -> None:
    sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, small_orders(3))
    out = tmp_path / "out"
    settings = BatchSettings(preview=False)
    first = run_batch(sheet, settings, RunOptions(out_dir=out, jobs=1))
    assert [o.status for o in first.outcomes] == ["built"] * 3
    before = (out / "deck-01" / "cards.pdf").stat().st_mtime_ns
    second = run_batch(sheet, settings, RunOptions(out_dir=out, jobs=1))
    assert [o.status for o in second.outcomes] == ["skipped"] * 3
    assert (out / "deck-01" / "cards.pdf").stat().st_mtime_ns == before
    rows = small_orders(3)
    rows[1]["back.background"] = "#00ff00"
    write_csv(sheet, SMALL_COLUMNS, rows)
    third = run_batch(sheet, settings, RunOptions(out_dir=out, jobs=1))
    assert [o.status for o in third.outcomes] == ["skipped", "built", "skipped"]
    manifest = check_complete(out / "deck-01")
    assert manifest["order"]["row"] == 3
    assert not list((out / ".staging").iterdir())


def test_keep_going_builds_the_good_rows(tmp_path: Path, runner: CliRunner) -> None:
    rows = small_orders(2)
    rows[0]["set"] = "double-99"
    sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, rows)
    out = tmp_path / "out"
    refused = runner.invoke(app, ["batch", str(sheet), "--out", str(out)])
    assert refused.exit_code == 2
    assert "row 2, column set: 'double-99' is not a domino set" in refused.output
    assert not out.exists()
    result = runner.invoke(
        app, ["batch", str(sheet), "--out", str(out), "--keep-going", "--no-preview"]
    )
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("row   2")
    assert "invalid" in lines[0]
    assert "double-99" in lines[0]
    assert lines[1].startswith("row   3")
    assert "built" in lines[1]
    assert [p.name for p in deck_folders(out)] == ["deck-01"]


def _alive_in_group(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _wait_for(condition: object, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_killed_batch_leaves_no_half_deck_and_resumes(tmp_path: Path, sig: int) -> None:
    count = 5
    sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, small_orders(count))
    out = tmp_path / "out"
    command = [*DECKGEN, "batch", str(sheet), "--out", str(out), "-j", "2", "--no-preview", "-q"]
    proc = subprocess.Popen(
        command, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        published = _wait_for(lambda: out.is_dir() and len(deck_folders(out)) >= 1, 60)
        assert published, proc.communicate(timeout=5)
        if sig == signal.SIGINT:
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
        else:
            os.kill(proc.pid, signal.SIGKILL)  # only the parent: its workers must follow
        _, err = proc.communicate(timeout=30)
        assert _wait_for(lambda: not _alive_in_group(proc.pid), 10), "workers outlived the batch"
    finally:
        if proc.poll() is None or _alive_in_group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    if sig == signal.SIGINT:
        assert proc.returncode == 130
        assert b"run the same command again" in err
    done = deck_folders(out)
    assert 1 <= len(done) < count, "the kill came too late to test anything"
    for folder in done:
        check_complete(folder)
    resumed = subprocess.run(
        [*DECKGEN, "batch", str(sheet), "--out", str(out), "-j", "2", "--no-preview", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    totals = json.loads(resumed.stdout)["totals"]
    assert totals["skipped"] == len(done)
    assert totals["built"] == count - len(done)
    assert len(deck_folders(out)) == count
    for folder in deck_folders(out):
        check_complete(folder)
    assert not list((out / ".staging").iterdir())


def test_a_deck_with_a_preset_loads_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row naming a vendor preset: the deck is built (here, in this process, as a
    batch worker builds it) with the preset resolved once, with the print options that
    the exports and the print step both take."""
    import deckgen.prepress.printstep  # noqa: F401  (loaded before the name is counted)
    from deckgen.batch.job import build_order
    from deckgen.prepress import presets

    real_load = presets.load_preset
    loads: list[str] = []

    def load(name: str, *args: object, **kwargs: object) -> presets.VendorPreset:
        loads.append(name)
        return real_load(name, *args, **kwargs)  # type: ignore[arg-type]

    for module in list(sys.modules.values()):  # every module that imported the name
        if getattr(module, "load_preset", None) is real_load:
            monkeypatch.setattr(module, "load_preset", load)
    row = {**small_orders(1)[0], "preset": "home-a4"}
    sheet = write_csv(tmp_path / "orders.csv", [*SMALL_COLUMNS, "preset"], [row])
    settings = BatchSettings(preview=False)
    (order,) = check_batch(sheet, settings).orders
    out = tmp_path / "out"
    outcome = build_order(order, settings, out)
    assert outcome.status == "built", outcome.reason
    assert loads == ["home-a4"], f"the preset was loaded {len(loads)} times: {loads}"
    manifest = check_complete(out / "deck-00")
    assert manifest["preset"] == "home-a4"
    assert (out / "deck-00" / "sheets.pdf").is_file(), "home-a4 prints sheets"
