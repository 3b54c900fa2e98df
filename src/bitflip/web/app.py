"""The FastAPI app: the JSON API under ``/api/`` and the page that uses it.

``create_app(db_path)`` builds an app over one SQLite file; ``bitflip play`` serves it with
uvicorn. Every error a client can cause is a 4xx with a one-line ``detail``: 400 for a bad
move or request, 404 for an unknown game, 409 for a request that does not fit the game now
(wrong turn, game over, stale ply), 403 for an opponent the server does not allow or a request
from another origin, 413 for a body over the limit, 422 for a body of the wrong shape. Details
are one short line that never echoes a long input back. :mod:`bitflip.web.guard` checks every
request first; :mod:`bitflip.web.policy` decides which opponents requests may name.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from bitflip.agents import DEFAULT_OPPONENT, agent_names
from bitflip.core.board import BLACK, WHITE
from bitflip.search.book import open_book
from bitflip.search.levels import DEFAULT_LEVEL
from bitflip.web import api, engine_bridge, records
from bitflip.web.engine_bridge import EngineFactory, new_engine
from bitflip.web.games import GameError
from bitflip.web.guard import RequestGuard, allowed_hosts
from bitflip.web.level_times import LEVEL_TIMES, level_label
from bitflip.web.manager import Conflict, GameManager, UnknownGame
from bitflip.web.policy import SAFE_AGENTS, ForbiddenOpponent, OpponentPolicy
from bitflip.web.store import GameStore

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
MAX_DETAIL = 200
"""Longest error detail: a message about a huge input names it, it does not repeat it."""
MAX_WAIT = 25.0
"""Longest a ``GET /api/games/{id}?after=...`` waits for a change, in seconds."""


def create_app(
    db_path: str | Path = ":memory:",
    *,
    opponent: str | None = None,
    allow_opponents: Iterable[str] = (),
    host: str = "127.0.0.1",
    workers: int = 8,
    make_engine: EngineFactory = new_engine,
    book: str | None = "default",
) -> FastAPI:
    """The web app over the games in ``db_path``.

    Args:
        opponent: a new game's opponent when a request names none (always allowed).
        allow_opponents: further specs that requests may name beside the safe agents (see
            :mod:`bitflip.web.policy`); only the person starting the server sets these.
        host: the address the server is bound to; requests must name it in ``Host``.
        workers: threads for opponents, pondering and analysis.
        make_engine: builds the engines of opponents, hints and analysis (tests pass a stand-in).
        book: the opening book engine opponents play from on 8x8: "default" (the shipped one),
            a book file, or None/"none"; read once here (a missing or broken file is a
            ``BookError`` naming it). Book moves are marked in the move list.
    """
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
    app.add_middleware(RequestGuard, hosts=allowed_hosts(host))
    _add_error_handlers(app)

    # --- page ----------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # --- API -------------------------------------------------------------------------------

    @app.get("/api/agents", response_model=api.AgentsInfo, tags=["games"])
    def agents() -> api.AgentsInfo:
        """The opponents requests may name here: safe agents, engine levels, allowed specs."""
        examples = [f"engine:level={n}" for n in engine_bridge.levels()]
        examples += ["random", "greedy", "positional", "minimax:depth=2", "minimax:depth=4"]
        examples += sorted(policy.allowed - set(examples))
        safe = [n for n in agent_names() if n in SAFE_AGENTS]
        examples += [n for n in safe if not any(e.split(":")[0] == n for e in examples)]
        return api.AgentsInfo(
            default=manager.default_opponent,
            levels=engine_bridge.levels(),
            level_times=[
                api.LevelOut(
                    level=n,
                    label=level_label(n),
                    mean_seconds=LEVEL_TIMES[n].mean,
                    max_seconds=LEVEL_TIMES[n].max,
                )
                for n in engine_bridge.levels()
            ],
            default_level=DEFAULT_LEVEL,
            agents=safe,
            examples=[e for e in examples if policy.permits(e)],
        )

    @app.get("/api/games", response_model=list[api.GameListItem], tags=["games"])
    def list_games(
        limit: int = Query(50, ge=1, le=500),
        player: str = Query("", max_length=api.MAX_TITLE, description="part of a name"),
        result: str = Query("", pattern="^(|black|white|draw|none)$"),
    ) -> list[api.GameListItem]:
        """Stored games, the most recently changed first; filtered by player or result."""
        return [
            api.GameListItem.model_validate(g, from_attributes=True)
            for g in manager.store.list(limit, player=player, result=result)
        ]

    @app.post("/api/games", response_model=api.GameView, status_code=201, tags=["games"])
    def new_game(req: api.NewGame) -> api.GameView:
        """Start a game; the opponent moves at once when it is its turn."""
        return manager.view(manager.create(req))

    @app.get("/api/games/{game_id}", response_model=api.GameView, tags=["games"])
    async def get_game(
        game_id: str,
        after: int | None = Query(None, description="wait until the version is above this"),
        wait: float = Query(10.0, ge=0, le=MAX_WAIT, description="longest wait, seconds"),
    ) -> api.GameView:
        """The game; with ``after``, waits (up to ``wait`` s) for a change past that version."""
        s = manager.get(game_id)
        if after is not None:
            deadline = time.monotonic() + wait
            s.polls += 1  # a page has the game open: it is watched while this waits
            try:
                while s.version <= after and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
            finally:
                s.polls -= 1
                s.last_seen = manager.clock()
        return manager.view(s)

    @app.delete("/api/games/{game_id}", status_code=204, tags=["games"])
    def delete_game(game_id: str) -> None:
        manager.delete(game_id)

    @app.post("/api/games/{game_id}/moves", response_model=api.GameView, tags=["play"])
    def play(game_id: str, req: api.MoveRequest) -> api.GameView:
        """The person's move at the cursor (a new line when it leaves the old one)."""
        return manager.view(manager.play(game_id, req.move, req.ply))

    @app.post("/api/games/{game_id}/undo", response_model=api.GameView, tags=["play"])
    def undo(game_id: str) -> api.GameView:
        """Back to the person's previous turn; the moves stay in the line for redo."""
        return manager.view(manager.undo(game_id))

    @app.post("/api/games/{game_id}/redo", response_model=api.GameView, tags=["play"])
    def redo(game_id: str) -> api.GameView:
        return manager.view(manager.redo(game_id))

    @app.post("/api/games/{game_id}/jump", response_model=api.GameView, tags=["play"])
    def jump(game_id: str, req: api.JumpRequest) -> api.GameView:
        """Show the position after ``ply`` moves of the line, or the tree node ``node``."""
        return manager.view(manager.jump(game_id, req.ply, req.node))

    @app.post("/api/games/{game_id}/resign", response_model=api.GameView, tags=["play"])
    def resign(game_id: str) -> api.GameView:
        """The person resigns in the position shown (the tree keeps it; play on elsewhere)."""
        return manager.view(manager.resign(game_id))

    @app.post("/api/games/{game_id}/move-now", response_model=api.GameView, tags=["play"])
    def move_now(game_id: str) -> api.GameView:
        """The opponent moves now: its search stops, or it starts to play where the line goes on."""
        return manager.view(manager.move_now(game_id))

    @app.patch("/api/games/{game_id}", response_model=api.GameView, tags=["play"])
    def configure(game_id: str, req: api.GameSettings) -> api.GameView:
        """Change the side the person plays or the opponent."""
        return manager.view(manager.configure(game_id, req))

    @app.post("/api/games/{game_id}/hint", response_model=api.Hints, tags=["analysis"])
    def hint(game_id: str, req: api.HintRequest | None = None) -> api.Hints:
        """Every legal move's score in discs (side to move's view); ``exact`` when solved."""
        return manager.hints(game_id, (req or api.HintRequest.model_validate({})).seconds)

    @app.post("/api/games/{game_id}/analyse", response_model=api.GameView, tags=["analysis"])
    def analyse(game_id: str, req: api.AnalyseRequest | None = None) -> api.GameView:
        """Score every move of the line in the background; poll the game for ``analysis``."""
        return manager.view(
            manager.analyse(
                game_id, (req or api.AnalyseRequest.model_validate({})).seconds_per_move
            )
        )

    @app.get("/api/games/{game_id}/export", tags=["save and load"])
    def export(
        game_id: str,
        format: str = Query("ggf", pattern="^(ggf|transcript)$"),
        line: str = Query("current", pattern="^(current|main)$"),
        download: bool = False,
    ) -> PlainTextResponse:
        """The line shown (or with ``line=main`` the main line) as GGF or a transcript
        (``download=true``: as a file)."""
        s = manager.get(game_id)
        with s.lock:
            st = s.state
            names = tuple(
                ("" if st.human == "both" else "you") if st.is_human(c) else st.opponent
                for c in (BLACK, WHITE)
            )
            path = st.tree.main_line() if line == "main" else st.path
            record = records.record_of(st, (names[0], names[1]), path)
            text = records.write(record, format)
        ext = "ggf" if format == "ggf" else "txt"
        headers = {}
        if download:
            headers["Content-Disposition"] = f'attachment; filename="bitflip-{game_id}.{ext}"'
        return PlainTextResponse(text + "\n", headers=headers)

    @app.post(
        "/api/games/load", response_model=api.GameView, status_code=201, tags=["save and load"]
    )
    def load(req: api.LoadRequest) -> api.GameView:
        """A new game from a pasted transcript or GGF game, at its last position."""
        record = records.read(req.text, req.format, req.size)
        return manager.view(
            manager.create_from_record(record, human=req.human, opponent=req.opponent)
        )

    return app


def one_line(message: str, limit: int = MAX_DETAIL) -> str:
    """``message`` on one line, cut to ``limit`` characters."""
    text = " ".join(message.split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _add_error_handlers(app: FastAPI) -> None:
    def detail(status: int, message: str) -> JSONResponse:
        return JSONResponse({"detail": one_line(message)}, status_code=status)

    @app.exception_handler(ForbiddenOpponent)
    async def forbidden(_: Request, exc: ForbiddenOpponent) -> JSONResponse:
        return detail(403, str(exc))

    @app.exception_handler(UnknownGame)
    async def unknown(_: Request, exc: UnknownGame) -> JSONResponse:
        return detail(404, str(exc))

    @app.exception_handler(Conflict)
    async def conflict(_: Request, exc: Conflict) -> JSONResponse:
        return detail(409, str(exc))

    @app.exception_handler(GameError)
    async def game_error(_: Request, exc: GameError) -> JSONResponse:
        return detail(400, str(exc))

    @app.exception_handler(ValueError)
    async def value_error(_: Request, exc: ValueError) -> JSONResponse:
        return detail(400, str(exc))

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
