"""One game as the web app keeps it: a start position, a move tree and a cursor on one line.

Every move ever played stays in the tree (:mod:`bitflip.web.tree`). The *line* is one path
from the start to a leaf; the board shown is the start with the first ``cursor`` moves of the
line played. Undo, redo and jumping move the cursor; playing a move that leaves the line
starts a variation and makes it the line, and the old line stays in the tree.
This module is pure game logic: no threads, no I/O (see :mod:`bitflip.web.manager`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from bitflip.core.board import BLACK, WHITE, Board, Color, IllegalMoveError, Move
from bitflip.engine import MoveAnalysis
from bitflip.web.tree import ROOT, MoveTree

HUMAN_SIDES = ("black", "white", "both", "none")
"""Who the person plays: one colour, both (no opponent moves) or none (the opponent plays both)."""


class GameError(ValueError):
    """A request the game cannot carry out in its current state (wrong turn, game over, ...)."""


@dataclass
class Evaluation:
    """An evaluation of the position at tree node ``node``, in discs from black's view."""

    node: int
    score: float
    exact: bool = False
    source: str = ""
    """Where it came from: 'move' (the opponent's search), 'hint' or 'analysis'."""


@dataclass
class Ending:
    """A game ended before its last move: ``loser`` resigned or ran out of time."""

    loser: str
    how: str
    """'resigned' or 'time'."""


@dataclass
class GameInfo:
    """What a loaded game file said about the game, written back when the game is saved."""

    black: str = ""
    white: str = ""
    place: str = ""
    date: str = ""
    black_score: int | None = None
    """Black's final disc count as the file states it (GGF RE)."""
    end: int = ROOT
    """The tree node of the file's last move: the file's result belongs to the line to it."""
    tags: dict[str, str] = field(default_factory=dict)
    """The file's other tags (GGF: RB, RW, TI, ...), written back as they were."""
    notes: dict[int, tuple[float | None, float | None]] = field(default_factory=dict)
    """Per node: the evaluation and seconds the file gave the move into it."""

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["notes"] = {str(k): list(v) for k, v in self.notes.items()}
        return d

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameInfo:
        d = dict(data)
        notes = {int(k): (v[0], v[1]) for k, v in d.pop("notes", {}).items()}
        return cls(notes=notes, **d)


