"""``kill -9`` of a batch leaves no workers behind, whenever it comes.

Each case starts a real ``deckgen batch`` in its own session with its output on a pipe
(as in ``deckgen batch ... | cat``), kills it with SIGKILL at one moment of its life,
then checks that every process of its session is gone and that the pipe reaches EOF
(no orphan holds it open).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from batch_testkit import SMALL_COLUMNS, small_orders, write_csv

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

GONE_WITHIN_S = 10.0


def _session(sid: int) -> dict[int, tuple[int, str]]:
    """The live processes of session ``sid``: pid -> (parent pid, command line)."""
    found: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == sid and fields[0] not in ("Z", "X"):
            found[int(entry.name)] = (int(fields[1]), command)
    return found


def _workers(batch_pid: int) -> list[int]:
    """The batch's pool workers (not multiprocessing's resource tracker)."""
    return [
        pid
        for pid, (ppid, command) in _session(batch_pid).items()
        if ppid == batch_pid and "spawn_main" in command
    ]


def _wait(condition: object, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.01)
    return False


@pytest.mark.parametrize("moment", ["at-once", "worker-starting", "decks-building"])
def test_kill_9_of_a_batch_takes_its_workers(tmp_path: Path, moment: str) -> None:
    sheet = write_csv(tmp_path / "o.csv", SMALL_COLUMNS, small_orders(6))
    out = tmp_path / "out"
    command = [sys.executable, "-m", "deckgen", "batch", str(sheet), "--out", str(out), "-j", "2"]
    batch = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )
    eof = threading.Event()

    def drain() -> None:
        assert batch.stdout is not None
        while batch.stdout.read(65536):
            pass
        eof.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        if moment == "worker-starting":  # a worker exists, its start-up has not finished
            assert _wait(lambda: _workers(batch.pid), 30), "the batch started no worker"
        elif moment == "decks-building":
            staging = out / ".staging"
            assert _wait(lambda: staging.is_dir() and any(staging.iterdir()), 60), "no deck began"
        seen = _session(batch.pid)
        os.kill(batch.pid, signal.SIGKILL)
        batch.wait(timeout=10)
        left = _wait(lambda: not _session(batch.pid), GONE_WITHIN_S)
        survivors = _session(batch.pid)
        assert left, f"processes outlived the killed batch: {survivors} (seen before: {seen})"
        assert eof.wait(GONE_WITHIN_S), "the batch's output pipe never reached EOF"
    finally:
        for pid in _session(batch.pid):
            os.kill(pid, signal.SIGKILL)
        if batch.poll() is None:
            batch.kill()
            batch.wait()
