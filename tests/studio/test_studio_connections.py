"""The studio as a real uvicorn server on 127.0.0.1, against real slow and broken clients.

Before: a connection that sent its headers a byte at a time stayed open for as long as
the client liked (over 90 s), 21,000 of them made the studio unreachable, and each
aborted upload or stray connection wrote a traceback to stderr. Now headers must be
complete within the header timeout, a body must not stall, connections over the limit
close the oldest idle one, and each kind of event is one line. The server runs with
short timeouts (1 s) so that the tests are quick; nothing here measures speed.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SERVE = """
import sys
from pathlib import Path

from deckgen.studio.connections import ServerLimits
from deckgen.studio.server import ServeOptions, serve

limits = ServerLimits(
    header_timeout_s=1.0,
    body_idle_timeout_s=1.0,
    body_timeout_s=4.0,
    keep_alive_s=1,
    max_connections=int(sys.argv[2]),
)
serve(ServeOptions(target=Path(sys.argv[1]), open_browser=False, limits=limits))
"""
GIVE_UP_S = 10.0
"""How long a test waits for the server to close a connection (the timeouts are 1 s)."""


@dataclass
class Server:
    port: int
    token: str
    proc: subprocess.Popen[str]
    stderr_path: Path

    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=GIVE_UP_S)
        return sock

    def request(self, raw: str) -> bytes:
        """Send a whole request; the first line of the answer."""
        with self.connect() as sock:
            sock.sendall(raw.encode("latin-1"))
            answer = b""
            while b"\r\n" not in answer:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
        return answer.split(b"\r\n", 1)[0]

    def get(self, path: str) -> bytes:
        return self.request(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nConnection: close\r\n\r\n"
        )


def _start(tmp_path: Path, max_connections: int) -> Iterator[Server]:
    err = tmp_path / "stderr.txt"
    with err.open("w") as err_file:
        proc = subprocess.Popen(
            [sys.executable, "-c", SERVE, str(tmp_path / "deck"), str(max_connections)],
            stdout=subprocess.PIPE,
            stderr=err_file,
            text=True,
        )
    try:
        url = proc.stdout.readline().strip() if proc.stdout else ""
        assert url.startswith("http://127.0.0.1:"), (url, err.read_text())
        port = int(url.split(":")[2].split("/")[0])
        yield Server(port, url.split("token=")[1], proc, err)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    yield from _start(tmp_path, max_connections=16)


def _closed_by_server(sock: socket.socket, trickle: bytes) -> float | None:
    """Send ``trickle`` a byte every 0.2 s; seconds until the server closed, or None."""
    start = time.monotonic()
    sock.settimeout(0.2)
    for byte in trickle * 1000:
        if time.monotonic() - start > GIVE_UP_S:
            return None
        try:
            sock.send(bytes([byte]))
            if sock.recv(4096) == b"":
                return time.monotonic() - start
        except TimeoutError:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return time.monotonic() - start
    return None


def test_a_slow_client_is_closed_and_others_still_get_through(server: Server) -> None:
    slow = []
    for _ in range(40):  # more than the 16 connections allowed
        sock = server.connect()
        sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
        slow.append(sock)
    # A normal request gets its answer while they hang (403: no token given).
    assert server.get("/api/state") == b"HTTP/1.1 403 Forbidden"
    assert server.get(f"/?token={server.token}") == b"HTTP/1.1 303 See Other"
    # A client sending its headers a byte at a time is closed (header timeout: 1 s).
    with server.connect() as sock:
        sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
        closed_after = _closed_by_server(sock, b"X-Slow: aaaaaaaa\r\n")
    assert closed_after is not None, "a slowloris client was never closed"
    for sock in slow:
        sock.close()
    assert server.get("/api/state") == b"HTTP/1.1 403 Forbidden"
    server.proc.terminate()
    server.proc.wait(timeout=10)
    err = server.stderr()
    assert "Traceback" not in err
    assert err.count("sent no complete request within 1 s") == 1, err
    assert len(err.splitlines()) <= 4, err


def test_a_stalled_or_aborted_upload_is_one_line_and_the_studio_goes_on(server: Server) -> None:
    head = (
        f"PUT /api/picture/cover?token={server.token} HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{server.port}\r\nOrigin: http://127.0.0.1:{server.port}\r\n"
        "Content-Type: image/jpeg\r\nContent-Length: 100000\r\n\r\n"
    )
    # stalled: part of the body, then nothing (body idle timeout: 1 s)
    with server.connect() as sock:
        sock.sendall(head.encode() + b"\xff\xd8" + b"\0" * 5000)
        sock.settimeout(GIVE_UP_S)
        start = time.monotonic()
        try:
            answer = sock.recv(4096)
        except ConnectionResetError:
            answer = b""
        assert time.monotonic() - start < GIVE_UP_S
        assert answer == b"" or answer.startswith(b"HTTP/1.1 4"), answer
    # aborted: the browser goes away in the middle
    for _ in range(3):
        with server.connect() as sock:
            sock.sendall(head.encode() + b"\xff\xd8" + b"\0" * 20000)
        time.sleep(0.2)
    assert server.get(f"/?token={server.token}") == b"HTTP/1.1 303 See Other"
    server.proc.terminate()
    server.proc.wait(timeout=10)
    err = server.stderr()
    assert "Traceback" not in err, err
    assert "request body stalled for 1 s" in err
    assert len(err.splitlines()) <= 4, err
    assert not list((server.stderr_path.parent / "deck" / ".studio").glob("upload-*"))


def test_a_flood_of_idle_connections_does_not_lock_the_user_out(tmp_path: Path) -> None:
    for server in _start(tmp_path, max_connections=8):
        idle = [server.connect() for _ in range(150)]
        time.sleep(0.3)
        assert server.get(f"/?token={server.token}") == b"HTTP/1.1 303 See Other"
        for sock in idle:
            sock.close()
        server.proc.terminate()
        server.proc.wait(timeout=10)
        err = server.stderr()
        assert "Traceback" not in err
        assert "closed the oldest one still waiting" in err
        assert len(err.encode()) < 1000, err


def test_uvicorns_and_asyncios_errors_are_one_line_per_kind() -> None:
    import io
    import logging

    from deckgen.studio.connections import QUIET_LOGGERS, EventLog, quiet_logging

    saved = {
        name: (lg.handlers[:], lg.propagate, lg.level)
        for name in QUIET_LOGGERS
        for lg in [logging.getLogger(name)]
    }
    out = io.StringIO()
    try:
        quiet_logging(EventLog(out))
        for _ in range(500):
            try:
                raise ValueError("boom " + "x" * 1000)
            except ValueError as exc:
                logging.getLogger("uvicorn.error").error(
                    "Exception in ASGI application\n", exc_info=exc
                )
                logging.getLogger("asyncio").error("Exception in callback", exc_info=exc)
            logging.getLogger("uvicorn.error").warning("Invalid HTTP request received.")
    finally:
        for name, (handlers, propagate, level) in saved.items():
            logger = logging.getLogger(name)
            logger.handlers, logger.propagate = handlers, propagate
            logger.setLevel(level)
    lines = out.getvalue().splitlines()
    assert len(lines) == 3, lines
    assert "Traceback" not in out.getvalue()
    assert lines[0].startswith("deckgen studio: Exception in ASGI application: ValueError: boom")
    assert len(out.getvalue()) < 1000
