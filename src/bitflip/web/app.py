"""The FastAPI app: the JSON API under ``/api/`` and the page that uses it.

``create_app(db_path)`` builds an app over one SQLite file; ``bitflip play`` serves it with
uvicorn. Every error a client can cause is a 4xx with a one-line ``detail``: 400 for a bad
move or request, 404 for an unknown game, 409 for a request that does not fit the game now
(wrong turn, game over, stale ply), 401 for a request without the server's access token (when
it has one), 403 for an opponent the server does not allow or a request from another origin,
413 for a body over the limit, 422 for a body of the wrong shape. Details are one short line
that never echoes a long input back. :mod:`bitflip.web.guard` checks every
request first; :mod:`bitflip.web.policy` decides which opponents requests may name.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from bitflip.agents import DEFAULT_OPPONENT
from bitflip.search.book import open_book
from bitflip.web import routes
from bitflip.web.engine_bridge import EngineFactory, new_engine
from bitflip.web.games import GameError
from bitflip.web.guard import RequestGuard, allowed_hosts, check_token
from bitflip.web.manager import Conflict, GameManager, UnknownGame
from bitflip.web.policy import ForbiddenOpponent, OpponentPolicy
from bitflip.web.store import GameStore

log = logging.getLogger(__name__)

MAX_DETAIL = 200
"""Longest error detail: a message about a huge input names it, it does not repeat it."""


def create_app(
    db_path: str | Path = ":memory:",
    *,
    opponent: str | None = None,
    allow_opponents: Iterable[str] = (),
    host: str = "127.0.0.1",
    token: str | None = None,
    allow_hosts: Iterable[str] = (),
    workers: int = 8,
    make_engine: EngineFactory = new_engine,
    book: str | None = "default",
) -> FastAPI:
    """The web app over the games in ``db_path``.

    Args:
        opponent: a new game's opponent when a request names none (always allowed).
        allow_opponents: further specs that requests may name beside the safe agents (see
            :mod:`bitflip.web.policy`); only the person starting the server sets these.
        host: the address the server is bound to; requests must name it (or a localhost
            name, or on every interface one of the machine's names) in ``Host``.
        token: the access token every request must carry (None: none; see
            :mod:`bitflip.web.guard`). ``bitflip play`` always sets one beyond localhost.
        allow_hosts: further names requests may carry in ``Host`` (a proxy's, a DNS alias).
        workers: threads for opponents, pondering and analysis.
        make_engine: builds the engines of opponents, hints and analysis (tests pass a stand-in).
        book: the opening book engine opponents play from on 8x8: "default" (the shipped one),
            a book file, or None/"none"; read once here (a missing or broken file is a
            ``BookError`` naming it). Book moves are marked in the move list.
    """
    if token is not None:
        check_token(token)  # a bad one fails now, not at the first request
    default = opponent or DEFAULT_OPPONENT
    policy = OpponentPolicy.allowing([default, *allow_opponents])
    manager = GameManager(
        GameStore(db_path),
        default_opponent=default,
        workers=workers,
        policy=policy,
        make_engine=make_engine,
        book=open_book(book),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        manager.close()
        manager.store.close()

    app = FastAPI(
        title="bitflip",
        summary="Play Othello against bitflip's agents, get hints and analyse games.",
        lifespan=lifespan,
    )
    app.state.manager = manager
    app.add_middleware(RequestGuard, hosts=allowed_hosts(host, allow_hosts), token=token)
    _add_error_handlers(app)

    routes.add_page(app)
    routes.add_games(app, manager)
    routes.add_play(app, manager)
    routes.add_analysis(app, manager)
    routes.add_save_and_load(app, manager)
    return app


def one_line(message: str, limit: int = MAX_DETAIL) -> str:
    """``message`` on one line, cut to ``limit`` characters."""
    text = " ".join(message.split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _add_error_handlers(app: FastAPI) -> None:
    def detail(status: int, message: str) -> JSONResponse:
        return JSONResponse({"detail": one_line(message)}, status_code=status)

    def plain(status: int) -> Callable[[Request, Exception], Awaitable[JSONResponse]]:
        async def handle(_: Request, exc: Exception) -> JSONResponse:
            return detail(status, str(exc))

        return handle

    # Starlette picks the handler of the nearest class in the exception's MRO.
    for error, status in (
        (ForbiddenOpponent, 403),
        (UnknownGame, 404),
        (Conflict, 409),
        (GameError, 400),
        (ValueError, 400),
    ):
        app.add_exception_handler(error, plain(status))

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return detail(400, "the request body is not valid JSON")
        if any(tuple(e.get("loc", ())) == ("body",) for e in errors):
            return detail(400, "the request body must be a JSON object")
        parts = []
        for e in errors:
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else str(e.get("msg")))
        return detail(422, "invalid request: " + "; ".join(parts))

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return detail(500, f"internal error ({type(exc).__name__}); the server log has details")
