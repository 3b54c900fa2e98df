"""The checks every HTTP request passes before the app sees it, and the headers every answer gets.

The server listens on localhost for one person, but any web page that person opens can send it
requests: directly (a cross-site POST needs no permission to be sent) or through DNS rebinding
(a hostile name that resolves to 127.0.0.1). Served beyond localhost, anyone on the network can
send it requests too. So:

- the ``Host`` header must name the server: the bound host, the localhost names, and when bound
  to every interface the machine's own names and addresses (:func:`allowed_hosts`). This defeats
  rebinding: the hostile page's requests carry its own name;
- with an access token (always beyond localhost, see ``bitflip play``) every request must carry
  it: in the ``token`` query parameter of the address the server printed, which sets a cookie
  (HttpOnly, SameSite=Strict) so that the page's later requests carry it, in that cookie, or as
  ``Authorization: Bearer TOKEN`` (scripts); anything else is 401;
- a request that changes something (POST, PUT, PATCH, DELETE) from a browser must come from
  this server's own origin (``Origin`` and ``Sec-Fetch-Site``);
- a body is at most :data:`MAX_BODY` bytes, refused before it is read into memory;
- every answer forbids inline script and framing (Content-Security-Policy), so text from a game
  file can never run as script even if a page bug rendered it as HTML.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlsplit

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 256 * 1024
"""Largest request body in bytes: a GGF game with comments is a few KB."""

LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = frozenset({"", "0.0.0.0", "::"})
TOKEN_PARAM = "token"
"""The query parameter of the printed address that carries the access token."""
TOKEN_COOKIE = "bitflip_token"
"""The cookie that carries it afterwards (its name ends in the server's port)."""
NO_TOKEN = (
    "this server needs its access token: open the address that `bitflip play` printed "
    "(it ends in ?token=...)"
)
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
# FastAPI's /docs and /redoc pages load their script from a CDN and start it inline.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "img-src 'self' data: https://fastapi.tiangolo.com; font-src https://fonts.gstatic.com; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


def check_token(token: str) -> str:
    """``token`` if it can be an access token: it travels in an address and a cookie.

    Raises:
        ValueError: an empty token, or one with other characters than letters, digits, - _ . ~
    """
    if not token or any(not (c.isascii() and (c.isalnum() or c in "-_.~")) for c in token):
        raise ValueError(
            "an access token is letters, digits and - _ . ~ only (it travels in an address)"
        )
    return token


def is_loopback(host: str) -> bool:
    """``host`` is reachable from this machine only."""
    host = host.strip("[]").lower()
    return host in LOCAL_NAMES or host.startswith("127.")


def allowed_hosts(bound: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """Host names requests may carry when serving on ``bound``, beside ``extra`` names
    (``bitflip play --allow-host``): on localhost any localhost name; on every interface
    ("0.0.0.0", "::") the localhost names and this machine's names and addresses; else
    ``bound`` only (requests from this machine name it too)."""
    bound = bound.strip("[]").lower()
    names = {h.strip("[]").lower() for h in extra}
    if bound in WILDCARDS:
        names |= LOCAL_NAMES | machine_names()
    elif is_loopback(bound):
        names |= LOCAL_NAMES | {bound}
    else:
        names.add(bound)
    return frozenset(n for n in names if n)


def machine_names() -> set[str]:
    """This machine's host names and the addresses they and its outgoing route have."""
    names: set[str] = set()
    with contextlib.suppress(OSError):
        host = socket.gethostname()
        names |= {host, socket.getfqdn(), host + ".local"}
    for name in list(names):
        with contextlib.suppress(OSError, UnicodeError):
            names |= {str(info[4][0]) for info in socket.getaddrinfo(name, None)}
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        # The address this machine would send from; connecting a UDP socket sends nothing.
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            names.add(str(s.getsockname()[0]))
    return {n.lower().split("%")[0] for n in names}


def _host_name(value: str) -> str:
    """``example.org`` from ``example.org:8765``; ``::1`` from ``[::1]:8765``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class RequestGuard:
    """ASGI middleware: Host, token and Origin checks, a body size limit, security headers.

    Args:
        hosts: the names requests may carry in ``Host`` (None: any; tests only).
        token: the access token every request must carry (None: none needed).
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: Iterable[str] | None,
        token: str | None = None,
        max_body: int = MAX_BODY,
    ) -> None:
        self.app = app
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)
        self.token = None if token is None else check_token(token)
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":  # the app has none: nothing to guard, refuse
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        problem = self._refusal(scope, headers)
        if problem is not None:
            await _answer(send, *problem, docs=False)
            return
        set_cookie: list[tuple[bytes, bytes]] = []
        if self.token is not None:
            carried = self._token_of(scope, headers)
            if carried is None:
                await _answer(send, 401, NO_TOKEN, docs=False)
                return
            if carried == "query":
                set_cookie = [(b"set-cookie", self._cookie(scope).encode("latin-1"))]
                if scope.get("method") == "GET" and scope.get("path") == "/":
                    # The page itself: drop the token from the address bar and history.
                    await _redirect(send, "/", set_cookie)
                    return
        length = headers.get("content-length", "")
        if length and (not length.isdigit() or int(length) > self.max_body):
            await _answer(send, 413, self._too_large(), docs=False)
            return

        received = 0
        too_large = False

        async def limited_receive() -> Message:
            nonlocal received, too_large
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    too_large = True
                    # The app sees an empty, finished body; the 413 below replaces its answer.
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        docs = scope.get("path", "") in ("/docs", "/redoc", "/docs/oauth2-redirect")
        started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if too_large:
                if not started:
                    started = True
                    await _answer(send, 413, self._too_large(), docs=docs)
                return
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [
                    *message.get("headers", []),
                    *_security_headers(docs),
                    *set_cookie,
                ]
            await send(message)

        await self.app(scope, limited_receive, guarded_send)

    def _token_of(self, scope: Scope, headers: dict[str, str]) -> str | None:
        """Where the request carries the right token ("cookie", "query", "header"), or None."""
        assert self.token is not None
        want = self.token.encode()
        try:
            jar = SimpleCookie(headers.get("cookie", ""))
        except CookieError:
            jar = SimpleCookie()
        cookie = jar.get(_cookie_name(scope))
        if cookie is not None and hmac.compare_digest(cookie.value.encode(), want):
            return "cookie"
        auth = headers.get("authorization", "")
        if auth[:7].lower() == "bearer " and hmac.compare_digest(auth[7:].strip().encode(), want):
            return "header"
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = query.get(TOKEN_PARAM, [])
        if len(given) == 1 and hmac.compare_digest(given[0].encode(), want):
            return "query"
        return None

    def _cookie(self, scope: Scope) -> str:
        assert self.token is not None
        return f"{_cookie_name(scope)}={self.token}; Path=/; HttpOnly; SameSite=Strict"

    def _too_large(self) -> str:
        return f"the request body is larger than {self.max_body // 1024} KB"

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if self.hosts is not None and _host_name(host) not in self.hosts:
            return 400, "the Host header does not name this server"
        if scope.get("method", "GET") not in UNSAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            if origin == "null" or parts.netloc.lower() != host.strip().lower():
                return 403, "requests that change games must come from this server's own page"
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, "requests that change games must come from this server's own page"
        return None


def _cookie_name(scope: Scope) -> str:
    """The token cookie's name for this server: cookies ignore ports, so two servers on one
    machine would overwrite each other's."""
    server = scope.get("server")
    port = server[1] if isinstance(server, tuple | list) and len(server) > 1 else None
    return f"{TOKEN_COOKIE}_{port}" if isinstance(port, int) else TOKEN_COOKIE


async def _redirect(send: Send, location: str, headers: list[tuple[bytes, bytes]]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 303,
            "headers": [
                (b"location", location.encode()),
                (b"content-length", b"0"),
                *_security_headers(False),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": b""})


def _security_headers(docs: bool) -> list[tuple[bytes, bytes]]:
    csp = DOCS_CSP if docs else CSP
    return [(b"content-security-policy", csp.encode()), *HEADERS]


async def _answer(send: Send, status: int, detail: str, *, docs: bool) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *_security_headers(docs),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
