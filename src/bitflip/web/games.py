"""One game as the web app keeps it: a start position, a line of moves and a cursor into it.

The board shown is the start position with the first ``cursor`` moves of ``line`` played.
Undo, redo and jumping only move the cursor, so the rest of the line stays available; playing
a move that differs from the line at the cursor cuts the line there and starts a new one.
This module is pure game logic: no threads, no I/O (see :mod:`bitflip.web.sessions`).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from bitflip.core.board import BLACK, WHITE, Board, Color, IllegalMoveError, Move
from bitflip.core.geometry import PASS

HUMAN_SIDES = ("black", "white", "both", "none")
"""Who the person plays: one colour, both (no opponent moves) or none (the opponent plays both)."""


class GameError(ValueError):
    """A request the game cannot carry out in its current state (wrong turn, game over, ...)."""


@dataclass
class Evaluation:
    """An evaluation of the position after ``ply`` moves, in discs from black's view."""

    ply: int
    score: float
    exact: bool = False
    source: str = ""
    """Where it came from: 'move' (the opponent's search), 'hint' or 'analysis'."""


@dataclass
class PlyAnalysis:
    """The analysis of the move played at ``ply`` (0-based), scores from the mover's view."""

    ply: int
    move: Move
    score: float
    best_move: Move
    best_score: float
    loss: float
    exact: bool = False


@dataclass
class GameState:
    """Everything stored about one game (the SQLite row's JSON)."""

    id: str
    size: int = 8
    start: str = ""
    """OBF of the start position."""
    line: list[Move] = field(default_factory=list)
    cursor: int = 0
    human: str = "black"
    opponent: str = "random"
    seed: int | None = None
    created: float = field(default_factory=time.time)
    title: str = ""
    evals: dict[int, Evaluation] = field(default_factory=dict)
    analysis: dict[int, PlyAnalysis] = field(default_factory=dict)
    """Per ply of ``line``: the analysis of the move played there."""

    @classmethod
    def new(
        cls,
        game_id: str,
        *,
        size: int = 8,
        start: str | None = None,
        moves: list[Move] | None = None,
        human: str = "black",
        opponent: str = "random",
        seed: int | None = None,
        title: str = "",
    ) -> GameState:
        """A game from the standard start (or ``start``, an OBF string) with ``moves`` played."""
        if human not in HUMAN_SIDES:
            raise GameError(f"human must be one of {', '.join(HUMAN_SIDES)}, not {human!r}")
        board = Board(start) if start else Board(size=size)
        if board.black | board.white == 0:
            raise GameError("the start position has no disc: put some on the board")
        state = cls(
            id=game_id,
            size=board.size,
            start=board.obf(),
            human=human,
            opponent=opponent,
            seed=seed,
            title=title,
        )
        for i, m in enumerate(moves or []):
            try:
                board.push(m)
            except IllegalMoveError as exc:
                raise GameError(f"move {i + 1} of the game: {str(exc).split(' (')[0]}") from None
            state.line.append(m)
        state.cursor = len(state.line)
        return state

    # --- positions ---------------------------------------------------------------------------

    def board(self, ply: int | None = None) -> Board:
        """The position after ``ply`` moves of the line (default: at the cursor), with its stack."""
        b = Board(self.start)
        for m in self.line[: self.cursor if ply is None else ply]:
            b.push(m)
        return b

    def is_human(self, color: Color) -> bool:
        return self.human == "both" or self.human == color.name.lower()

    def human_to_move(self, board: Board | None = None) -> bool:
        b = board or self.board()
        return not b.is_game_over() and self.is_human(b.turn)

    def opponent_to_move(self, board: Board | None = None) -> bool:
        b = board or self.board()
        return not b.is_game_over() and not self.is_human(b.turn)

    # --- changing the line -------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Play ``move`` at the cursor: follow the line if it is the next move, else cut it."""
        board = self.board()
        board.push(move)  # raises IllegalMoveError / InvalidMoveError
        if self.cursor < len(self.line) and self.line[self.cursor] == move:
            self.cursor += 1
            return
        self._cut(self.cursor)
        self.line.append(move)
        self.cursor += 1

    def _cut(self, ply: int) -> None:
        """Drop the moves from ``ply`` on, with what was known about the positions after them."""
        del self.line[ply:]
        self.evals = {k: v for k, v in self.evals.items() if k <= ply}
        self.analysis = {k: v for k, v in self.analysis.items() if k < ply}

    def jump(self, ply: int) -> None:
        if not 0 <= ply <= len(self.line):
            raise GameError(f"ply {ply} is outside the move list (0..{len(self.line)})")
        self.cursor = ply

    def _stops(self) -> list[int]:
        """Plies where undo and redo stop: the person's turns with a real choice, and the end."""
        board = Board(self.start)
        stops = []
        for ply in range(len(self.line) + 1):
            if self.human == "none" or (
                self.is_human(board.turn) and board.legal_mask() != 0 and not board.is_game_over()
            ):
                stops.append(ply)
            if ply < len(self.line):
                board.push(self.line[ply])
        stops.append(len(self.line))
        return stops

    def can_undo(self) -> bool:
        return any(s < self.cursor for s in self._stops())

    def can_redo(self) -> bool:
        return self.cursor < len(self.line)

    def undo(self) -> None:
        """Back to the person's previous turn (their last move and the replies are taken back)."""
        earlier = [s for s in self._stops() if s < self.cursor]
        if not earlier:
            raise GameError("nothing to undo")
        self.cursor = earlier[-1]

    def redo(self) -> None:
        """Forward along the line to the person's next turn (or its end)."""
        later = [s for s in self._stops() if s > self.cursor]
        if not later:
            raise GameError("nothing to redo")
        self.cursor = later[0]

    # --- evaluations -------------------------------------------------------------------------

    def set_eval(self, ply: int, score_for_mover: float, exact: bool, source: str) -> None:
        """Record an evaluation of the position after ``ply`` from its side to move's view."""
        board = self.board(ply)
        black_view = score_for_mover if board.turn == BLACK else -score_for_mover
        old = self.evals.get(ply)
        # Keep the better-founded value: exact beats heuristic; analysis beats a quick hint.
        if old is not None and old.exact and not exact:
            return
        self.evals[ply] = Evaluation(ply, float(black_view), exact, source)

    # --- JSON ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["evals"] = [asdict(e) for e in self.evals.values()]
        data["analysis"] = [asdict(a) for a in self.analysis.values()]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        d = dict(data)
        evals = [Evaluation(**e) for e in d.pop("evals", [])]
        analysis = [PlyAnalysis(**a) for a in d.pop("analysis", [])]
        state = cls(**d)
        state.evals = {e.ply: e for e in evals}
        state.analysis = {a.ply: a for a in analysis}
        if not 0 <= state.cursor <= len(state.line):
            raise ValueError(f"game {state.id}: cursor {state.cursor} outside its line")
        state.board(len(state.line))  # replays the line: a corrupt row fails here, not later
        return state


def color_name(color: Color) -> str:
    return "black" if color == BLACK else "white"


def transcript(moves: list[Move], size: int = 8) -> str:
    """Moves as a transcript ('f5d6c3...'), passes left out as transcripts do."""
    from bitflip.core.geometry import geometry

    g = geometry(size)
    return "".join(g.square_name(m) for m in moves if m != PASS)


__all__ = [
    "BLACK",
    "HUMAN_SIDES",
    "WHITE",
    "Evaluation",
    "GameError",
    "GameState",
    "PlyAnalysis",
    "color_name",
    "transcript",
]
