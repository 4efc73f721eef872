"""A rules sweep on the job queue: the variants of ``deckgen rules tune`` as RQ jobs.

A sweep of many variants x player counts is the first thing in deckgen that outgrows
one machine. ``deckgen rules tune ... --queue redis://host:6379/0`` puts every variant
of a pass on the queue ``deckgen-sweeps``; ``deckgen worker`` (the same workers as deck
batches) plays them and returns the figures; the table is the one a local run prints,
because every variant plays its own seeds whatever machine plays it.

What crosses the queue is data, both ways: a job is the rules file's parsed data, the
changed parameters, the player count, the goal, rounds and seed (:class:`SweepData`,
validated again by the worker, and the rules by :func:`rules_from_data` like any file);
a result is four figures and two lists of text (:class:`SweepResult`). A worker runs
only :func:`variant_job` for these (the job class of :mod:`deckgen.batch.rqueue`
refuses anything else), so whoever can write to the Redis can make workers play
dominoes, never run code.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from deckgen.batch.jobclass import OwnJob, register
from deckgen.errors import InputError, first_line

if TYPE_CHECKING:
    from deckgen.rulecheck.tune import Goal, Variant
    from deckgen.rulespec import RuleSpec

SWEEP_QUEUE = "deckgen-sweeps"
SWEEP_FUNCTION = "deckgen.batch.sweeps.variant_job"
"""The function a worker runs for a sweep job (and no other)."""
JOB_TIMEOUT_S = 3600
POLL_S = 0.1


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SweepData(_Data):
    """The one argument of :data:`SWEEP_FUNCTION`: one variant of one rules file."""

    rules: dict[str, Any]
    changes: dict[str, Any]
    players: int = Field(ge=1, le=20)
    goal: str = Field(pattern=r"^[a-z_]{1,40}$")
    rounds: int = Field(ge=1, le=10_000_000)
    seed: int = Field(ge=0, lt=2**40)
    had: list[str] = Field(max_length=50)


class SweepResult(_Data):
    figure: float | None
    interval: tuple[float, float] | None
    rounds: int = Field(ge=0)
    new_findings: list[str] = Field(max_length=50)
    texts: list[str] = Field(max_length=200)


def sweep_from_data(value: Any) -> SweepData:
    """The job's argument, validated (ValueError when it is not a sweep variant)."""
    try:
        return SweepData.model_validate(value)
    except ValidationError as exc:
        raise ValueError(f"its arguments are not a sweep variant ({first_line(exc)})") from None


def _sweep_output(value: Any) -> None:
    """Check a sweep job's argument (ValueError); a variant writes no files."""
    sweep_from_data(value)


def variant_job(payload: Any) -> dict[str, Any]:
    """The job a worker runs: play one variant; its figures as data."""
    from deckgen.rulecheck.tune import Goal, Variant, changed_spec, play_variant
    from deckgen.rulespec import rules_from_data

    data = sweep_from_data(payload)
    spec = rules_from_data(data.rules, what="the swept rules")
    variant = Variant(dict(data.changes), "", 0)
    changed = changed_spec(spec, variant.changes)
    play_variant(changed, data.players, Goal(data.goal), data.rounds, data.seed, variant,
                 frozenset(data.had))  # fmt: skip
    return SweepResult(
        figure=variant.figure,
        interval=variant.interval,
        rounds=variant.rounds,
        new_findings=variant.new_findings,
        texts=variant.texts,
    ).model_dump()


def _job_id(data: dict[str, Any]) -> str:
    text = json.dumps(data, sort_keys=True, ensure_ascii=True)
    return f"deckgen-sweep-{hashlib.sha256(text.encode()).hexdigest()[:32]}"


class QueuePlayer:
    """Plays the variants of a tune pass as jobs on the queue and waits for them."""

    def __init__(self, url: str, *, insecure: bool = False) -> None:
        from deckgen.batch.redisurl import connect

        self.url = url
        self.connection = connect(url, insecure=insecure)

    def _queue(self) -> Any:
        from deckgen.batch.jobclass import job_queue

        return job_queue(SWEEP_QUEUE, self.connection)

    def __call__(
        self,
        spec: RuleSpec,
        players: int,
        goal: Goal,
        rounds: int,
        seed: int,
        variants: list[Variant],
        had: frozenset[str],
    ) -> None:
        """Fill in each variant's figures from a worker's result."""
        from rq.job import JobStatus

        from deckgen.batch.jobclass import DeckJob, fetch_job
        from deckgen.batch.redisurl import hide_password, shown_url

        queue = self._queue()
        ids: dict[str, Variant] = {}
        for v in variants:
            data = SweepData(
                rules=spec.raw, changes=v.changes, players=players, goal=goal.finding,
                rounds=rounds, seed=seed, had=sorted(had),
            ).model_dump()  # fmt: skip
            data = json.loads(json.dumps(data, allow_nan=False))
            job_id = _job_id(data)
            self.connection.delete(DeckJob.key_for(job_id))
            queue.enqueue(
                SWEEP_FUNCTION, data, job_id=job_id, job_timeout=JOB_TIMEOUT_S,
                result_ttl=3600, failure_ttl=3600, description=f"sweep {spec.id}: {v.label}",
            )  # fmt: skip
            ids[job_id] = v
        from redis.exceptions import RedisError

        try:
            while ids:
                time.sleep(POLL_S)
                for job_id, v in list(ids.items()):
                    job = fetch_job(job_id, self.connection)
                    status = job.get_status(refresh=False)
                    if status == JobStatus.FINISHED:
                        _fill(v, _returned(job))
                        del ids[job_id]
                    elif status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
                        raise InputError(
                            f"a worker could not play the variant '{v.label}' ({status.value})",
                            where=f"the queue at {shown_url(self.url)}",
                            fix="look at the worker's log; run the same command again",
                        )
        except RedisError as exc:
            raise InputError(
                f"lost the Redis server at {shown_url(self.url)} "
                f"({hide_password(first_line(exc, 200), self.url)})",
                where="option --queue",
                fix="restart it and run the same command again",
            ) from None


def _returned(job: Any) -> Any:
    """A finished job's result, as JSON data (anything else is never loaded)."""
    try:
        return job.return_value()
    except Exception:  # a pickle or other bytes: not JSON, so not loaded
        return None


def _fill(v: Variant, value: Any) -> None:
    try:
        result = SweepResult.model_validate(value)
    except ValidationError as exc:
        raise InputError(
            "a sweep job finished with a result that is not deckgen's data",
            where="the queue",
            fix=f"has something else written to this Redis? ({first_line(exc)})",
        ) from None
    v.figure = result.figure
    v.interval = result.interval
    v.rounds = result.rounds
    v.new_findings = list(result.new_findings)
    v.texts = list(result.texts)


register(SWEEP_FUNCTION, OwnJob(variant_job, _sweep_output, "sweep variant"))
