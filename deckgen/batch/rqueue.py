"""The queue executor: orders as jobs on an RQ queue in Redis, built by ``deckgen worker``.

``deckgen batch orders.csv --queue redis://host:6379/0`` validates the sheet, skips the
finished decks, enqueues one job per remaining row and waits for them, reporting each
as it finishes; ``deckgen worker --queue ...`` (on any number of machines that see the
same output folder) takes jobs and builds them exactly as the local pool does
(:func:`deckgen.batch.job.build_order`: staging folder, publish by rename).

Trust boundary: whoever can write to the Redis can fill the queue with deck orders,
never run code. Jobs and results are JSON (:mod:`deckgen.batch.wire`), a worker runs
only deckgen's own jobs (:mod:`deckgen.batch.jobclass` refuses any other function and
every callback), and the batch believes a worker's report only when the deck it names
is really in the folder it asked for. A Redis URL that is not on this machine must
carry a password or use TLS (``rediss://``) unless the user says ``--insecure-redis``
(:mod:`deckgen.batch.redisurl`); the password never appears in a message.

A worker killed in the middle of a job is noticed by the others: every job carries a
retry, and a job whose worker stopped sending heartbeats is put back on the queue by
RQ's own clean-up of abandoned jobs, which a worker runs every ``check_every_s``
seconds. The work horse that runs a job dies with its worker.
"""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rq.job import Job

from deckgen.batch.jobclass import DeckJob, OwnJob, fetch_job, job_queue, refusal, register
from deckgen.batch.order import Order
from deckgen.batch.outcome import Outcome
from deckgen.batch.redisurl import connect, hide_password, shown_url
from deckgen.batch.settings import BatchSettings
from deckgen.batch.wire import (
    JOB_FUNCTION,
    DataOnlySerializer,
    inflate_text,
    job_data,
    job_from_data,
    job_identity,
    outcome_data,
    outcome_from_data,
)
from deckgen.errors import InputError, excerpt, first_line, safe_text

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


# --- the job: deckgen's own function, and nothing else -------------------------------


def build_job(payload: Any) -> dict[str, Any]:
    """The job a worker runs: build one order into the output folder; the outcome as data."""
    from deckgen.batch.job import build_order, skipped_outcome
    from deckgen.batch.publish import remove_stale_staging

    order, settings, folder = job_from_data(payload)
    skipped = skipped_outcome(order, settings, folder)
    if skipped is not None:
        return outcome_data(skipped)
    remove_stale_staging(folder)
    return outcome_data(build_order(order, settings, folder))


def _deck_output(value: Any) -> Path | None:
    """Check a deck job's argument (ValueError); the folder it writes into."""
    return job_from_data(value)[2]


register(JOB_FUNCTION, OwnJob(build_job, _deck_output, "deck order"))


def _queue(connection: Any) -> Any:
    return job_queue(QUEUE_NAME, connection)


def _fetch(job_id: str, connection: Any) -> Job:
    return fetch_job(job_id, connection)


# --- the batch side: enqueue, wait, believe only what is on disk ---------------------


def enqueue(
    orders: list[Order], settings: BatchSettings, out_dir: Path, connection: Any
) -> list[str]:
    """Put one job per order on the queue (an identical live job is reused); their ids."""
    from rq import Retry

    queue = _queue(connection)
    live = {b"queued", b"started", b"deferred", b"scheduled"}
    ids = []
    for order in orders:
        data = job_data(order, settings, out_dir)
        job_id = job_identity(data)
        ids.append(job_id)
        key = DeckJob.key_for(job_id)
        if connection.hget(key, "status") in live:
            continue
        try:  # an ended job of an earlier run: out of its registries, then anew
            _fetch(job_id, connection).delete()
        except Exception:  # a record RQ cannot read: drop it as it is
            connection.delete(key)
        queue.enqueue(
            JOB_FUNCTION,
            data,
            job_id=job_id,
            job_timeout=JOB_TIMEOUT_S,
            retry=Retry(max=RETRIES),
            result_ttl=24 * 3600,
            failure_ttl=24 * 3600,
            description=f"deck {order.order_id} (row {order.row})",
        )
    return ids


