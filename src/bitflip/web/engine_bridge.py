"""The web app's only door to the engine: opponents, hints and game analysis.

Opponents come from the agent registry (``make_agent``); ``engine:level=N`` is driven through an
engine directly, so that the app can ponder on the person's time and stop a search early ("move
now"). The engine is reached through :class:`WebEngine`, the engine interface every front end
drives (:class:`bitflip.engine.SearchEngine`) plus pondering;
:class:`bitflip.engine.Engine` provides it, and tests give a stand-in through ``make_engine``.
Every score leaves this module as discs the board allows (:func:`disc_score`).
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bitflip.agents import Agent, AgentSpecError, make_agent, parse_spec
from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS
from bitflip.engine import (
    Engine,
    EngineAgent,
    MoveAnalysis,
    SearchEngine,
    load_engine_evaluation,
)
from bitflip.search.book import Book
from bitflip.search.levels import DEFAULT_LEVEL, LEVELS
from bitflip.search.limits import Clocks, Limit, MoveScore, SearchInfo

log = logging.getLogger(__name__)

BOOK_RANDOMNESS = 1.0
"""Discs of randomness in an engine opponent's book moves: a person's games against it vary."""


def table_megabytes(size: int, level: int | None = None) -> int:
    """The transposition table of one web engine, sized to what its game needs.

    Several games share the server's memory, and a web engine searches a fraction of a second
    a move: small boards have few positions, low levels search few nodes. ``level`` None: the
    engine of hints and analysis (up to a few seconds a position).
    """
    if size <= 4:
        return 1
    if size <= 6:
        return 2
    if level is None:
        return 8
    return 4 if level <= 12 else 8 if level <= 16 else 16


_load_evaluation_once = functools.cache(load_engine_evaluation)
_EVALUATION_LOCK = threading.Lock()


def disc_score(score: float, exact: bool, size: int) -> float:
    """A search score as a disc count the board allows (within +-size*size).

    Exact scores are final disc differences and always in range. A midgame score is the
    evaluation's estimate of the final difference: a fitted sum of pattern weights, not
    bounded by the board, so in lopsided positions it goes past 64 (-74.6 at ply 20 was one).
    No game can end beyond the board's disc count, so the estimate is clamped there.
    """
    bound = float(size * size)
    if exact and abs(score) > bound:
        log.error("an exact score %s is outside +-%s: a search bug", score, bound)
    return max(-bound, min(bound, float(score)))


class WebEngine(SearchEngine, Protocol):
    """What the web app needs of an engine: the front ends' interface, plus pondering."""

    def new_game(self) -> None: ...

    def ponder(self) -> None: ...


EngineFactory = Callable[..., WebEngine]
"""Builds an engine: ``make_engine(level=N, tt_mb=..., size=..., book=..., book_randomness=...,
seed=...)`` (only ``tt_mb`` and ``size`` always given)."""


def levels() -> list[int]:
    """The engine levels a person can choose."""
    return sorted(LEVELS)


def new_engine(**options: Any) -> WebEngine:
    """An engine searching with the default evaluation of its board size, loaded once for all
    engines of the process: searches only read the weights (20 MB of pattern tables on 8x8),
    so every engine of the web app shares one array instead of loading its own copy."""
    size = int(options.get("size", 8))
    with _EVALUATION_LOCK:
        evaluation = _load_evaluation_once("default", size)
    return Engine(evaluation=evaluation, **options)


@dataclass(frozen=True)
class Choice:
    """An opponent's move, with its search score (discs, mover's view) when it has one."""

    move: Move
    score: float | None = None
    exact: bool = False
    book: bool = False
    """The move came from the opening book (its score is the book's)."""


