"""``deckgen batch orders.csv`` as a library call: a spreadsheet in, a folder per order out.

:func:`run_batch` reads the sheet, validates every row before anything is built,
skips the rows whose finished deck is current, builds the rest on the local process
pool (or, with a queue URL, on workers of a Redis queue) and gives a
:class:`~deckgen.batch.outcome.BatchSummary` with a line per row.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from deckgen.batch.events import BatchObserver, SilentObserver
from deckgen.batch.order import Order
from deckgen.batch.orders import BatchInvalidError, Validated, validate_sheet
from deckgen.batch.outcome import BatchSummary, Outcome
from deckgen.batch.settings import BatchSettings
from deckgen.batch.sheet import read_sheet


@dataclass(frozen=True)
class RunOptions:
    """How to run a batch (as opposed to what each deck looks like: BatchSettings)."""

    out_dir: Path | None = None
    """Where the order folders go (default: ``output/<spreadsheet name>/``)."""
    jobs: int = 0
    """Worker processes (0: one per core)."""
    keep_going: bool = False
    """Build the valid rows even when others are invalid."""
    queue_url: str | None = None
    """``redis://host:port/db``: enqueue the rows as jobs instead of building here."""
    insecure_redis: bool = False
    """Accept a Redis server on another machine without password or TLS."""


def default_out_dir(sheet: Path) -> Path:
    from deckgen.resources import default_output_dir

    return default_output_dir() / sheet.stem


def _invalid_outcomes(validated: Validated) -> list[Outcome]:
    out = []
    for row in validated.bad_rows:
        texts = [p.text(with_row=False) for p in validated.problems if p.row == row]
        out.append(Outcome(row, "", "invalid", "; ".join(texts)))
    return out


def check_batch(sheet_file: str | Path, settings: BatchSettings) -> Validated:
    """Only validate the sheet (``deckgen batch --check``)."""
    return validate_sheet(read_sheet(sheet_file), settings)


def run_batch(
    sheet_file: str | Path,
    settings: BatchSettings,
    options: RunOptions,
    observer: BatchObserver | None = None,
) -> BatchSummary:
    """Validate, then build every row that is not built yet; a summary of every row."""
    started = time.monotonic()
    observer = observer or SilentObserver()
    validated = check_batch(sheet_file, settings)
    sheet_path = validated.sheet.path
    if validated.problems and (not options.keep_going or not validated.orders):
        raise BatchInvalidError(validated)
    out_dir = Path(options.out_dir) if options.out_dir else default_out_dir(sheet_path)
    outcomes = _invalid_outcomes(validated)
    if options.queue_url:
        from deckgen.batch.rqueue import run_on_queue

        outcomes += run_on_queue(
            validated.orders,
            settings,
            out_dir,
            options.queue_url,
            observer,
            insecure=options.insecure_redis,
        )
    else:
        outcomes += _run_local(validated.orders, settings, out_dir, options, observer)
    outcomes.sort(key=lambda o: o.row)
    return BatchSummary(sheet_path, out_dir, outcomes, time.monotonic() - started)


def _run_local(
    orders: list[Order],
    settings: BatchSettings,
    out_dir: Path,
    options: RunOptions,
    observer: BatchObserver,
) -> list[Outcome]:
    from deckgen.batch.job import skipped_outcome
    from deckgen.batch.pool import run_pool
    from deckgen.batch.publish import batch_lock, remove_stale_staging

    with batch_lock(out_dir):
        remove_stale_staging(out_dir)
        outcomes: list[Outcome] = []
        todo: list[Order] = []
        for order in orders:
            skipped = skipped_outcome(order, settings, out_dir)
            if skipped is None:
                todo.append(order)
            else:
                outcomes.append(skipped)
        observer.batch_started(len(orders), len(todo))
        for outcome in outcomes:
            observer.deck_finished(outcome)
        jobs = options.jobs or os.cpu_count() or 1
        outcomes += run_pool(todo, settings, out_dir, jobs=jobs, observer=observer)
    return outcomes
