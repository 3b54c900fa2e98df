"""The web app's only door to the engine: opponents, hints and game analysis.

Opponents come from the agent registry (``make_agent``); ``engine:level=N`` is driven through
:class:`bitflip.engine.Engine` directly so that the app can ponder on the person's time and stop
a search early ("move now"). Hints and analysis need the engine; when this build has none they
raise :class:`EngineUnavailable`, which the API turns into a 503 with that message.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bitflip.agents import AgentSpecError, make_agent, parse_spec
from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS
from bitflip.search.limits import Limit, MoveScore, SearchInfo

FALLBACK_OPPONENT = "minimax:depth=4"
TT_MB = 16
"""Transposition table of each game's engines: several games share the server's memory."""


class EngineUnavailable(RuntimeError):
    """This build of bitflip has no engine (bitflip.engine) to give hints or analyse."""


def _engine_module() -> Any:
    try:
        import bitflip.engine as engine_module
    except ImportError:
        return None
    return engine_module


def engine_available() -> bool:
    return _engine_module() is not None


def levels() -> list[int]:
    """The engine levels that exist (empty without an engine)."""
    try:
        from bitflip.search.levels import LEVELS
    except ImportError:
        return []
    return sorted(LEVELS)


def default_level() -> int | None:
    try:
        from bitflip.search.levels import DEFAULT_LEVEL
    except ImportError:
        return None
    return int(DEFAULT_LEVEL)


def default_opponent() -> str:
    """The engine at its default level when there is one, else a depth-4 minimax."""
    level = default_level()
    if engine_available() and level is not None:
        return f"engine:level={level}"
    return FALLBACK_OPPONENT


@dataclass(frozen=True)
class Choice:
    """An opponent's move, with its search score (discs, mover's view) when it has one."""

    move: Move
    score: float | None = None
    exact: bool = False


class Opponent:
    """A game's opponent built from an agent spec; thread-safe ``stop`` and ``ponder``."""

    def __init__(self, spec: str, *, size: int, seed: int | None = None) -> None:
        self.spec = spec
        parsed = parse_spec(spec)
        self._engine: Any = None
        self._agent: Any = None
        module = _engine_module()
        if parsed.name == "engine" and module is not None:
            unknown = set(parsed.params) - {"level"}
            if unknown:
                raise AgentSpecError(f"unknown engine parameter(s) {sorted(unknown)} in {spec!r}")
            level = parsed.params.get("level", default_level())
            if level not in levels():
                raise AgentSpecError(f"engine level must be one of {levels()}, not {level!r}")
            self._engine = module.Engine(level=level, tt_mb=TT_MB, size=size)
        else:
            self._agent = make_agent(spec, seed=seed)
            self._agent.new_game()
        self.name = spec if self._engine is not None else self._agent.name

    @property
    def can_ponder(self) -> bool:
        return self._engine is not None

    def choose(self, board: Board, on_info: Callable[[SearchInfo], None] | None = None) -> Choice:
        """The opponent's move in ``board`` (blocks; ``stop`` from another thread ends it early).

        ``on_info`` hears the engine's progress (one call per finished iteration).
        """
        if self._engine is not None:
            self._engine.set_position(board)
            result = self._engine.go(on_info=on_info)
            return Choice(int(result.move), float(result.score), bool(result.exact))
        return Choice(int(self._agent.select_move(board)))

    def ponder(self, board: Board) -> None:
        """Think about ``board`` (the person's turn) in the background until the next call."""
        if self._engine is not None:
            self._engine.set_position(board)
            self._engine.ponder()

    def stop(self) -> None:
        """Make a running ``choose`` return now with the best move so far."""
        if self._engine is not None:
            self._engine.stop()


@dataclass(frozen=True)
class MoveAnalysisView:
    """The analysis of one played move, scores from the mover's view."""

    ply: int
    move: Move
    score: float
    best_move: Move
    best_score: float
    loss: float
    exact: bool


class Analyst:
    """Hints and game analysis for one game, with an engine of its own (made on first use)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._engine: Any = None
        self._lock = threading.Lock()

    def _get(self) -> Any:
        module = _engine_module()
        if module is None:
            raise EngineUnavailable(
                "hints and analysis need the engine (bitflip.engine), which this build lacks"
            )
        if self._engine is None:
            self._engine = module.Engine(tt_mb=TT_MB, size=self.size)
        return self._engine

    def hints(self, board: Board, seconds: float) -> list[MoveScore]:
        """Every legal move's score (discs, side to move's view), best first."""
        if board.is_game_over():
            return []
        with self._lock:
            engine = self._get()
            engine.set_position(board)
            moves = len(board.legal_moves)
            return list(engine.hint(n=moves, limit=Limit(time=seconds)))

    def analyse(
        self,
        board: Board,
        seconds_per_move: float,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> list[MoveAnalysisView]:
        """Score every move on ``board.move_stack`` against the best one."""
        with self._lock:
            engine = self._get()
            engine.new_game()
            rows = engine.analyze_game(
                board, limit=Limit(time=seconds_per_move), on_progress=on_progress
            )
        return [
            MoveAnalysisView(
                ply=int(row.ply),
                move=int(row.played),
                score=float(row.played_score),
                best_move=int(row.best),
                best_score=float(row.best_score),
                loss=float(row.loss),
                exact=bool(row.exact),
            )
            for row in rows
        ]

    def stop(self) -> None:
        if self._engine is not None:
            self._engine.stop()


def is_pass_only(board: Board) -> bool:
    return list(board.legal_moves) == [PASS]
