"""Who can write to the Redis can fill the queue with deck jobs, never run code.

A real redis-server (with a password), forged jobs and forged results written the way
an attacker would (RQ's own pickling, or raw bytes into the job hash), and real
``deckgen worker`` / ``deckgen batch`` processes. A marker file proves whether any
forged payload ran.
"""

from __future__ import annotations

import base64
import pickle
import subprocess
import threading
import zlib
from pathlib import Path
from typing import Any

from batch_testkit import SMALL_COLUMNS, check_complete, small_orders, write_csv
from redis_testkit import deckgen_command, needs_redis, redis_server, start_worker, stop, wait_for
from typer.testing import CliRunner

from deckgen.batch.outcome import BatchSummary
from deckgen.batch.rqueue import QUEUE_NAME, _fetch, _last_line
from deckgen.batch.run import RunOptions, run_batch
from deckgen.batch.settings import BatchSettings
from deckgen.batch.wire import JOB_FUNCTION
from deckgen.cli import app

pytestmark = needs_redis

PASSWORD = "pw-3f9c1e-secret"


class _Touch:
    """Unpickling this creates the marker file (what an attacker's payload would do)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.marker), "w"))


def _redis(url: str) -> Any:
    from redis import Redis

    return Redis.from_url(url)


def _queued(url: str) -> int:
    return int(_redis(url).llen(f"rq:queue:{QUEUE_NAME}"))


def test_forged_jobs_are_refused_and_the_worker_builds_the_next_real_one(tmp_path: Path) -> None:
    from rq import Queue
    from rq.serializers import JSONSerializer

    markers = [tmp_path / f"ran-{i}" for i in range(5)]
    with redis_server(tmp_path, password=PASSWORD) as url:
        connection = _redis(url)
        # RQ's default (pickle) serializer naming os.system: the attack
        Queue(QUEUE_NAME, connection=connection).enqueue("os.system", f"touch {markers[0]}")
        # readable JSON that names os.system
        as_json = Queue(QUEUE_NAME, connection=connection, serializer=JSONSerializer)
        as_json.enqueue("os.system", f"touch {markers[1]}")
        # deckgen's function, but the job's data is a pickle that runs code when loaded
        job = as_json.enqueue(JOB_FUNCTION, {})
        connection.hset(job.key, "data", zlib.compress(pickle.dumps(_Touch(markers[2]))))
        connection.hset(job.key, "meta", pickle.dumps(_Touch(markers[3])))
        connection.hset(job.key, "result", pickle.dumps(_Touch(markers[4])))
        # deckgen's function with arguments that are no order, and a callback
        odd = as_json.enqueue(JOB_FUNCTION, {"order": "x"}, description="\x1b[2J\nforged")
        connection.hset(odd.key, "failure_callback_name", "os.system")
        # records RQ's own reader chokes on: no date, data that unpacks to 40 MB
        bad_date = as_json.enqueue(JOB_FUNCTION, {})
        connection.hset(bad_date.key, "created_at", "not a date")
        bomb = as_json.enqueue(JOB_FUNCTION, {})
        connection.hset(bomb.key, "data", zlib.compress(b" " * 40_000_000))
        assert _queued(url) == 6

        sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, small_orders(1))
        out = tmp_path / "out"
        result: list[BatchSummary] = []
        batch = threading.Thread(
            target=lambda: result.append(
                run_batch(sheet, BatchSettings(preview=False), RunOptions(out, queue_url=url))
            )
        )
        batch.start()
        wait_for(lambda: _queued(url) == 7, 20, "the batch enqueueing its deck")
        log = tmp_path / "worker.log"
        worker = start_worker(url, log, "--burst")
        try:
            assert worker.wait(timeout=120) == 0, log.read_text()
        finally:
            stop(worker)
        batch.join(timeout=30)
        assert not batch.is_alive(), "the batch never saw its deck built"
        refused = _fetch(odd.id, connection)
        assert refused.get_status() == "failed"
        assert "refused by deckgen worker" in _last_line(refused)
    text = log.read_text()
    assert [m.name for m in markers if m.exists()] == [], f"a forged job ran code:\n{text}"
    assert text.count("refused job") == 6, text
    assert "its record cannot be read" in text
    assert "unpacks to more than a deckgen job holds" in text
    assert "names the function 'os.system'" in text
    assert "Traceback" not in text
    assert "\x1b" not in text
    assert "\\x1b[2J\\nforged" in text  # the forged description, escaped, on one line
    assert PASSWORD not in text
    (summary,) = result
    assert [o.status for o in summary.outcomes] == ["built"]
    check_complete(out / "deck-00")


def test_a_forged_pickled_result_is_never_loaded(tmp_path: Path) -> None:
    from rq.job import Job
    from rq.results import Result

    marker = tmp_path / "ran"
    sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, small_orders(1))
    with redis_server(tmp_path, password=PASSWORD) as url:
        command = deckgen_command(
            "batch", str(sheet), "--queue", url, "--out", str(tmp_path / "out"), "--no-preview"
        )
        batch = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            wait_for(lambda: _queued(url) == 1, 30, "the batch enqueueing its deck")
            connection = _redis(url)
            (job_id,) = [j.decode() for j in connection.lrange(f"rq:queue:{QUEUE_NAME}", 0, -1)]
            forged = Job.fetch(job_id, connection=connection)  # RQ's default: pickle
            Result.create(forged, Result.Type.SUCCESSFUL, 600, return_value=_Touch(marker))
            payload = pickle.dumps(_Touch(marker))
            stream = connection.xrange(f"rq:results:{job_id}")
            assert base64.b64decode(stream[-1][1][b"return_value"]).startswith(b"\x80")
            connection.hset(forged.key, mapping={"status": "finished", "result": payload})
            stdout, stderr = batch.communicate(timeout=60)
        finally:
            if batch.poll() is None:
                batch.kill()
                batch.wait()
    output = stdout.decode() + stderr.decode()
    assert not marker.exists(), "the batch unpickled a forged result"
    assert batch.returncode == 1, output
    assert "Traceback" not in output
    assert "finished with a result that is not deckgen's data; it was not loaded" in output
    assert "0 built" in output
    assert "1 failed" in output
    assert PASSWORD not in output


def test_a_remote_redis_without_password_is_refused(tmp_path: Path) -> None:
    sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, small_orders(1))

    def run(url: str, *more: str, head: tuple[str, ...] = ("batch", str(sheet))) -> Any:
        argv = deckgen_command(*head, "--queue", url, *more)
        return subprocess.run(argv, capture_output=True, text=True, timeout=60)

    for head in (("batch", str(sheet)), ("worker",)):
        plain = run("redis://10.20.30.40:6379/0", head=head)
        assert plain.returncode == 2, plain.stderr
        assert "not on this machine and the URL carries no password" in plain.stderr
        assert "--insecure-redis" in plain.stderr
        assert "Traceback" not in plain.stderr
    # with --insecure-redis the URL is accepted and the connection is tried
    tried = run("redis://no-such-host.invalid:6379/0", "--insecure-redis")
    assert tried.returncode == 2
    assert "cannot reach the Redis server" in tried.stderr
    # a password is never shown, whatever goes wrong (the CLI in this process: faster)
    for url in (
        f"redis://:{PASSWORD}@no-such-host.invalid:6379/0",
        f"redis://user:{PASSWORD}@no-such-host.invalid:notaport/0",
        f"redis://no-such-host.invalid:6379/0?password={PASSWORD}",
        f"http://:{PASSWORD}@example.invalid/",
    ):
        for command in (["batch", str(sheet)], ["worker"]):
            failed = CliRunner().invoke(app, [*command, "--queue", url])
            assert failed.exit_code == 2, failed.output
            assert failed.stderr.startswith("error:"), failed.stderr
            assert PASSWORD not in failed.output, failed.output
            assert "***" in failed.stderr


def test_two_runs_into_different_folders_each_get_their_own_decks(tmp_path: Path) -> None:
    sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, small_orders(3))
    settings = BatchSettings(preview=False)
    outs = [tmp_path / "first", tmp_path / "second"]
    with redis_server(tmp_path) as url:
        results: dict[Path, BatchSummary] = {}
        runs = [
            threading.Thread(
                target=lambda out=out: results.__setitem__(
                    out, run_batch(sheet, settings, RunOptions(out, queue_url=url))
                )
            )
            for out in outs
        ]
        for run in runs:
            run.start()
        wait_for(lambda: _queued(url) == 6, 30, "both batches enqueueing three decks each")
        log = tmp_path / "worker.log"
        worker = start_worker(url, log, "--burst")
        try:
            assert worker.wait(timeout=120) == 0, log.read_text()
        finally:
            stop(worker)
        for run in runs:
            run.join(timeout=30)
            assert not run.is_alive()
    for out in outs:
        summary = results[out]
        assert [o.status for o in summary.outcomes] == ["built"] * 3, summary.outcomes
        for outcome in summary.outcomes:
            assert outcome.folder == str(out / outcome.order)
            check_complete(out / outcome.order)


def test_a_report_of_a_deck_that_is_not_there_is_a_failure(tmp_path: Path) -> None:
    """A worker that builds into another folder (or lies) does not make the batch say built."""
    from deckgen.batch.orders import validate_sheet
    from deckgen.batch.outcome import Outcome
    from deckgen.batch.rqueue import _believed
    from deckgen.batch.sheet import read_sheet

    sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, small_orders(1))
    (order,) = validate_sheet(read_sheet(sheet), BatchSettings()).orders
    elsewhere = str(tmp_path / "elsewhere" / order.order_id)
    claim = Outcome(order.row, order.order_id, "built", folder=elsewhere)
    judged = _believed(claim, order, tmp_path / "asked", "job-1")
    assert judged.status == "failed"
    assert "holds no deck built from these inputs" in judged.reason
    other = Outcome(order.row + 1, "someone-else", "built", folder=elsewhere)
    assert _believed(other, order, tmp_path / "asked", "job-1").status == "failed"


def test_a_worker_with_only_into_refuses_decks_for_other_folders(tmp_path: Path) -> None:
    sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, small_orders(1))
    allowed, elsewhere = tmp_path / "shared" / "decks", tmp_path / "elsewhere"
    settings = BatchSettings(preview=False)
    with redis_server(tmp_path) as url:
        results: dict[Path, BatchSummary] = {}
        runs = [
            threading.Thread(
                target=lambda out=out: results.__setitem__(
                    out, run_batch(sheet, settings, RunOptions(out, queue_url=url))
                )
            )
            for out in (allowed, elsewhere)
        ]
        for run in runs:
            run.start()
        wait_for(lambda: _queued(url) == 2, 30, "both batches enqueueing their deck")
        log = tmp_path / "worker.log"
        worker = start_worker(url, log, "--burst", "--only-into", str(tmp_path / "shared"))
        try:
            assert worker.wait(timeout=120) == 0, log.read_text()
        finally:
            stop(worker)
        for run in runs:
            run.join(timeout=30)
            assert not run.is_alive()
    (built,) = results[allowed].outcomes
    assert built.status == "built"
    check_complete(allowed / "deck-00")
    (refused,) = results[elsewhere].outcomes
    assert refused.status == "failed"
    assert "refused by deckgen worker" in refused.reason
    assert f"its output folder {elsewhere} is not inside {tmp_path / 'shared'}" in refused.reason
    assert not elsewhere.exists()
