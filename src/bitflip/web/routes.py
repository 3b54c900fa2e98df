"""The app's routes, one function per part of the API, each over the game manager.

:func:`bitflip.web.app.create_app` calls them in turn: the page, games (list, create, watch,
delete, the opponents offered), play (moves, undo, settings...), analysis (hints, game
analysis), save and load (GGF and transcripts).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from fastapi import FastAPI, Query
from fastapi.responses import FileResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from bitflip.agents import agent_names
from bitflip.search.levels import DEFAULT_LEVEL
from bitflip.web import api, engine_bridge, records
from bitflip.web.level_times import LEVEL_TIMES, level_label
from bitflip.web.manager import GameManager
from bitflip.web.policy import SAFE_AGENTS, playable_sizes

STATIC = Path(__file__).parent / "static"
MAX_WAIT = 25.0
"""Longest a ``GET /api/games/{id}?after=...`` waits for a change, in seconds."""


def add_page(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")


def agents_info(manager: GameManager) -> api.AgentsInfo:
    """The opponents requests may name here: safe agents, engine levels, allowed specs, and
    the board sizes each can play."""
    policy = manager.policy
    levels = engine_bridge.levels()
    examples = [f"engine:level={n}" for n in levels]
    examples += ["random", "greedy", "positional", "minimax:depth=2", "minimax:depth=4"]
    examples += sorted(policy.allowed - set(examples))
    safe = [n for n in agent_names() if n in SAFE_AGENTS]
    examples += [n for n in safe if not any(e.split(":")[0] == n for e in examples)]
    examples = [e for e in examples if policy.permits(e)]
    named = dict.fromkeys([manager.default_opponent, *safe, *examples])
    return api.AgentsInfo(
        default=manager.default_opponent,
        levels=levels,
        level_times=[
            api.LevelOut(
                level=n,
                label=level_label(n),
                mean_seconds=LEVEL_TIMES[n].mean,
                max_seconds=LEVEL_TIMES[n].max,
            )
            for n in levels
        ],
        default_level=DEFAULT_LEVEL,
        agents=safe,
        examples=examples,
        sizes={spec: list(playable_sizes(spec)) for spec in named},
    )


def add_games(app: FastAPI, manager: GameManager) -> None:
    @app.get("/api/agents", response_model=api.AgentsInfo, tags=["games"])
    def agents() -> api.AgentsInfo:
        """The opponents requests may name here: safe agents, engine levels, allowed specs;
        ``sizes`` says which board sizes each of them plays."""
        return agents_info(manager)

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


def add_play(app: FastAPI, manager: GameManager) -> None:
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


def add_analysis(app: FastAPI, manager: GameManager) -> None:
    @app.post("/api/games/{game_id}/hint", response_model=api.Hints, tags=["analysis"])
    def hint(game_id: str, req: api.HintRequest | None = None) -> api.Hints:
        """Every legal move's score in discs (side to move's view); ``exact`` when solved."""
        return manager.hints(game_id, (req or api.HintRequest.model_validate({})).seconds)

    @app.post("/api/games/{game_id}/analyse", response_model=api.GameView, tags=["analysis"])
    def analyse(game_id: str, req: api.AnalyseRequest | None = None) -> api.GameView:
        """Score every move of the line in the background; poll the game for ``analysis``."""
        seconds = (req or api.AnalyseRequest.model_validate({})).seconds_per_move
        return manager.view(manager.analyse(game_id, seconds))


def add_save_and_load(app: FastAPI, manager: GameManager) -> None:
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
            path = st.tree.main_line() if line == "main" else st.path
            text = records.write(records.record_of(st, path=path), format)
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
