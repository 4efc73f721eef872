"""``deckgen studio`` as a library call: open the project, print the URL, serve.

:func:`serve` binds 127.0.0.1 unless told otherwise (another address prints a warning:
everyone who can reach it and has the link can change the deck), prints the URL with
the session token as the first line of output, opens the browser unless told not to
and runs uvicorn until interrupted.
"""

from __future__ import annotations

import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from deckgen.errors import InputError
from deckgen.studio.security import GuardSettings, allowed_hosts, cookie_name, new_token

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class ServeOptions:
    target: Path | None = None
    port: int = 0
    host: str = "127.0.0.1"
    open_browser: bool = True


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: a free one), or a clear error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise InputError(
            f"cannot listen on {host}:{port} ({exc.strerror})",
            where="option --port / --host",
            fix="choose another port, or leave --port out to take a free one",
        ) from None
    sock.listen(64)
    return sock


def studio_url(host: str, port: int, token: str) -> str:
    shown = "127.0.0.1" if host in ("127.0.0.1", "localhost") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/?token={token}"


def serve(options: ServeOptions, *, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> None:
    """Run the studio until Ctrl+C."""
    import uvicorn

    from deckgen.studio.app import create_app
    from deckgen.studio.project import StudioProject

    if options.host in ("0.0.0.0", "::", ""):
        raise InputError(
            f"--host {options.host or '(empty)'} would listen on every network",
            where="option --host",
            fix="give the one address the studio should be reached at (e.g. this "
            "machine's address in your home network)",
        )
    if not 0 <= options.port <= 65535:
        raise InputError(
            f"{options.port} is not a port", where="option --port", fix="use 1 ... 65535"
        )
    project = StudioProject.open(options.target)
    sock = _listen(options.host, options.port)
    port = int(sock.getsockname()[1])
    token = new_token()
    settings = GuardSettings(
        token=token, hosts=allowed_hosts(options.host, port), cookie=cookie_name(port)
    )
    app = create_app(project, settings)
    url = studio_url(options.host, port, token)
    if options.host not in LOOPBACK:
        err.write(
            f"warning: the studio listens on {options.host}, not only on this computer: anyone "
            "who can reach that address and has the link can change the deck and read its "
            "pictures\n"
        )
        err.flush()
    out.write(f"{url}\n")
    out.write(f"deckgen studio: editing {project.deck_path}; press Ctrl+C to stop\n")
    out.flush()
    if options.open_browser:
        import threading
        import webbrowser

        threading.Timer(0.6, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