def _failed(order: Order, reason: str) -> Outcome:
    return Outcome(order.row, order.order_id, "failed", reason, quantity=order.quantity)


def _believed(reported: Outcome, order: Order, out_dir: Path, job_id: str) -> Outcome:
    """The worker's report, held against what is really in the folder the batch asked for."""
    from deckgen.batch.publish import finished_fingerprint, zip_path

    if reported.order != order.order_id or reported.row != order.row:
        return _failed(order, f"the queue job {job_id} reported on another order; run again")
    if reported.status not in ("built", "skipped"):
        reason = safe_text(reported.reason) or "no details"
        return dataclasses.replace(_failed(order, reason), seconds=reported.seconds)
    target = out_dir / order.order_id
    if finished_fingerprint(target) != order.fingerprint:
        return _failed(
            order,
            f"a worker reported this deck {reported.status}, but {target} holds no deck built "
            f"from these inputs; every worker must see the output folder {out_dir} at that path",
        )
    return dataclasses.replace(
        reported,
        reason=safe_text(reported.reason),
        folder=str(target),
        zip=str(zip_path(out_dir, order.order_id)) if reported.zip else None,
        warnings=[safe_text(w) for w in reported.warnings],
    )


def _finished(job: Job, order: Order, out_dir: Path) -> Outcome:
    try:
        value = job.return_value()
    except Exception:  # not JSON (a pickle, say): it was not loaded
        return _failed(
            order,
            f"the queue job {job.id} finished with a result that is not deckgen's data; it was "
            "not loaded (has something else written to this Redis?)",
        )
    try:
        reported = outcome_from_data(value)
    except ValueError as exc:
        return _failed(order, f"the queue job {job.id} finished, but {exc}")
    return _believed(reported, order, out_dir, job.id)


def _last_line(job: Job) -> str:
    """The last line of the job's failure, read without trusting its size."""
    import base64
    import binascii

    try:
        entries = job.connection.xrevrange(f"rq:results:{job.id}", count=1)
        fields = entries[0][1] if entries else None
        raw = fields.get(b"exc_string", b"") if fields else b""
        text = inflate_text(base64.b64decode(raw), 100_000).strip() if raw else ""
    except (binascii.Error, ValueError, IndexError, AttributeError):
        text = ""
    return excerpt(text.splitlines()[-1], 300) if text else "no details"


def _poll(job_id: str, order: Order, out_dir: Path, connection: Any) -> tuple[str, Outcome | None]:
    """The job's status and, once it has ended, the order's outcome."""
    from redis.exceptions import ConnectionError as RedisConnectionError
    from rq.exceptions import NoSuchJobError
    from rq.job import JobStatus

    try:
        job = _fetch(job_id, connection)
        status = job.get_status(refresh=False)
    except NoSuchJobError:
        return "gone", _failed(
            order, f"the queue job {job_id} disappeared from Redis; run the batch again"
        )
    except RedisConnectionError:
        raise
    except Exception as exc:
        return "bad", _failed(
            order, f"the queue job {job_id} cannot be read ({first_line(exc)}); run again"
        )
    if status == JobStatus.FINISHED:
        return status.value, _finished(job, order, out_dir)
    if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
        return status.value, _failed(
            order, f"the queue job {job_id} {status.value}: {_last_line(job)}"
        )
    return (status.value if status else "gone"), None


