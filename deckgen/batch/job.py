"""Building one order: the work a pool worker or a queue worker does for a row.

Takes an :class:`~deckgen.batch.orders.Order`, the batch settings and the output
folder; builds the deck into a staging folder (``deck build`` with the deck's own
print outputs), records the order in ``manifest.json``, publishes the folder by
renaming it to ``<out>/<order>/`` and, if asked, zips it. Gives an
:class:`~deckgen.batch.outcome.Outcome`; a user error in the row is a ``failed``
outcome with its message, never an exception.
"""

from __future__ import annotations

import os
import shutil
import time
import traceback
from pathlib import Path

from deckgen import __version__
from deckgen.batch import publish
from deckgen.batch.deckload import load_order_deck
from deckgen.batch.order import Order
from deckgen.batch.outcome import Outcome
from deckgen.batch.settings import BatchSettings
from deckgen.deck.build import OutputStep
from deckgen.errors import DeckgenError
from deckgen.export.tts import FINAL_DIR_OPTION
from deckgen.prepress.printout import PrintOptions
from deckgen.prepress.printstep import options_for
from deckgen.product import build_printed_deck
from deckgen.progress import CollectingReporter, Reporter

BUILD_MODULES = (
    "deckgen.deck.render",
    "deckgen.deck.preview",
    "deckgen.prepress.printstep",
    "deckgen.prepress.preflight",
    "deckgen.booklet.shortrules",
    "PIL.Image",
    "pikepdf",
    "pypdfium2",
    "pyphen",
)
"""What drawing and checking a deck imports on first use (most of it lazily)."""


def preload() -> None:
    """Import what building a deck uses, once, in a process that forks a child per job.

    A queue worker forks a work horse for every job; what the worker has imported
    the horses inherit, so no job pays for loading the drawing code again.
    """
    import importlib

    for name in BUILD_MODULES:
        importlib.import_module(name)


def order_record(order: Order) -> dict[str, object]:
    """What ``manifest.json`` says about the order under the key ``order``."""
    return {
        "id": order.order_id,
        "sheet": Path(order.sheet).name,
        "row": order.row,
        "quantity": order.quantity,
        "inputs_sha256": order.fingerprint,
        "deckgen_version": __version__,
    }


def output_steps(settings: BatchSettings, options: PrintOptions) -> list[OutputStep]:
    """The export steps a deck of the batch runs before the print step (``options``:
    its print options, the deck's preset resolved)."""
    from deckgen.export.steps import export_steps_for

    return export_steps_for(tts=settings.tts, preset=options.preset)


def build_order(
    order: Order, settings: BatchSettings, out_dir: Path, reporter: Reporter | None = None
) -> Outcome:
    """Build, publish and (if asked) zip one order's deck."""
    started = time.monotonic()
    reporter = reporter or CollectingReporter()
    target = out_dir / order.order_id
    stage: Path | None = None
    try:
        if os.path.lexists(target):  # before any work: never replace what a batch did not build
            publish.check_replaceable(target)
        deck = load_order_deck(order, settings)
        options = options_for(PrintOptions(), deck)  # the deck's preset, resolved once
        stage = publish.staging_folder(out_dir, order.order_id)
        result = build_printed_deck(
            deck,
            stage,
            options,
            reporter=reporter,
            preview=settings.preview,
            extra_steps=output_steps(settings, options),
            step_options={FINAL_DIR_OPTION: target.absolute()},
        )
        publish.add_order_to_manifest(stage, order_record(order))
        reporter.start("publishing", None)
        publish.publish(stage, target)
        stage = None
        zip_file = finish_zip(order, settings, out_dir)
    except DeckgenError as exc:
        return Outcome(order.row, order.order_id, "failed", exc.message(), quantity=order.quantity)
    except Exception as exc:  # a bug: keep the batch going, report it with its traceback
        detail = "".join(traceback.format_exception_only(exc)).strip()
        return Outcome(
            order.row,
            order.order_id,
            "failed",
            f"internal error ({detail}); please report it with:\n{traceback.format_exc()}",
            quantity=order.quantity,
        )
    finally:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
    return Outcome(
        order.row,
        order.order_id,
        "built",
        folder=str(target),
        quantity=order.quantity,
        seconds=time.monotonic() - started,
        warnings=list(result.warnings),
        zip=str(zip_file) if zip_file else None,
    )


def finish_zip(order: Order, settings: BatchSettings, out_dir: Path) -> Path | None:
    """Write the order's zip if asked and it is missing or stale; its path (or None)."""
    if not settings.make_zip:
        return None
    path = publish.zip_path(out_dir, order.order_id)
    if not publish.zip_is_current(path, order.fingerprint):
        publish.write_zip(out_dir / order.order_id, path, order.fingerprint)
    return path


def skipped_outcome(order: Order, settings: BatchSettings, out_dir: Path) -> Outcome | None:
    """A ``skipped`` outcome when the order's finished deck is current, else None."""
    target = out_dir / order.order_id
    if publish.finished_fingerprint(target) != order.fingerprint:
        return None
    zip_file = finish_zip(order, settings, out_dir)
    return Outcome(
        order.row,
        order.order_id,
        "skipped",
        "already built from the same inputs",
        folder=str(target),
        quantity=order.quantity,
        zip=str(zip_file) if zip_file else None,
    )
