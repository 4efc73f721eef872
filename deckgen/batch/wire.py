"""What crosses the Redis queue: JSON data, validated on the way in; never objects.

RQ pickles a job's arguments and result by default and imports whatever function a
job names, so anyone who could write to the Redis could run code in every worker and
in the batch that waits for the results. deckgen's queue path therefore:

* serializes jobs, their ``meta`` and their results with :class:`DataOnlySerializer`
  (JSON, nothing else: a pickle written into Redis is never loaded, it fails to decode);
* names one job function only, :data:`JOB_FUNCTION`, with one argument, a
  :class:`JobData` (the order, the batch settings, the output folder);
* validates that argument in the worker (:func:`job_from_data`) and the result in the
  batch (:func:`outcome_from_data`) with strict pydantic models, so a forged job can
  at most be a deck order, and a forged result at most a wrong report, which the batch
  checks against the folder it asked for.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import zlib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from deckgen.batch.order import Order
from deckgen.batch.outcome import Outcome
from deckgen.batch.settings import BatchSettings
from deckgen.errors import SpecError, first_line

JOB_FUNCTION = "deckgen.batch.rqueue.build_job"
"""The only function a deckgen worker runs."""
MAX_PAYLOAD_BYTES = 16_000_000
"""A job or result larger than this is refused before it is decoded."""
ORDER_ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"


class DataOnlySerializer:
    """RQ's serializer for deckgen's queue: JSON text only, never pickle.

    ``loads`` of anything that is not UTF-8 JSON (a pickle, say) raises, and RQ then
    treats the job's data as unreadable: nothing in it is ever executed.
    """

    @staticmethod
    def dumps(obj: Any) -> bytes:
        return json.dumps(obj, ensure_ascii=False, allow_nan=False).encode("utf-8")

    @staticmethod
    def loads(data: bytes) -> Any:
        if len(data) > MAX_PAYLOAD_BYTES:
            raise ValueError(f"{len(data):,} bytes is more than a deckgen job holds")
        return json.loads(data.decode("utf-8"))


def inflated_size_ok(raw: bytes, limit: int = MAX_PAYLOAD_BYTES) -> bool:
    """Whether ``raw`` (zlib-compressed, as RQ stores job fields, or plain) unpacks to at
    most ``limit`` bytes; decided without unpacking more than that."""
    try:
        unpacked = zlib.decompressobj().decompress(raw, limit + 1)
    except zlib.error:
        return len(raw) <= limit
    return len(unpacked) <= limit


def inflate_text(raw: bytes, limit: int) -> str:
    """A compressed (or plain) text field of RQ's, unpacked to at most ``limit`` bytes."""
    try:
        data = zlib.decompressobj().decompress(raw, limit)
    except zlib.error:
        data = raw[:limit]
    return data.decode("utf-8", "replace")


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OrderData(_Data):
    row: int = Field(ge=1)
    order_id: str = Field(pattern=ORDER_ID_PATTERN, max_length=60)
    name: str = Field(max_length=10_000)
    quantity: int = Field(ge=1)
    data: dict[str, Any]
    deck_path: str
    sheet: str
    cells: dict[str, str]
    deck_file: str | None
    fingerprint: str = Field(pattern=r"^[0-9a-f]{64}$")


class SettingsData(_Data):
    allow_outside: bool
    preview: bool
    tts: bool
    make_zip: bool


class JobData(_Data):
    """The one argument of :data:`JOB_FUNCTION`: an order, how to build it, and where."""

    order: OrderData
    settings: SettingsData
    out_dir: str = Field(min_length=1, max_length=4096)


class OutcomeData(_Data):
    row: int = Field(ge=0)
    order: str = Field(max_length=200)
    status: Literal["built", "skipped", "failed", "invalid"]
    reason: str = Field(default="", max_length=100_000)
    folder: str | None = Field(default=None, max_length=4096)
    quantity: int = 1
    seconds: float = 0.0
    warnings: list[str] = Field(default_factory=list, max_length=10_000)
    zip: str | None = Field(default=None, max_length=4096)


def job_data(order: Order, settings: BatchSettings, out_dir: Path) -> dict[str, Any]:
    """The job's argument as JSON data (refuses deck data that is not plain JSON)."""
    record = {
        "order": {
            **{f.name: getattr(order, f.name) for f in dataclasses.fields(order)},
            "deck_path": str(order.deck_path),
        },
        "settings": dataclasses.asdict(settings),
        "out_dir": str(out_dir.resolve()),
    }
    try:
        data: dict[str, Any] = json.loads(json.dumps(record, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise SpecError(
            f"row {order.row}'s deck holds a value that is not plain data ({first_line(exc)})",
            where=order.sheet,
            fix="write dates and times in its deck file as text",
        ) from None
    JobData.model_validate(data)
    return data


def job_identity(data: dict[str, Any]) -> str:
    """A job id naming the order and everything that decides what it writes where.

    Two batches that differ in output folder, settings or inputs never share a job.
    """
    text = json.dumps(data, sort_keys=True, ensure_ascii=True)
    return f"deckgen-{data['order']['order_id']}-{hashlib.sha256(text.encode()).hexdigest()[:24]}"


def job_from_data(value: Any) -> tuple[Order, BatchSettings, Path]:
    """The order, settings and output folder of a job argument; ValueError if it is none."""
    try:
        job = JobData.model_validate(value)
    except ValidationError as exc:
        raise ValueError(
            f"the job's argument is not a deck order ({exc.error_count()} errors)"
        ) from None
    out_dir = Path(job.out_dir)
    if not out_dir.is_absolute():
        raise ValueError("the job's output folder is not an absolute path")
    order = Order(**{**job.order.model_dump(), "deck_path": Path(job.order.deck_path)})
    return order, BatchSettings(**job.settings.model_dump()), out_dir


def outcome_data(outcome: Outcome) -> dict[str, Any]:
    """A job's result as JSON data."""
    return dataclasses.asdict(outcome)


def outcome_from_data(value: Any) -> Outcome:
    """A job's result as an :class:`Outcome`; ValueError if the value is none."""
    try:
        data = OutcomeData.model_validate(value)
    except ValidationError as exc:
        raise ValueError(f"the result is not a deck outcome ({exc.error_count()} errors)") from None
    return Outcome(**data.model_dump())
