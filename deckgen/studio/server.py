"""``deckgen studio`` as a library call: open the project, print the URL, serve.

:func:`serve` binds 127.0.0.1 unless told otherwise, prints the URL with the session
token as the first line of output, opens the browser unless told not to and runs
uvicorn until interrupted, with the timeouts and limits of
:mod:`deckgen.studio.connections`.

The address is parsed (:func:`listen_address`), in every spelling the system accepts
(``0``, ``0x0``, ``000.000.000.000``, ``127.1``, ``::0``, ``[::1]``): an address that
means every network (``0.0.0.0``, ``::``) is always refused; another computer's
address, one of this computer's network addresses, or a host name, only with
``allow_network`` (``--allow-network``), and then with a warning: everyone who can
reach it and has the link can change the deck. Loopback addresses (127.0.0.0/8,
``::1``, ``localhost``) need nothing.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from deckgen.errors import InputError
from deckgen.studio.connections import EventLog, ServerLimits, guarded_protocol, quiet_logging
from deckgen.studio.security import GuardSettings, allowed_hosts, cookie_name, new_token

LOOPBACK = ("127.0.0.1", "::1")


@dataclass(frozen=True)
class ServeOptions:
    target: Path | None = None
    port: int = 0
    host: str = "127.0.0.1"
    open_browser: bool = True
    allow_network: bool = False
    limits: ServerLimits = field(default_factory=ServerLimits)


def _parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``text`` as an IP address in any form the system accepts, or None (a name)."""
    candidate = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    try:
        address = ipaddress.ip_address(candidate)
    except ValueError:
        try:  # the C library's forms: 0, 0x0, 000.000.000.000, 127.1, 2130706433
            return ipaddress.IPv4Address(socket.inet_aton(candidate))
        except (OSError, ValueError):
            return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def listen_address(host: str, *, allow_network: bool = False) -> str:
    """The address to listen on for ``--host host`` (canonical), or a clear error."""
    text = host.strip()
    if text.lower() in ("localhost", "localhost."):
        return "127.0.0.1"
    address = _parse_ip(text)
    if address is not None and address.is_unspecified:
        raise InputError(
            f"--host {text or '(empty)'} would listen on every network",
            where="option --host",
            fix="give the one address the studio should be reached at (e.g. this "
            "machine's address in your home network, with --allow-network)",
        )
    if address is not None and address.is_loopback:
        return str(address)
    if not allow_network:
        shown = text or "(empty)"
        raise InputError(
            f"--host {shown} is not an address of this computer only: other machines "
            "could reach the studio",
            where="option --host",
            fix="leave --host out (127.0.0.1), or add --allow-network to let other machines "
            "in on purpose",
        )
    if address is None:
        if not text:
            raise InputError("--host is empty", where="option --host", fix="give an address")
        return text
    return str(address)


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

    host = listen_address(options.host, allow_network=options.allow_network)
    if not 0 <= options.port <= 65535:
        raise InputError(
            f"{options.port} is not a port", where="option --port", fix="use 1 ... 65535"
        )
    project = StudioProject.open(options.target)
    sock = _listen(host, options.port)
    port = int(sock.getsockname()[1])
    token = new_token()
    settings = GuardSettings(token=token, hosts=allowed_hosts(host, port), cookie=cookie_name(port))
    app = create_app(project, settings)
    url = studio_url(host, port, token)
    if host not in LOOPBACK:
        err.write(
            f"warning: the studio listens on {host}, not only on this computer: anyone "
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
    events = EventLog(err)
    quiet_logging(events)
    limits = options.limits
    config = uvicorn.Config(
        app,
        http=guarded_protocol(limits, events),
        log_config=None,
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_keep_alive=limits.keep_alive_s,
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
