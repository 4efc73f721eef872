"""The RQ job class of deckgen's queues: a job runs only one of deckgen's own functions.

RQ imports and calls whatever function a job names. :class:`DeckJob` runs only the
functions in deckgen's registry of queue jobs (:func:`register`: the deck build of
:mod:`deckgen.batch.rqueue`, the rules sweep's variant of :mod:`deckgen.batch.sweeps`),
each with one JSON argument that its own check validates; it refuses any other
function, any callback, and a record RQ cannot read (:func:`refusal`). A worker asks
:func:`refusal` before it forks a work horse, and the job class asks again in the
horse.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rq.job import Job

from deckgen.batch.wire import DataOnlySerializer, inflated_size_ok
from deckgen.errors import excerpt, first_line


@dataclass(frozen=True)
class OwnJob:
    """One of deckgen's queue jobs: the function a worker runs, and its argument's check."""

    function: Callable[[Any], dict[str, Any]]
    check: Callable[[Any], Path | None]
    """Validates the argument (ValueError if it is not one); the folder it writes into."""
    what: str
    """What one argument is, for a refusal: ``deck order``, ``sweep variant``."""


_JOBS: dict[str, OwnJob] = {}


def register(name: str, job: OwnJob) -> None:
    """Let workers run ``job`` for jobs that name ``name`` (its import path)."""
    _JOBS[name] = job


class RefusedJobError(Exception):
    """A job on deckgen's queue that is not one of deckgen's own."""


def refusal(job: Job, only_into: Path | None = None) -> str | None:
    """Why a worker refuses ``job`` (None: one of deckgen's own jobs it may run).

    With ``only_into``, a job whose output folder is not that folder or inside it is
    refused too.
    """
    unreadable = getattr(job, "unreadable", None)
    if unreadable:
        return str(unreadable)
    try:
        name, instance, args, kwargs = job.func_name, job.instance, job.args, job.kwargs
    except Exception:  # a pickle or other payload that is not JSON: it was not loaded
        return "its data is not deckgen's JSON (pickled or other data is never loaded)"
    own = _JOBS.get(name) if isinstance(name, str) else None
    if own is None:
        return (
            f"it names the function '{excerpt(name)}'; a deckgen worker runs only deck "
            "builds and rules sweeps"
        )
    if instance is not None or kwargs or not isinstance(args, list | tuple) or len(args) != 1:
        return f"its arguments are not one {own.what}"
    try:
        out_dir = own.check(args[0])
    except ValueError as exc:
        return str(exc)
    if only_into is None or out_dir is None:
        return None
    if not Path(os.path.normpath(out_dir)).is_relative_to(only_into):
        return f"its output folder {excerpt(out_dir, 120)} is not inside {only_into}"
    return None


class DeckJob(Job):
    """An RQ job that can only be one of deckgen's own: no other function, no callbacks.

    A job record that cannot be read (a field that is no date, data that unpacks to
    gigabytes) does not raise: the job is marked :attr:`unreadable`, and a worker
    refuses it like any other job that is not one of deckgen's.
    """

    unreadable: str | None = None

    def restore(self, raw_data: Any) -> Any:
        from rq.exceptions import NoSuchJobError

        fields = {(k.decode() if isinstance(k, bytes) else str(k)): v for k, v in raw_data.items()}
        problem = None
        if not all(
            inflated_size_ok(fields[name]) for name in ("data", "exc_info") if name in fields
        ):
            problem = "its record unpacks to more than a deckgen job holds"
            fields = {k: v for k, v in fields.items() if k not in ("exc_info", "meta", "result")}
            fields["data"] = b"null"
        try:
            super().restore(fields)
        except NoSuchJobError:
            raise
        except Exception as exc:  # whatever a forged record makes RQ's reader raise
            problem = problem or f"its record cannot be read ({first_line(exc)})"
        self.unreadable = problem
        if isinstance(self.description, str):  # RQ logs it: no terminal escapes, one line
            self.description = excerpt(self.description, 200)

    @property
    def func(self) -> Any:
        problem = refusal(self)
        if problem is not None:
            raise RefusedJobError(problem)
        return _JOBS[str(self.func_name)].function

    @property
    def success_callback(self) -> None:
        return None

    @property
    def failure_callback(self) -> None:
        return None

    @property
    def stopped_callback(self) -> None:
        return None


def job_queue(name: str, connection: Any) -> Any:
    """The RQ queue ``name`` with deckgen's job class and JSON serializer."""
    from rq import Queue

    return Queue(name, connection=connection, job_class=DeckJob, serializer=DataOnlySerializer)


def fetch_job(job_id: str, connection: Any) -> Job:
    """A job of deckgen's queues, read with its JSON serializer."""
    return DeckJob.fetch(job_id, connection=connection, serializer=DataOnlySerializer)
