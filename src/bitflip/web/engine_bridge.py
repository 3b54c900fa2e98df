"""The web app's only door to the engine: opponents, hints and game analysis.

Opponents come from the agent registry (``make_agent``); ``engine:level=N`` is driven through an
engine directly, so that the app can ponder on the person's time and stop a search early ("move
now"). The engine is reached through :class:`WebEngine`, the typed protocol of the NBoard server
(:class:`bitflip.protocols.nboard.SearchEngine`) plus pondering and game analysis;
:class:`bitflip.engine.Engine` provides it, and tests give a stand-in through ``make_engine``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bitflip.agents import Agent, AgentSpecError, make_agent, parse_spec
from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS
from bitflip.engine import Engine
from bitflip.protocols.nboard import SearchEngine
from bitflip.search.levels import DEFAULT_LEVEL, LEVELS
from bitflip.search.limits import Limit, MoveScore, SearchInfo

TT_MB = 16
"""Transposition table of each game's engines: several games share the server's memory."""


class PlayedMove(Protocol):
    """One row of :meth:`WebEngine.analyze_game` (``bitflip.engine.MoveAnalysis``)."""

    @property
    def ply(self) -> int: ...

    @property
    def played(self) -> Move: ...

    @property
    def played_score(self) -> float: ...

    @property
    def best(self) -> Move: ...

    @property
    def best_score(self) -> float: ...

    @property
    def loss(self) -> float: ...

    @property
    def exact(self) -> bool: ...


class WebEngine(SearchEngine, Protocol):
    """What the web app needs of an engine: the NBoard server's, plus pondering and analysis."""

    def new_game(self) -> None: ...

    def ponder(self) -> None: ...

    def analyze_game(
        self,
        board: Board,
        limit: Limit | None = None,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> Sequence[PlayedMove]: ...


EngineFactory = Callable[..., WebEngine]
"""Builds an engine: ``make_engine(level=N, tt_mb=..., size=...)`` (level optional)."""


def levels() -> list[int]:
    """The engine levels a person can choose."""
    return sorted(LEVELS)


def new_engine(**options: Any) -> WebEngine:
    return Engine(**options)


@dataclass(frozen=True)
class Choice:
    """An opponent's move, with its search score (discs, mover's view) when it has one."""

    move: Move
    score: float | None = None
    exact: bool = False


class Opponent:
    """A game's opponent built from an agent spec; thread-safe ``stop`` and ``ponder``."""

    def __init__(
        self,
        spec: str,
        *,
        size: int,
        seed: int | None = None,
        make_engine: EngineFactory = new_engine,
    ) -> None:
        self.spec = spec
        parsed = parse_spec(spec)
        self._engine: WebEngine | None = None
        self._agent: Agent | None = None
        if parsed.name == "engine":
            unknown = set(parsed.params) - {"level"}
            if unknown:
                raise AgentSpecError(f"unknown engine parameter(s) {sorted(unknown)} in {spec!r}")
            level = parsed.params.get("level", DEFAULT_LEVEL)
            if level not in LEVELS:
                raise AgentSpecError(f"engine level must be one of {levels()}, not {level!r}")
            self._engine = make_engine(level=level, tt_mb=TT_MB, size=size)
        else:
            self._agent = make_agent(spec, seed=seed)
            self._agent.new_game()
        self.name = spec if self._agent is None else self._agent.name

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
        assert self._agent is not None
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

    def __init__(self, size: int, make_engine: EngineFactory = new_engine) -> None:
        self.size = size
        self.new_engine = make_engine
        self._engine: WebEngine | None = None
        self._lock = threading.Lock()

    def _get(self) -> WebEngine:
        if self._engine is None:
            self._engine = self.new_engine(tt_mb=TT_MB, size=self.size)
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
