"""The local executor: orders built in parallel by a pool of worker processes.

One worker per core by default (``--jobs``), started fresh (``spawn``: no state
copied from a process that runs threads) and kept for the whole batch, so the drawing
code is loaded once per worker, not once per deck, and a picture that many decks share
is prepared once per worker (:mod:`deckgen.deck.picturecache`). Each worker asks the kernel to kill
it when its parent dies (``PR_SET_PDEATHSIG``, through the one implementation,
:func:`deckgen.workers.die_with_parent`), so a batch killed with ``kill -9`` leaves no
workers behind. Workers report progress through a queue that the batch turns into
:class:`~deckgen.batch.events.BatchObserver` calls.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import signal
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from deckgen.batch.events import BatchObserver, Event
from deckgen.batch.order import Order
from deckgen.batch.outcome import Outcome
from deckgen.batch.settings import BatchSettings
from deckgen.workers import die_with_parent

_events: Any = None


def _init_worker(events: Any, parent_pid: int) -> None:
    """Worker start-up: die with the batch (``parent_pid``, read in the batch, not here:
    a worker that starts after the batch was killed must not take its new parent, PID 1,
    for the batch), ignore Ctrl-C, keep prepared pictures for later decks."""
    global _events
    die_with_parent(parent_pid)  # exits at once if the batch died already
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the batch decides what Ctrl-C does
    _events = events
    from deckgen.deck.picturecache import enable_shared_cache

    enable_shared_cache()  # a picture on many decks of this worker is prepared once


class QueueReporter:
    """A :class:`~deckgen.progress.Reporter` that sends a deck's progress to the batch."""

    def __init__(self, order_id: str, events: Any) -> None:
        self.order_id = order_id
        self.events = events
        self.warnings: list[str] = []

    def _send(self, event: Event) -> None:
        if self.events is not None:
            with contextlib.suppress(Exception):
                self.events.put_nowait(event)

    def start(self, description: str, total: int | None) -> None:
        self._send((self.order_id, "step", description, total))

    def advance(self, steps: int = 1) -> None:
        self._send((self.order_id, "advance", "", steps))

    def finish(self) -> None:
        pass

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    def info(self, message: str) -> None:
        pass


def _build_in_worker(order: Order, settings: BatchSettings, out_dir: Path) -> Outcome:
    from deckgen.batch.job import build_order

    reporter = QueueReporter(order.order_id, _events)
    reporter._send((order.order_id, "start", order.name, None))
    return build_order(order, settings, out_dir, reporter=reporter)


def _drain(events: Any, observer: BatchObserver) -> None:
    while True:
        try:
            event = events.get_nowait()
        except (queue.Empty, OSError, ValueError):
            return
        observer.deck_event(event)


def run_pool(
    orders: list[Order],
    settings: BatchSettings,
    out_dir: Path,
    *,
    jobs: int,
    observer: BatchObserver,
) -> list[Outcome]:
    """Build ``orders`` on ``jobs`` worker processes; every outcome, in finishing order."""
    if not orders:
        return []
    ctx = multiprocessing.get_context("spawn")
    events = ctx.Queue()
    pool = ProcessPoolExecutor(
        max_workers=max(1, min(jobs, len(orders))),
        mp_context=ctx,
        initializer=_init_worker,
        initargs=(events, os.getpid()),
    )
    outcomes: list[Outcome] = []
    clean = False
    try:
        pending: dict[Future[Outcome], Order] = {
            pool.submit(_build_in_worker, order, settings, out_dir): order for order in orders
        }
        while pending:
            done, _ = wait(list(pending), timeout=0.1, return_when=FIRST_COMPLETED)
            _drain(events, observer)
            for future in done:
                order = pending.pop(future)
                try:
                    outcome = future.result()
                except BrokenProcessPool:
                    outcome = Outcome(
                        order.row,
                        order.order_id,
                        "failed",
                        "its worker process died (out of memory, or killed); run the "
                        "batch again to retry it",
                        quantity=order.quantity,
                    )
                outcomes.append(outcome)
                observer.deck_finished(outcome)
        clean = True
    finally:
        if not clean:  # Ctrl-C or an error: stop the workers now, not after their decks
            for process in list(getattr(pool, "_processes", {}).values()):
                with contextlib.suppress(Exception):
                    process.kill()
        pool.shutdown(wait=clean, cancel_futures=True)
        events.close()
        events.join_thread()
    return outcomes
