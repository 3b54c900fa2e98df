"""The checks every HTTP request passes before the app sees it, and the headers every answer gets.

The server listens on localhost for one person, but any web page that person opens can send it
requests: directly (a cross-site POST needs no permission to be sent) or through DNS rebinding
(a hostile name that resolves to 127.0.0.1). So:

- the ``Host`` header must name the bound host (any localhost name when bound to localhost),
  which defeats rebinding: the hostile page's requests carry its own name;
- a request that changes something (POST, PUT, PATCH, DELETE) from a browser must come from
  this server's own origin (``Origin`` and ``Sec-Fetch-Site``);
- a body is at most :data:`MAX_BODY` bytes, refused before it is read into memory;
- every answer forbids inline script and framing (Content-Security-Policy), so text from a game
  file can never run as script even if a page bug rendered it as HTML.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 256 * 1024
"""Largest request body in bytes: a GGF game with comments is a few KB."""

LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
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


def allowed_hosts(bound: str) -> frozenset[str] | None:
    """Host names requests may carry when serving on ``bound``; None: any (all interfaces)."""
    bound = bound.strip("[]").lower()
    if bound in ("", "0.0.0.0", "::"):
        return None
    if bound in LOCAL_NAMES or bound.startswith("127."):
        return LOCAL_NAMES | {bound}
    return frozenset({bound})


def _host_name(value: str) -> str:
    """``example.org`` from ``example.org:8765``; ``::1`` from ``[::1]:8765``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class RequestGuard:
    """ASGI middleware: Host and Origin checks, a body size limit, security headers."""

    def __init__(
        self, app: ASGIApp, *, hosts: Iterable[str] | None, max_body: int = MAX_BODY
    ) -> None:
        self.app = app
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        problem = self._refusal(scope, headers)
        if problem is not None:
            await _answer(send, *problem, docs=False)
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
                message["headers"] = list(message.get("headers", [])) + _security_headers(docs)
            await send(message)

        await self.app(scope, limited_receive, guarded_send)

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
