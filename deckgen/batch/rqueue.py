"""The queue executor: orders as jobs on an RQ queue in Redis, built by ``deckgen worker``.

``deckgen batch orders.csv --queue redis://host:6379/0`` validates the sheet, skips the
finished decks, enqueues one job per remaining row and waits for them, reporting each
as it finishes; ``deckgen worker --queue ...`` (on any number of machines that see the
same output folder) takes jobs and builds them exactly as the local pool does
(:func:`deckgen.batch.job.build_order`: staging folder, publish by rename).

A worker killed in the middle of a job is noticed by the others: every job carries a
retry, and a job whose worker stopped sending heartbeats is put back on the queue by
RQ's own clean-up of abandoned jobs, which a worker runs every ``check_every_s``
seconds. The work horse that runs a job dies with its worker.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen.batch.order import Order
from deckgen.batch.outcome import Outcome
from deckgen.batch.settings import BatchSettings
from deckgen.errors import InputError

if TYPE_CHECKING:
    from deckgen.batch.events import BatchObserver

QUEUE_NAME = "deckgen-decks"
JOB_TIMEOUT_S = 3600
RETRIES = 2
POLL_S = 0.25


@dataclass(frozen=True)
class WorkerTiming:
    """How quickly a worker notices a dead colleague's job (seconds)."""

    check_every_s: int = 30
    """How often the worker looks for abandoned jobs (and how long it blocks on the queue)."""
    heartbeat_s: int = 10
    """How often a busy worker says it is alive."""
    grace_s: int = 30
    """How long after its last heartbeat a job counts as abandoned."""


def _connect(url: str) -> Any:
    from redis import Redis
    from redis.exceptions import RedisError

    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise InputError(
            f"'{url}' is not a Redis URL",
            where="option --queue",
            fix="write it as redis://host:6379/0",
        )
    try:
        connection = Redis.from_url(url)
        connection.ping()
    except (RedisError, ValueError) as exc:
        raise InputError(
            f"cannot reach the Redis server at {url} ({exc})",
            where="option --queue",
            fix="start redis-server there, or correct the host and port",
        ) from None
    return connection


def build_job(order: Order, settings: BatchSettings, out_dir: str) -> Outcome:
    """The job a worker runs: build one order into the shared output folder."""
    from deckgen.batch.job import build_order, skipped_outcome
    from deckgen.batch.publish import remove_stale_staging
    from deckgen.workers import die_with_parent

    die_with_parent()  # the work horse goes when its worker goes
    folder = Path(out_dir)
    skipped = skipped_outcome(order, settings, folder)
    if skipped is not None:
        return skipped
    remove_stale_staging(folder)
    return build_order(order, settings, folder)


def _job_id(order: Order) -> str:
    return f"deckgen-{order.order_id}-{order.fingerprint[:20]}"


def enqueue(orders: list[Order], settings: BatchSettings, out_dir: Path, url: str) -> list[Any]:
    """Put one job per order on the queue (an identical waiting job is reused)."""
    from rq import Queue, Retry
    from rq.job import Job, JobStatus

    connection = _connect(url)
    queue = Queue(QUEUE_NAME, connection=connection)
    jobs = []
    for order in orders:
        job_id = _job_id(order)
        existing = (
            Job.fetch(job_id, connection=connection) if Job.exists(job_id, connection) else None
        )
        live = (JobStatus.QUEUED, JobStatus.STARTED, JobStatus.DEFERRED, JobStatus.SCHEDULED)
        if existing is not None and existing.get_status() in live:
            jobs.append(existing)
            continue
        if existing is not None:
            existing.delete()
        jobs.append(
            queue.enqueue(
                build_job,
                order,
                settings,
                str(out_dir.resolve()),
                job_id=job_id,
                job_timeout=JOB_TIMEOUT_S,
                retry=Retry(max=RETRIES),
                result_ttl=24 * 3600,
                failure_ttl=24 * 3600,
                description=f"deck {order.order_id} (row {order.row})",
            )
        )
    return jobs


def run_on_queue(
    orders: list[Order],
    settings: BatchSettings,
    out_dir: Path,
    url: str,
    observer: BatchObserver,
) -> list[Outcome]:
    """Skip the finished decks, enqueue the rest and wait until workers have built them."""
    from rq.job import JobStatus

    from deckgen.batch.job import skipped_outcome

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
    jobs = enqueue(todo, settings, out_dir, url)
    waiting = dict(zip((j.id for j in jobs), zip(jobs, todo, strict=True), strict=True))
    started: set[str] = set()
    while waiting:
        time.sleep(POLL_S)
        for job_id, (job, order) in list(waiting.items()):
            status = job.get_status(refresh=True)
            if status == JobStatus.STARTED and job_id not in started:
                started.add(job_id)
                observer.deck_event((order.order_id, "start", order.name, None))
            if status == JobStatus.FINISHED:
                outcome = job.return_value()
            elif status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
                outcome = Outcome(
                    order.row,
                    order.order_id,
                    "failed",
                    f"the queue job {job_id} {status.value}: {_last_line(job)}",
                    quantity=order.quantity,
                )
            elif status is None:
                outcome = Outcome(
                    order.row,
                    order.order_id,
                    "failed",
                    f"the queue job {job_id} disappeared from Redis; run the batch again",
                    quantity=order.quantity,
                )
            else:
                continue
            del waiting[job_id]
            outcomes.append(outcome)
            observer.deck_finished(outcome)
    return outcomes


def _last_line(job: Any) -> str:
    text = str(getattr(job, "exc_info", "") or "").strip()
    return text.splitlines()[-1] if text else "no details"


def make_worker(url: str, timing: WorkerTiming) -> Any:
    """An RQ worker on the deck queue whose heartbeats and clean-ups follow ``timing``."""
    from rq import Queue, Worker

    grace = timing.grace_s

    class DeckWorker(Worker):
        def get_heartbeat_ttl(self, job: Any, working_time: float = 0.0) -> int:
            remaining = (job.timeout or JOB_TIMEOUT_S) - working_time
            return int(min(remaining, self.job_monitoring_interval)) + grace

    connection = _connect(url)
    return DeckWorker(
        [Queue(QUEUE_NAME, connection=connection)],
        connection=connection,
        worker_ttl=timing.check_every_s + 15,
        maintenance_interval=timing.check_every_s,
        job_monitoring_interval=timing.heartbeat_s,
    )


def run_worker(
    url: str, *, burst: bool = False, quiet: bool = False, timing: WorkerTiming | None = None
) -> None:
    """Take deck jobs from the queue until stopped (or, with ``burst``, until it is empty)."""
    import logging

    from deckgen.batch.job import preload

    worker = make_worker(url, timing or WorkerTiming())
    preload()  # the work horses forked for the jobs inherit the drawing code
    worker.work(burst=burst, logging_level=logging.WARNING if quiet else logging.INFO)