def run_on_queue(
    orders: list[Order],
    settings: BatchSettings,
    out_dir: Path,
    url: str,
    observer: BatchObserver,
    *,
    insecure: bool = False,
) -> list[Outcome]:
    """Skip the finished decks, enqueue the rest and wait until workers have built them."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    from deckgen.batch.job import skipped_outcome

    connection = connect(url, insecure=insecure)
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
    waiting = dict(zip(enqueue(todo, settings, out_dir, connection), todo, strict=True))
    started: set[str] = set()
    try:
        while waiting:
            time.sleep(POLL_S)
            for job_id, order in list(waiting.items()):
                status, ended = _poll(job_id, order, out_dir, connection)
                if status == "started" and job_id not in started:
                    started.add(job_id)
                    observer.deck_event((order.order_id, "start", order.name, None))
                if ended is None:
                    continue
                del waiting[job_id]
                outcomes.append(ended)
                observer.deck_finished(ended)
    except RedisConnectionError as exc:
        raise InputError(
            f"lost the Redis server at {shown_url(url)} "
            f"({hide_password(first_line(exc, 200), url)})",
            where="option --queue",
            fix="restart it and run the same command again: finished decks are skipped",
        ) from None
    return outcomes


# --- the worker side -----------------------------------------------------------------


def make_worker(
    url: str, timing: WorkerTiming, *, insecure: bool = False, only_into: Path | None = None
) -> Any:
    """An RQ worker on the deck queue that runs only deck builds, timed by ``timing``
    (and, with ``only_into``, only decks whose output folder is inside that folder)."""
    from rq import Worker
    from rq.utils import now

    grace = timing.grace_s

    class DeckWorker(Worker):
        def get_heartbeat_ttl(self, job: Any, working_time: float = 0.0) -> int:
            remaining = (job.timeout or JOB_TIMEOUT_S) - working_time
            return int(min(remaining, self.job_monitoring_interval)) + grace

        def execute_job(self, job: Any, queue: Any) -> None:
            problem = refusal(job, only_into)
            if problem is None:
                self._deckgen_pid = os.getpid()
                super().execute_job(job, queue)
                return
            self.log.error(
                "Worker %s: refused job %s: %s", self.name, excerpt(job.id, 120), problem
            )
            try:
                job.retries_left = 0
                execution = self.prepare_execution(job)
                connection.lrem(queue.intermediate_queue_key, 1, job.id)
                job.ended_at = now()
                self.handle_job_failure(
                    job,
                    queue=queue,
                    started_job_registry=queue.started_job_registry,
                    exc_string=f"refused by deckgen worker: {problem}",
                    execution=execution,
                )
            except Exception as exc:  # a forged job must never stop the worker
                self.log.error(
                    "Worker %s: removing refused job %s (%s)", self.name, job.id, first_line(exc)
                )
                connection.delete(job.key)
                connection.lrem(queue.intermediate_queue_key, 1, job.id)

        def main_work_horse(self, job: Any, queue: Any) -> None:
            from deckgen.workers import die_with_parent

            die_with_parent(self._deckgen_pid)  # the work horse goes when its worker goes
            super().main_work_horse(job, queue)

    from deckgen.batch.sweeps import SWEEP_QUEUE  # and registers the sweep's variant job

    connection = connect(url, insecure=insecure)
    sweeps = job_queue(SWEEP_QUEUE, connection)
    return DeckWorker(
        [_queue(connection), sweeps],
        connection=connection,
        job_class=DeckJob,
        serializer=DataOnlySerializer,
        worker_ttl=timing.check_every_s + 15,
        maintenance_interval=timing.check_every_s,
        job_monitoring_interval=timing.heartbeat_s,
    )


def run_worker(
    url: str,
    *,
    burst: bool = False,
    quiet: bool = False,
    timing: WorkerTiming | None = None,
    insecure: bool = False,
    only_into: Path | None = None,
) -> None:
    """Take deck jobs from the queue until stopped (or, with ``burst``, until it is empty)."""
    import logging

    from deckgen.batch.job import preload

    if only_into is not None:
        only_into = Path(only_into).resolve()
    worker = make_worker(url, timing or WorkerTiming(), insecure=insecure, only_into=only_into)
    preload()  # the work horses forked for the jobs inherit the drawing code
    worker.work(burst=burst, logging_level=logging.WARNING if quiet else logging.INFO)
