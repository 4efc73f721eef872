"""The Redis queue: a real redis-server, two real workers, one killed in the middle of a job."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from batch_testkit import SMALL_COLUMNS, check_complete, deck_folders, small_orders, write_csv
from redis_testkit import free_port, needs_redis, redis_server, start_worker, stop

from deckgen.batch.outcome import BatchSummary
from deckgen.batch.publish import STAGING
from deckgen.batch.run import RunOptions, run_batch
from deckgen.batch.settings import BatchSettings
from deckgen.errors import InputError

pytestmark = needs_redis


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A throw-away redis-server on a random loopback port, without persistence."""
    with redis_server(tmp_path) as url:
        yield url


def test_a_bad_queue_url_is_a_user_error(tmp_path: Path) -> None:
    sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, small_orders(1))
    with pytest.raises(InputError, match="not a Redis URL"):
        run_batch(sheet, BatchSettings(), RunOptions(out_dir=tmp_path, queue_url="http://x"))
    port = free_port()
    with pytest.raises(InputError, match="cannot reach the Redis server"):
        run_batch(
            sheet,
            BatchSettings(),
            RunOptions(out_dir=tmp_path, queue_url=f"redis://127.0.0.1:{port}/0"),
        )


@pytest.mark.slow
def test_two_workers_one_killed_mid_job(tmp_path: Path, redis_url: str) -> None:
    rows = small_orders(4)
    slow = {
        "order": "big",
        "quantity": "1",
        "name": "Big",
        "set": "double-12",
        "faces.style": "pips",
        "back.background": "#102030",
    }
    sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, [slow, *rows])
    out = tmp_path / "shared"
    settings = BatchSettings(preview=True)
    result: list[BatchSummary] = []
    enqueuer = threading.Thread(
        target=lambda: result.append(
            run_batch(sheet, settings, RunOptions(out_dir=out, queue_url=redis_url))
        )
    )
    workers = [start_worker(redis_url, tmp_path / f"w{i}.log") for i in range(2)]
    try:
        enqueuer.start()
        staging = out / STAGING
        victim_pid = None
        deadline = time.monotonic() + 60
        while victim_pid is None and time.monotonic() < deadline:
            for entry in staging.glob("big.*") if staging.is_dir() else []:
                horse = int(entry.name.split(".")[-2])
                parent = int(Path(f"/proc/{horse}/stat").read_text().rsplit(")", 1)[1].split()[1])
                victim_pid = next(w.pid for w in workers if w.pid == parent)
            time.sleep(0.02)
        assert victim_pid is not None, "no worker started the big deck"
        assert not (out / "big").exists()
        os.killpg(victim_pid, signal.SIGKILL)  # the worker and its work horse, mid-job
        victim = next(w for w in workers if w.pid == victim_pid)
        victim.wait(timeout=10)
        enqueuer.join(timeout=120)
        assert not enqueuer.is_alive(), "the killed job was never rebuilt"
    finally:
        for proc in workers:
            stop(proc)
    (summary,) = result
    assert [o.status for o in summary.outcomes] == ["built"] * 5
    assert len(deck_folders(out)) == 5
    for folder in deck_folders(out):
        check_complete(folder)
    big = check_complete(out / "big")
    assert big["set"] == "double-12"
    survivor_log = next(
        (tmp_path / f"w{i}.log").read_text() for i, w in enumerate(workers) if w.pid != victim_pid
    )
    assert "deck big (row 2)" in survivor_log
    assert not list((out / STAGING).iterdir()), "the killed worker's staging folder stayed"