@dataclass
class GameState:
    """Everything stored about one game (the SQLite row's JSON)."""

    id: str
    size: int = 8
    start: str = ""
    """OBF of the start position."""
    tree: MoveTree = field(default_factory=MoveTree)
    leaf: int = ROOT
    """The last node of the line shown."""
    cursor: int = 0
    human: str = "black"
    opponent: str = "random"
    seed: int | None = None
    created: float = field(default_factory=time.time)
    title: str = ""
    evals: dict[int, Evaluation] = field(default_factory=dict)
    analysis: dict[int, MoveAnalysis] = field(default_factory=dict)
    """Per node: the analysis of the move into it (the engine's one analysis type)."""
    endings: dict[int, Ending] = field(default_factory=dict)
    """Per node: a resignation or a flag fall there."""
    clock: float | None = None
    """Seconds per side of the game clock (None: no clock)."""
    increment: float = 0.0
    clocks: dict[int, tuple[float, float]] = field(default_factory=dict)
    """Per node: black's and white's seconds left when that position was reached."""
    info: GameInfo | None = None
    """What the game file it was loaded from said (None: not loaded from a file)."""

    def __post_init__(self) -> None:
        self.path: list[int] = self.tree.path_to(self.leaf)

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
        clock: float | None = None,
        increment: float = 0.0,
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
            clock=clock,
            increment=increment,
        )
        for i, m in enumerate(moves or []):
            try:
                board.push(m)
            except IllegalMoveError as exc:
                raise GameError(f"move {i + 1} of the game: {exc.detail}") from None
            state._extend(state.tree.add(state.leaf, m))
        state.cursor = len(state.line)
        return state

    # --- the line ----------------------------------------------------------------------------

    @property
    def line(self) -> list[Move]:
        """The moves of the line shown."""
        return self.tree.line_moves(self.path)

    @property
    def node(self) -> int:
        """The tree node at the cursor."""
        return self.path[self.cursor]

    def _extend(self, node: int) -> None:
        self.path.append(node)
        self.leaf = node

    def _set_path(self, path: list[int]) -> None:
        self.path = path
        self.leaf = path[-1]

    def on_main_line(self) -> bool:
        main = self.tree.main_line()
        return self.path[: self.cursor + 1] == main[: self.cursor + 1]

    # --- positions ---------------------------------------------------------------------------

    def board(self, ply: int | None = None) -> Board:
        """The position after ``ply`` moves of the line (default: at the cursor), with its stack."""
        b = Board(self.start)
        for m in self.line[: self.cursor if ply is None else ply]:
            b.push(m)
        return b

    def ending(self, ply: int | None = None) -> Ending | None:
        """The resignation or flag fall at ``ply`` of the line (default: the cursor)."""
        return self.endings.get(self.path[self.cursor if ply is None else ply])

    def is_over(self, board: Board | None = None, ply: int | None = None) -> bool:
        b = board or self.board(ply)
        return b.is_game_over() or self.ending(ply) is not None

    def is_human(self, color: Color) -> bool:
        return self.human == "both" or self.human == color.name.lower()

    def human_to_move(self, board: Board | None = None) -> bool:
        b = board or self.board()
        return not self.is_over(b) and self.is_human(b.turn)

    def opponent_to_move(self, board: Board | None = None) -> bool:
        b = board or self.board()
        return not self.is_over(b) and not self.is_human(b.turn)

    # --- changing the line -------------------------------------------------------------------

    def play(self, move: Move) -> bool:
        """Play ``move`` at the cursor; returns True when it starts a new variation.

        The line's own next move is followed; another move becomes the line from here (an
        existing branch with its main continuation, or a new node), the old line stays.
        """
        if self.ending() is not None:
            raise GameError("the game is over")
        board = self.board()
        board.push(move)  # raises IllegalMoveError / InvalidMoveError
        here = self.node
        known = self.tree.child(here, move)
        if self.cursor + 1 < len(self.path) and self.path[self.cursor + 1] == known:
            self.cursor += 1
            return False
        child = self.tree.add(here, move)
        tail = self.tree.main_continuation(child) if known is not None else []
        self._set_path([*self.path[: self.cursor + 1], child, *tail])
        self.cursor += 1
        return known is None and len(self.tree.children(here)) > 1

    def jump(self, ply: int) -> None:
        if not 0 <= ply <= len(self.line):
            raise GameError(f"ply {ply} is outside the move list (0..{len(self.line)})")
        self.cursor = ply

    def goto(self, node: int) -> None:
        """Show tree node ``node``; its line goes on along the main continuation."""
        if not 0 <= node < len(self.tree):
            raise GameError(f"there is no node {node} in this game's tree")
        if node in self.path:
            self.cursor = self.path.index(node)
            return
        path = self.tree.path_to(node)
        self._set_path(path + self.tree.main_continuation(node))
        self.cursor = len(path) - 1

    def _stops(self) -> list[int]:
        """Plies where undo and redo stop: the person's turns with a real choice, and the end."""
        board = Board(self.start)
        stops = []
        line = self.line
        for ply in range(len(line) + 1):
            if self.human == "none" or (
                self.is_human(board.turn) and board.legal_mask() != 0 and not board.is_game_over()
            ):
                stops.append(ply)
            if ply < len(line):
                board.push(line[ply])
        stops.append(len(line))
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

    def end(self, loser: Color, how: str) -> None:
        """``loser`` resigns (or runs out of time) in the position at the cursor."""
        if self.is_over():
            raise GameError("the game is over")
        self.endings[self.node] = Ending(color_name(loser), how)

    # --- evaluations -------------------------------------------------------------------------

    def set_eval(self, node: int, score_for_mover: float, exact: bool, source: str) -> None:
        """Record an evaluation of tree node ``node`` from its side to move's view."""
        board = self.board_at(node)
        black_view = score_for_mover if board.turn == BLACK else -score_for_mover
        old = self.evals.get(node)
        # Keep the better-founded value: exact beats heuristic. A book move's score stays
        # too (the move list marks the move played there as the book's).
        if old is not None and (old.exact or old.source == "book") and not exact:
            return
        self.evals[node] = Evaluation(node, float(black_view), exact, source)

    def board_at(self, node: int) -> Board:
        """The position at tree node ``node``, with its stack."""
        b = Board(self.start)
        for m in self.tree.line_moves(self.tree.path_to(node)):
            b.push(m)
        return b

    # --- JSON ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "size": self.size,
            "start": self.start,
            "tree": self.tree.to_json(),
            "leaf": self.leaf,
            "cursor": self.cursor,
            "human": self.human,
            "opponent": self.opponent,
            "seed": self.seed,
            "created": self.created,
            "title": self.title,
            "evals": [asdict(e) for e in self.evals.values()],
            "analysis": [{"node": n, **asdict(a)} for n, a in self.analysis.items()],
            "endings": {str(k): asdict(v) for k, v in self.endings.items()},
            "clock": self.clock,
            "increment": self.increment,
            "clocks": {str(k): list(v) for k, v in self.clocks.items()},
            "info": None if self.info is None else self.info.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        """A stored game; rows of the older one-line format (``line``, by ply) load too."""
        d = dict(data)
        if "line" in d:  # before the move tree: node i is the position after i moves
            line = d.pop("line")
            d["tree"] = MoveTree.linear(line).to_json()
            d["leaf"] = len(line)
            d["evals"] = [_renamed(e, lambda ply: ply) for e in d.get("evals", [])]
            d["analysis"] = [_renamed(a, lambda ply: ply + 1) for a in d.get("analysis", [])]
        tree = MoveTree.from_json(d.pop("tree"))
        evals = [Evaluation(**e) for e in d.pop("evals", [])]
        analysis = d.pop("analysis", [])
        endings = {int(k): Ending(**v) for k, v in d.pop("endings", {}).items()}
        clocks = {int(k): (float(v[0]), float(v[1])) for k, v in d.pop("clocks", {}).items()}
        info = d.pop("info", None)
        leaf = int(d.pop("leaf"))
        if not 0 <= leaf < len(tree):
            raise ValueError(f"game {d.get('id')}: leaf {leaf} outside its tree")
        state = cls(tree=tree, leaf=leaf, **d)
        state.evals = {e.node: e for e in evals}
        state.endings = endings
        state.clocks = clocks
        state.info = None if info is None else GameInfo.from_json(info)
        if not 0 <= state.cursor <= len(state.line):
            raise ValueError(f"game {state.id}: cursor {state.cursor} outside its line")
        state.check_tree()
        state.analysis = {int(a["node"]): state._stored_analysis(a) for a in analysis}
        return state

    def _stored_analysis(self, row: dict[str, Any]) -> MoveAnalysis:
        """A stored analysis row; one stored before the engine's type (the web's own names,
        no ply, colour or depth) gets them from its node."""
        node = int(row["node"])
        if not 0 < node < len(self.tree):
            raise ValueError(f"game {self.id}: analysis of node {node} outside its tree")
        d = {k: v for k, v in row.items() if k != "node"}
        if "played" not in d:
            mover = self.board_at(self.tree.parents[node]).turn
            d = {
                "ply": self.tree.depth(node) - 1,
                "color": mover,
                "played": d["move"],
                "played_score": d["score"],
                "best": d["best_move"],
                "best_score": d["best_score"],
                "loss": d["loss"],
                "depth": 0,
                "exact": d.get("exact", False),
                "comparable": d.get("comparable", False),
            }
        return MoveAnalysis(**{**d, "color": Color(d["color"])})

    def check_tree(self) -> None:
        """Replay every node: a corrupt row fails here (IllegalMoveError), not later."""
        boards = {ROOT: Board(self.start)}
        for node in range(1, len(self.tree)):
            b = boards[self.tree.parents[node]].copy(stack=False)
            b.push(self.tree.moves[node])
            boards[node] = b


def _renamed(row: dict[str, Any], node_of: Callable[[int], int]) -> dict[str, Any]:
    """An old row keyed by ``ply``, keyed by its node instead."""
    out = {k: v for k, v in row.items() if k != "ply"}
    out["node"] = node_of(int(row["ply"]))
    return out


def color_name(color: Color) -> str:
    return "black" if color == BLACK else "white"


__all__ = [
    "BLACK",
    "HUMAN_SIDES",
    "WHITE",
    "Ending",
    "Evaluation",
    "GameError",
    "GameInfo",
    "GameState",
    "color_name",
]
