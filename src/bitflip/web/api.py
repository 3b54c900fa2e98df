"""The JSON shapes of the web API (pydantic models; FastAPI documents them on /docs)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Side = Literal["black", "white", "both", "none"]

# Bounds on what a request may carry (the whole body is also bounded, see web.guard).
MAX_SPEC = 200
MAX_TRANSCRIPT = 1000
"""A transcript of a whole game is 120 characters; room for spaces, passes and line breaks."""
MAX_GAME_TEXT = 64 * 1024
"""A pasted GGF game with comments."""
MAX_TITLE = 200


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(Strict):
    """A new game: from the start of a ``size`` board, or from ``start`` with ``moves`` played."""

    size: Literal[4, 6, 8] = 8
    human: Side = Field("black", description="who the person plays; 'both': no opponent moves")
    opponent: str | None = Field(
        None,
        max_length=MAX_SPEC,
        description="agent spec such as 'engine:level=8', 'minimax:depth=4', 'random'",
    )
    start: str | None = Field(None, max_length=100, description="OBF of a set-up start position")
    moves: str | None = Field(
        None, max_length=MAX_TRANSCRIPT, description="a transcript to play from the start"
    )
    seed: int | None = Field(None, ge=0, le=2**32)
    title: str = Field("", max_length=MAX_TITLE)
    minutes: float | None = Field(
        None, gt=0, le=180, description="game clock: minutes per side (none: no clock)"
    )
    increment: float = Field(0.0, ge=0, le=60, description="seconds added after each move")


class MoveRequest(Strict):
    move: str = Field(..., max_length=8, description="a square such as 'f5', or 'pa' to pass")
    ply: int | None = Field(
        None, description="the ply the move is meant for; a stale one is refused (409)"
    )


class JumpRequest(Strict):
    ply: int | None = Field(None, ge=0, description="number of moves from the start of the line")
    node: int | None = Field(
        None, ge=0, description="a node of the move tree (see ``branches``): shows its line"
    )


class HintRequest(Strict):
    seconds: float = Field(1.0, gt=0, le=60, description="thinking time for all moves together")


class AnalyseRequest(Strict):
    seconds_per_move: float = Field(0.3, gt=0, le=30)


class LoadRequest(Strict):
    text: str = Field(
        ...,
        max_length=MAX_GAME_TEXT,
        description="a transcript ('f5d6c3...') or a GGF game '(;GM[...];)'",
    )
    format: Literal["auto", "transcript", "ggf"] = "auto"
    size: Literal[4, 6, 8] = Field(8, description="board size of a transcript")
    human: Side = Field("both", description="who the person plays on from the loaded position")
    opponent: str | None = Field(None, max_length=MAX_SPEC)


class GameSettings(Strict):
    human: Side | None = None
    opponent: str | None = Field(None, max_length=MAX_SPEC)
    title: str | None = Field(None, max_length=MAX_TITLE, description="rename the game")
    paused: bool | None = Field(None, description="watch mode: stop and go on")
    delay: float | None = Field(
        None, ge=0, le=10, description="watch mode: least seconds between engine moves"
    )


class Result(BaseModel):
    winner: Literal["black", "white"] | None
    black: int
    white: int
    text: str


class EvalPoint(BaseModel):
    ply: int
    score: float = Field(..., description="discs, from black's view")
    exact: bool
    source: str


class MoveAnalysisOut(BaseModel):
    """The JSON form of :class:`bitflip.engine.MoveAnalysis`, the one analysis type: squares
    by name, scores within the board, and the mistake the loss marks."""

    ply: int
    move: str
    score: float = Field(..., description="the played move's score, mover's view")
    best_move: str
    best_score: float
    loss: float
    exact: bool
    comparable: bool = Field(
        ..., description="both scores of one kind (both exact or one depth): loss is meaningful"
    )
    mistake: Literal["", "inaccuracy", "mistake", "blunder"]


class Branch(BaseModel):
    """A move of the tree that leaves the line shown, at the ply where it leaves it."""

    ply: int = Field(..., description="the line's move it is an alternative to (1-based)")
    node: int
    move: str
    main: bool = Field(..., description="this branch is the main line (first played)")


class OpeningOut(BaseModel):
    name: str
    ply: int = Field(..., description="moves into the game where the name was reached")


class ClockView(BaseModel):
    black: float = Field(..., description="seconds left")
    white: float
    running: Literal["black", "white"] | None
    increment: float


class Progress(BaseModel):
    done: int
    total: int


class SearchProgress(BaseModel):
    """What the engine has found so far while it thinks about its move."""

    depth: int
    score: float = Field(..., description="discs, the engine's view")
    pv: list[str]
    nodes: int
    time: float
    exact: bool


class GameView(BaseModel):
    """A game as the page shows it: the position at the cursor and everything around it."""

    id: str
    version: int = Field(..., description="grows with every change; poll with ?after=version")
    size: int
    start: str
    human: str
    opponent: str
    title: str
    moves: list[str] = Field(..., description="the whole line, 'pa' for passes")
    nodes: list[int] = Field(..., description="the line's nodes in the move tree, from the root")
    cursor: int = Field(..., description="moves of the line played on the board shown")
    node: int = Field(..., description="the tree node at the cursor")
    branches: list[Branch]
    on_main_line: bool
    cells: str = Field(..., description="the board row by row, X black, O white, - empty")
    turn: Literal["black", "white"] | None
    legal: list[str]
    last_move: str | None
    flipped: list[str]
    prev_move: str | None = Field(..., description="the move before the last one")
    prev_flipped: list[str]
    black: int
    white: int
    over: bool
    result: Result | None
    human_to_move: bool
    thinking: bool
    search: SearchProgress | None = Field(None, description="the thinking engine's progress")
    pondering: bool
    paused: bool
    delay: float
    can_undo: bool
    can_redo: bool
    notice: str
    error: str
    transcript: str
    opening: OpeningOut | None
    clock: ClockView | None
    evals: list[EvalPoint]
    analysis: list[MoveAnalysisOut]
    analysing: Progress | None


class HintOut(BaseModel):
    move: str
    score: float = Field(..., description="discs, side to move's view")
    depth: int
    exact: bool


class Hints(BaseModel):
    ply: int
    hints: list[HintOut]


class GameListItem(BaseModel):
    id: str
    title: str
    opponent: str
    human: str
    size: int
    moves: int
    updated: float
    result: str = Field(..., description="'black', 'white', 'draw' or '' while it goes on")
    score: str = Field(..., description="the final count such as '40-24', or ''")


class LevelOut(BaseModel):
    level: int
    label: str = Field(..., description="the level with the time a move takes here")
    mean_seconds: float
    max_seconds: float


class AgentsInfo(BaseModel):
    default: str
    levels: list[int]
    level_times: list[LevelOut]
    default_level: int
    agents: list[str]
    examples: list[str]
    sizes: dict[str, list[int]] = Field(
        ...,
        description="per agent name and example spec (and the default): the board sizes it "
        "plays; a new game with another size is refused (400)",
    )


class Exported(BaseModel):
    format: str
    filename: str
    text: str
