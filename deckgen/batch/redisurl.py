"""The Redis URL of a queue: where the server is, and with what secret.

A URL of a server on another machine must carry a password or use TLS (``rediss://``)
unless the user says ``--insecure-redis``; the password never appears in a message
(:func:`hide_password`, :func:`shown_url`). :func:`connect` gives a checked, live
connection. Used by every queue of deckgen (deck batches, rules sweeps).
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from deckgen.errors import InputError, excerpt, first_line

CONNECT_TIMEOUT_S = 10
MASK = "***"


def _secrets(url: str) -> list[str]:
    """The password of a Redis URL in every spelling it may appear in a message."""
    found: list[str] = []
    match = re.match(r"^[^:/]*://([^@/]*)@", url)
    if match and ":" in match.group(1):
        found.append(match.group(1).split(":", 1)[1])
    elif match:  # redis://password@host is read as a user name; hide it all the same
        found.append(match.group(1))
    query = url.partition("?")[2]
    for key, values in parse_qs(query, keep_blank_values=True).items():
        if key.lower() == "password":
            found.extend(values)
    found.extend([unquote(s) for s in found])
    return sorted({s for s in found if s}, key=len, reverse=True)


def hide_password(text: str, url: str) -> str:
    """``text`` with the URL's password replaced by ``***`` wherever it appears."""
    for secret in _secrets(url):
        text = text.replace(secret, MASK)
    return text


def shown_url(url: str) -> str:
    """The URL as a message may show it: password hidden, escapes made visible."""
    return excerpt(hide_password(url, url), 200)


def _has_password(url: str) -> bool:
    parts = urlsplit(url)
    if parts.password:
        return True
    query = parse_qs(parts.query, keep_blank_values=True)
    return any(k.lower() == "password" and any(v) for k, v in query.items())


def is_loopback(url: str) -> bool:
    """Whether the URL's Redis server is on this machine (a unix socket, or loopback)."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return True
    host = parts.hostname or "localhost"
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_queue_url(url: str, *, insecure: bool = False) -> None:
    """Refuse a URL that is not Redis, or a remote one with neither password nor TLS."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise InputError(
            f"'{shown_url(url)}' is not a Redis URL",
            where="option --queue",
            fix="write it as redis://host:6379/0",
        )
    try:
        urlsplit(url).port  # noqa: B018 - a bad port raises here, before any connection
    except ValueError:
        raise InputError(
            f"'{shown_url(url)}' has no valid port",
            where="option --queue",
            fix="write it as redis://host:6379/0",
        ) from None
    if insecure or url.startswith("rediss://") or is_loopback(url) or _has_password(url):
        return
    raise InputError(
        f"the Redis server at {shown_url(url)} is not on this machine and the URL carries "
        "no password: anyone who can reach that server could fill the queue",
        where="option --queue",
        fix="give the server a password (requirepass) and write redis://:PASSWORD@host:6379/0, "
        "or use TLS (rediss://...); on a network you trust completely, pass --insecure-redis",
    )


def connect(url: str, *, insecure: bool = False) -> Any:
    """A checked, live connection to the Redis server of ``url``."""
    from redis import Redis
    from redis.exceptions import RedisError

    check_queue_url(url, insecure=insecure)
    try:
        connection = Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT_S)
        connection.ping()
    except (RedisError, ValueError, OSError) as exc:
        reason = hide_password(first_line(exc, 200), url)
        raise InputError(
            f"cannot reach the Redis server at {shown_url(url)} ({reason})",
            where="option --queue",
            fix="start redis-server there, or correct the host, port and password",
        ) from None
    return connection
