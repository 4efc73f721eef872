"""Worker processes that never outlive the run that started them.

Every pool of worker processes in deckgen (per-card PNGs, the rules check) is made by
:func:`worker_pool`. Each worker asks Linux to kill it when its parent dies
(``PR_SET_PDEATHSIG`` through ctypes; elsewhere a thread watches the parent), and
restores the default signal handlers, so a ``kill -9`` of deckgen does not leave
workers behind holding the caller's pipes open. If the run stops early (an error,
Ctrl-C, SIGTERM, SIGHUP), the pool's workers are killed at once instead of finishing
their chunks.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int | None = None) -> None:
    """Make this process die when its parent ``parent_pid`` (default: its parent now) dies.

    The one implementation for every process deckgen starts (worker pools, the batch's
    workers and Redis work horses). If the parent died already, exit at once.
    """
    if parent_pid is None:
        parent_pid = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl
            _watch_parent(parent_pid)
    else:  # pragma: no cover - not Linux
        _watch_parent(parent_pid)
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)


def _watch_parent(parent_pid: int) -> None:  # pragma: no cover - not Linux
    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="deckgen-parent-watch").start()


def init_worker(parent_pid: int) -> None:
    """Worker initializer: die with the parent; default signal handling; no Ctrl-C noise."""
    die_with_parent(parent_pid)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and kills us


class WorkerPool(ProcessPoolExecutor):
    """A process pool whose workers die with this process and are killed on early exit.

    Used like :class:`ProcessPoolExecutor` (``with WorkerPool(n, ctx) as pool:``);
    leaving the block with an exception (Ctrl-C, SIGTERM, an error) kills the workers
    instead of waiting for their chunks.
    """

    def __init__(self, max_workers: int, mp_context: Any) -> None:
        super().__init__(
            max_workers=max_workers,
            mp_context=mp_context,
            initializer=init_worker,
            initargs=(os.getpid(),),
        )

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool | None:
        if exc_type is not None:
            kill_workers(self)
            return None
        return super().__exit__(exc_type, exc, tb)


def kill_workers(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: cancel what has not started, kill the worker processes."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.kill()
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.join(5)


def can_fork() -> bool:
    """Whether a second core can take part of a job in a forked child: ``fork`` exists,
    there is more than one core, and this process runs one thread (a child forked from
    a server's worker thread could inherit a lock another thread holds)."""
    import multiprocessing

    return (
        (os.cpu_count() or 1) > 1
        and threading.active_count() == 1
        and "fork" in multiprocessing.get_all_start_methods()
    )


class Forked:
    """One call of ``fn`` in a forked child process that dies with this one.

    The child inherits everything in memory (nothing is pickled to start it) and sends
    back ``fn``'s result as JSON over a pipe (nothing is unpickled). :meth:`result`
    gives it, or None when the child failed in any way: the caller then does the work
    itself, in this process, where an error is raised with its own type and message.
    Used where a job splits into independent parts that each write their own files
    (a booklet's languages).
    """

    def __init__(self, fn: Callable[[], Any]) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        self._recv, send = ctx.Pipe(duplex=False)
        parent = os.getpid()

        def run() -> None:
            init_worker(parent)
            try:
                payload = json.dumps({"result": fn()})
            except BaseException:  # the parent redoes the work and reports the error
                payload = "{}"
            send.send_bytes(payload.encode())

        self._proc = ctx.Process(target=run, daemon=True, name="deckgen-forked")
        self._proc.start()
        send.close()

    def result(self) -> Any | None:
        """The child's result once it ends, or None when it failed."""
        try:
            data = self._recv.recv_bytes()
        except (EOFError, OSError):
            data = b"{}"
        finally:
            self._recv.close()
        self._proc.join()
        if self._proc.exitcode != 0:
            return None
        try:
            got = json.loads(data)
        except ValueError:
            return None
        return got.get("result") if isinstance(got, dict) else None

    def kill(self) -> None:
        """Stop the child now (the parent's own part failed)."""
        with contextlib.suppress(Exception):
            self._proc.kill()
            self._proc.join(5)
        with contextlib.suppress(Exception):
            self._recv.close()
