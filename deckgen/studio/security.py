"""The studio's guard: a session token, and Host and Origin checks, on every request.

A local web server is reachable by every web page the user visits (their scripts can
send requests to 127.0.0.1) and, through DNS rebinding, under a foreign host name.
:class:`StudioGuard` (ASGI middleware, in front of every route) therefore demands:

1. **Host**: the ``Host`` header names the address the studio serves
   (``127.0.0.1:PORT``, ``localhost:PORT``, ``[::1]:PORT`` or the ``--host`` given);
   a rebound foreign name is refused.
2. **Origin**: a request that changes anything (every method but GET/HEAD) carries an
   ``Origin`` header equal to the studio's own; any request a browser marks as coming
   from another site or another port (``Sec-Fetch-Site`` other than ``same-origin`` or
   ``none``, or a foreign ``Origin``) is refused.
3. **Token**: the random session token printed with the URL, either in the query
   (``?token=...``, first visit: it is then set as an HttpOnly, SameSite=Strict
   cookie and the browser is sent on to the URL without it) or in that cookie.

Comparisons of the token are constant-time. A refused request gets 403 (421 for a
wrong Host) with a short page that says what to do.

Every response, refusals included, carries :data:`SECURITY_HEADERS`: no MIME sniffing,
no framing by another page (``X-Frame-Options`` and CSP ``frame-ancestors``), no
``Referer`` sent on. The session cookie's name holds the port and a random part made
at each start (:func:`cookie_name`): cookies do not tell ports apart, so a browser
sends every studio's cookie to every server on 127.0.0.1, but no other studio (nor
this one after a restart) takes it for its own.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD"})
FETCH_SITES_OK = frozenset({"same-origin", "none"})
"""``Sec-Fetch-Site`` values let through: the studio's own page, or the user opening a
link or bookmark. ``same-site`` is refused too: another server on this computer (another
port) is the same site, and cookies do not tell ports apart."""


def new_token() -> str:
    """A fresh session token (32 random bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


def cookie_name(port: int, start: str | None = None) -> str:
    """The session cookie's name: the port and a random part new at each start.

    >>> cookie_name(8765, "ab12cd34")
    'deckgen_studio_8765_ab12cd34'
    """
    return f"deckgen_studio_{port}_{start or secrets.token_hex(4)}"


SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)
FRAME_CSP = (b"content-security-policy", b"frame-ancestors 'none'")
"""For responses without a CSP of their own (the page sends its full policy)."""


def _with_security_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            names = {bytes(name).lower() for name, _ in headers}
            headers += [h for h in SECURITY_HEADERS if h[0] not in names]
            if FRAME_CSP[0] not in names:
                headers.append(FRAME_CSP)
            message = {**message, "headers": headers}
        await send(message)

    return sending


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The Host header values the studio answers to."""
    names = {"127.0.0.1", "localhost", "[::1]"}
    if host not in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "::"):
        names.add(f"[{host}]" if ":" in host else host)
    return frozenset(f"{name}:{port}" for name in names)


@dataclass(frozen=True)
class GuardSettings:
    token: str
    hosts: frozenset[str]
    cookie: str

    @property
    def origins(self) -> frozenset[str]:
        return frozenset(f"http://{h}" for h in self.hosts)


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for raw_name, raw_value in scope.get("headers", []):
        out[raw_name.decode("latin-1").lower()] = raw_value.decode("latin-1")
    return out


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


class StudioGuard:
    """ASGI middleware: refuse any request without the right Host, Origin and token."""

    def __init__(self, app: ASGIApp, settings: GuardSettings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "lifespan":
                await self.app(scope, receive, send)
            return
        send = _with_security_headers(send)
        headers = _headers(scope)
        s = self.settings
        if headers.get("host", "").lower() not in s.hosts:
            await _refuse(send, 421, "This studio answers only at its own address.")
            return
        origin = headers.get("origin")
        method = scope.get("method", "GET")
        if origin is not None and origin not in s.origins:
            await _refuse(send, 403, "Requests from other web sites are refused.")
            return
        if headers.get("sec-fetch-site", "same-origin") not in FETCH_SITES_OK:
            await _refuse(
                send,
                403,
                "Requests from other web sites are refused. To open the studio, paste the "
                "link that `deckgen studio` printed into the address bar.",
            )
            return
        if method not in SAFE_METHODS and origin is None:
            await _refuse(send, 403, "A change must come from the studio's own page.")
            return
        query = scope.get("query_string", b"").decode("latin-1")
        params = parse_qsl(query, keep_blank_values=True)
        given = dict(params).get("token")
        if given is not None:
            if not _same(given, s.token):
                await _refuse(send, 403, "This link's token is wrong or old.")
                return
            if method in SAFE_METHODS:
                rest = urlencode([(k, v) for k, v in params if k != "token"])
                await _redirect_with_cookie(send, scope.get("path", "/"), rest, s)
                return
            await self.app(scope, receive, send)
            return
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:
            cookie = SimpleCookie()
        morsel = cookie.get(s.cookie)
        if morsel is None or not _same(morsel.value, s.token):
            await _refuse(
                send,
                403,
                "Open the studio with the link that `deckgen studio` printed (it holds the "
                "session token).",
            )
            return
        await self.app(scope, receive, send)


async def _redirect_with_cookie(send: Send, path: str, query: str, s: GuardSettings) -> None:
    location = path + (f"?{query}" if query else "")
    cookie = f"{s.cookie}={s.token}; Path=/; HttpOnly; SameSite=Strict"
    await send(
        {
            "type": "http.response.start",
            "status": 303,
            "headers": [
                (b"location", location.encode("latin-1")),
                (b"set-cookie", cookie.encode("latin-1")),
                (b"cache-control", b"no-store"),
                (b"referrer-policy", b"no-referrer"),
                (b"content-length", b"0"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b""})


async def _refuse(send: Send, status: int, text: str) -> None:
    body = (
        "<!doctype html><meta charset=utf-8><title>deckgen studio</title>"
        f"<p style='font:16px sans-serif;margin:3em'>{text}</p>"
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
