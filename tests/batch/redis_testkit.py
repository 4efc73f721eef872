"""Helpers for the queue tests: a throw-away redis-server, deckgen workers as processes."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

needs_redis = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def redis_server(folder: Path, password: str | None = None) -> Iterator[str]:
    """A redis-server on a random loopback port, without persistence; its URL."""
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    command += ["--appendonly", "no", "--dir", str(folder)]
    if password:
        command += ["--requirepass", password]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        auth = f":{password}@" if password else ""
        yield f"redis://{auth}127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def deckgen_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "deckgen", *args]


def start_worker(url: str, log: Path, *more: str) -> subprocess.Popen[bytes]:
    command = deckgen_command("worker", "--queue", url, "--check-every", "1", *more)
    with open(log, "wb") as fh:
        return subprocess.Popen(command, start_new_session=True, stdout=fh, stderr=fh)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        with_group = True
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            with_group = False
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            if with_group:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def wait_for(condition: object, timeout_s: float, what: str) -> None:
    """Poll ``condition()`` until it is true; fail saying ``what`` never happened."""
    deadline = time.monotonic() + timeout_s
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout_s} s")
        time.sleep(0.05)
