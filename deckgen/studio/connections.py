"""The studio's connections: timeouts, a connection limit and a quiet log.

Anyone who can reach the port can open connections, before any token is checked. So
uvicorn's HTTP protocol (h11) is wrapped (:func:`guarded_protocol`) to hold:

- **request headers** complete within :attr:`ServerLimits.header_timeout_s` of the
  first byte of a request (a client sending its headers a byte at a time, or nothing
  at all, is closed);
- **a request body** never idle for :attr:`ServerLimits.body_idle_timeout_s` (while
  the studio waits for it, not while it is still busy with what came) and complete
  within :attr:`ServerLimits.body_timeout_s`;
- **at most** :attr:`ServerLimits.max_connections` open connections: a new one over the
  limit first closes the oldest connection still waiting for its headers, so a flood
  of idle connections cannot lock the user out; if every connection is busy with a
  request, the new one is closed.

:class:`EventLog` writes one line per kind of event (a slow client closed, an upload
aborted, an error in a request) the first time, then at most one line a minute with
how many more there were, and never a traceback: uvicorn's and asyncio's loggers are
routed through it (:func:`quiet_logging`).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


@dataclass(frozen=True)
class ServerLimits:
    """Timeouts and limits of the studio's connections (docs/limits.md)."""

    header_timeout_s: float = 10.0
    body_idle_timeout_s: float = 30.0
    body_timeout_s: float = 300.0
    keep_alive_s: int = 5
    max_connections: int = 64


class EventLog:
    """One line per kind of event, then a count at most once a ``period_s``."""

    def __init__(self, out: TextIO | None = None, *, period_s: float = 60.0) -> None:
        self.out = out
        self.period_s = period_s
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._more: dict[str, int] = {}
        self.counts: dict[str, int] = {}

    def note(self, kind: str, text: str) -> None:
        now = time.monotonic()
        with self._lock:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            last = self._last.get(kind)
            if last is not None and now - last < self.period_s:
                self._more[kind] = self._more.get(kind, 0) + 1
                return
            more = self._more.pop(kind, 0)
            self._last[kind] = now
        line = f"deckgen studio: {text}"
        if more:
            line += f" ({more} more like this since the last note)"
        stream = self.out or sys.stderr
        try:
            stream.write(line + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass


class _EventHandler(logging.Handler):
    """Log records (uvicorn's, asyncio's) as events: one line, no traceback."""

    def __init__(self, events: EventLog) -> None:
        super().__init__(logging.WARNING)
        self.events = events

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage().strip().splitlines()[0] if record.getMessage() else ""
        except Exception:
            text = str(record.msg)
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None and isinstance(record.args, dict):
            found = record.args.get("exception")
            exc = found if isinstance(found, BaseException) else None
        kind = f"{record.name}:{record.msg if isinstance(record.msg, str) else text}"
        if exc is not None:
            kind += f":{type(exc).__name__}"
            text = f"{text.rstrip('.:')}: {type(exc).__name__}: {str(exc)[:200]}"
        self.events.note(kind, text)


QUIET_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "asyncio")


def quiet_logging(events: EventLog) -> None:
    """Route uvicorn's and asyncio's warnings and errors through ``events``."""
    handler = _EventHandler(events)
    for name in QUIET_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers = [handler] if name != "uvicorn.access" else []
        logger.propagate = False
        logger.setLevel(logging.WARNING)


def guarded_protocol(limits: ServerLimits, events: EventLog) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the header and body timeouts and the connection limit."""
    waiting: dict[GuardedProtocol, None] = {}
    """Connections waiting for request headers, oldest first."""

    class GuardedProtocol(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _timer_kind = ""
        _body_started = 0.0

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > limits.max_connections:
                oldest = next(iter(waiting), None)
                if oldest is not None:
                    events.note(
                        "limit-evict",
                        f"more than {limits.max_connections} connections: closed the oldest "
                        "one still waiting for its request",
                    )
                    oldest._close()
                else:
                    events.note(
                        "limit-refuse",
                        f"more than {limits.max_connections} connections, all busy: "
                        "refused a new one",
                    )
                    self._close()
                    return
            self._await_headers()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel()
            waiting.pop(self, None)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._follow()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # uvicorn's keep-alive timeout runs until the next request starts
            waiting.pop(self, None)
            self._cancel()
            if self.conn.their_state is h11.SEND_BODY:  # a pipelined request
                self._follow()

        # -- timers ----------------------------------------------------------------------
        def _follow(self) -> None:
            """Arm the timer that fits the state the request is in."""
            if self.transport.is_closing():
                return
            state = self.conn.their_state
            if state is h11.IDLE:
                if self._timer_kind != "header":
                    self._await_headers()
            elif state is h11.SEND_BODY:
                waiting.pop(self, None)
                if self._timer_kind != "body":
                    self._body_started = self.loop.time()
                left = limits.body_timeout_s - (self.loop.time() - self._body_started)
                self._arm("body", max(0.0, min(limits.body_idle_timeout_s, left)), self._body_late)
            else:
                waiting.pop(self, None)
                self._cancel()

        def _await_headers(self) -> None:
            waiting[self] = None
            self._arm("header", limits.header_timeout_s, self._headers_late)

        def _arm(self, kind: str, delay: float, callback: Callable[[], None]) -> None:
            self._cancel()
            self._timer_kind = kind
            self._timer = self.loop.call_later(delay, callback)

        def _cancel(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = None
            self._timer_kind = ""

        def _headers_late(self) -> None:
            self._timer = None
            self._timer_kind = ""
            events.note(
                "header-timeout",
                f"closed a connection that sent no complete request within "
                f"{limits.header_timeout_s:g} s",
            )
            self._close()

        def _body_late(self) -> None:
            self._timer = None
            self._timer_kind = ""
            if self.conn.their_state is not h11.SEND_BODY:
                return
            if self.flow.read_paused:
                # the studio is still busy with what came: not the client's fault
                self._timer_kind = "body"
                self._timer = self.loop.call_later(limits.body_idle_timeout_s, self._body_late)
                return
            overall = self.loop.time() - self._body_started
            if overall < limits.body_timeout_s:
                why = f"stalled for {limits.body_idle_timeout_s:g} s"
            else:
                why = f"took over {limits.body_timeout_s:g} s"
            events.note("body-timeout", f"closed a connection whose request body {why}")
            self._close()

        def _close(self) -> None:
            self._cancel()
            waiting.pop(self, None)
            if self.transport is not None and not self.transport.is_closing():
                self.transport.close()

    return GuardedProtocol


def protocol_args(limits: ServerLimits) -> dict[str, Any]:
    """uvicorn ``Config`` arguments for these limits."""
    return {"timeout_keep_alive": limits.keep_alive_s, "limit_concurrency": None}