class Opponent:
    """A game's opponent built from an agent spec; thread-safe ``stop`` and ``ponder``.

    ``book`` is the opening book an engine opponent plays from on 8x8 (None: none), choosing
    among moves within :data:`BOOK_RANDOMNESS` of the best. The person who starts the server
    picks it; a request cannot name a file. An engine opponent builds its engine on first use;
    :meth:`release` frees the engine, or an agent that searches with one (``alphabeta``), so an
    idle game holds no tables; the next move builds it again. Other agents are light and keep
    their state (a seeded agent's random sequence goes on).
    """

    def __init__(
        self,
        spec: str,
        *,
        size: int,
        seed: int | None = None,
        make_engine: EngineFactory = new_engine,
        book: Book | None = None,
    ) -> None:
        self.spec = spec
        self.seed = seed
        parsed = parse_spec(spec)
        self._engine: WebEngine | None = None
        self._engine_options: dict[str, Any] | None = None
        self._make_engine = make_engine
        self._lock = threading.Lock()
        self._agent: Agent | None = None
        if parsed.name == "engine":
            unknown = set(parsed.params) - {"level"}
            if unknown:
                raise AgentSpecError(f"unknown engine parameter(s) {sorted(unknown)} in {spec!r}")
            level = parsed.params.get("level", DEFAULT_LEVEL)
            if level not in LEVELS:
                raise AgentSpecError(f"engine level must be one of {levels()}, not {level!r}")
            options: dict[str, Any] = {
                "level": level,
                "tt_mb": table_megabytes(size, level),
                "size": size,
            }
            if book is not None and size == 8:
                options |= {"book": book, "book_randomness": BOOK_RANDOMNESS, "seed": seed}
            self._engine_options = options
        else:
            self._agent = make_agent(spec, seed=seed)
            self._agent.new_game()
        self.name = spec if self._agent is None else self._agent.name

    @property
    def can_ponder(self) -> bool:
        return self._engine_options is not None

    @property
    def holds_engine(self) -> bool:
        return self._engine is not None or isinstance(self._agent, EngineAgent)

    def _get(self) -> WebEngine:
        assert self._engine_options is not None
        with self._lock:
            if self._engine is None:
                self._engine = self._make_engine(**self._engine_options)
            return self._engine

    def choose(
        self,
        board: Board,
        on_info: Callable[[SearchInfo], None] | None = None,
        clocks: Clocks | None = None,
    ) -> Choice:
        """The opponent's move in ``board`` (blocks; ``stop`` from another thread ends it early).

        ``on_info`` hears the engine's progress (one call per finished iteration). With
        ``clocks`` the engine budgets its time from the game clock, else it searches its level.
        """
        if self._engine_options is not None:
            engine = self._get()
            engine.set_position(board)
            limit = Limit(clocks=clocks) if clocks is not None else None
            result = engine.go(limit, on_info=on_info)
            if result.wld:  # a proof of win/loss/draw only: no disc score to show or plot
                return Choice(int(result.move), None, False, bool(result.book))
            exact = bool(result.exact)
            score = disc_score(result.score, exact, board.size)
            return Choice(int(result.move), score, exact, bool(result.book))
        with self._lock:
            if self._agent is None:  # released while idle: built again (a spec that built once)
                self._agent = make_agent(self.spec, seed=self.seed)
                self._agent.new_game()
            agent = self._agent
        return Choice(int(agent.select_move(board)))

    def ponder(self, board: Board) -> None:
        """Think about ``board`` (the person's turn) in the background until the next call."""
        if self._engine_options is not None:
            engine = self._get()
            engine.set_position(board)
            engine.ponder()

    def stop(self) -> None:
        """Make a running ``choose`` return now with the best move so far."""
        engine = self._engine
        if engine is not None:
            engine.stop()

    def release(self) -> None:
        """Stop the engine and let it go (its tables are freed); the next search builds one.
        The caller makes sure no ``choose`` runs."""
        with self._lock:
            engine, self._engine = self._engine, None
            if isinstance(self._agent, EngineAgent):
                self._agent = None
        if engine is not None:
            engine.stop()


class Analyst:
    """Hints and game analysis for one game, with an engine of its own (made on first use)."""

    def __init__(self, size: int, make_engine: EngineFactory = new_engine) -> None:
        self.size = size
        self.new_engine = make_engine
        self._engine: WebEngine | None = None
        self._lock = threading.Lock()
        self._cancel = threading.Event()

    @property
    def holds_engine(self) -> bool:
        return self._engine is not None

    def _get(self) -> WebEngine:
        if self._engine is None:
            self._engine = self.new_engine(tt_mb=table_megabytes(self.size), size=self.size)
        return self._engine

    def release(self) -> bool:
        """Let the engine go unless a hint or an analysis uses it now (then False)."""
        if not self._lock.acquire(blocking=False):
            return False
        try:
            self._engine = None
            return True
        finally:
            self._lock.release()

    def hints(self, board: Board, seconds: float) -> list[MoveScore]:
        """Every legal move's score (discs, side to move's view), best first."""
        if board.is_game_over():
            return []
        with self._lock:
            return self._scores(self._get(), board, seconds)

    def _scores(self, engine: WebEngine, board: Board, seconds: float) -> list[MoveScore]:
        engine.set_position(board)
        found = engine.hint(n=len(board.legal_moves), limit=Limit(time=seconds))
        return [
            MoveScore(s.move, disc_score(s.score, s.exact, board.size), s.depth, s.exact)
            for s in found
        ]

    def analyse(
        self,
        board: Board,
        seconds_per_move: float,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> list[MoveAnalysis]:
        """Score every move on ``board.move_stack`` against the best one (forced passes are
        skipped), as :meth:`Engine.analyze_game` does but ``seconds_per_move`` each and
        stoppable (:meth:`stop`). Each position's moves are scored together, so their kinds
        can be compared."""
        moves = board.move_stack
        b = board.copy()
        while b.move_stack:
            b.pop()
        b = b.copy(stack=False)
        out = []
        with self._lock:
            self._cancel.clear()
            engine = self._get()
            engine.new_game()
            for ply, move in enumerate(moves):
                if self._cancel.is_set():
                    break
                if move != PASS:
                    scores = self._scores(engine, b, seconds_per_move)
                    if not scores:  # stopped before the first iteration ended
                        break
                    out.append(MoveAnalysis.compare(ply, b.turn, move, scores))
                b.push(move)
                if on_progress is not None:
                    on_progress(ply + 1, len(moves))
        return out

    def stop(self) -> None:
        """End a running hint or analysis now (an analysis keeps the moves done so far)."""
        self._cancel.set()
        engine = self._engine
        if engine is not None:
            engine.stop()


def is_pass_only(board: Board) -> bool:
    return list(board.legal_moves) == [PASS]
