"""SIGTERM and SIGHUP end a run like Ctrl-C: cleaned up, nothing half-written.

:func:`terminate_like_ctrl_c` turns the two signals into :class:`Terminated` (a
``KeyboardInterrupt``), so the same ``finally`` and ``except BaseException`` blocks
that clean up after Ctrl-C (staging folders, temporary files, worker pools) run for a
``kill`` or a closed terminal too. The CLI installs it for the length of a command.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType


class Terminated(KeyboardInterrupt):
    """The process was asked to stop (SIGTERM, SIGHUP)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def terminate_like_ctrl_c() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated` (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGHUP)}
    for sig in previous:
        signal.signal(sig, _raise)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
