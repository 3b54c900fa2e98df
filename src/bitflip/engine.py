"""The engine facade: every front end (CLI, NBoard, web, agents) is a thin adapter over it.

No I/O, no protocol. ``stop()`` and ``ponder()`` are safe from any thread: searches run in
numba kernels that release the GIL and poll a shared stop flag.

>>> from bitflip import Board
>>> from bitflip.search.limits import Limit
>>> engine = Engine(level=2)
>>> engine.set_position(Board())
>>> result = engine.go()
>>> result.move in Board().legal_moves
True
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bitflip.core.board import Board, Color, Move
from bitflip.core.geometry import PASS
from bitflip.eval.evaluator import Evaluation, load_evaluation
from bitflip.search.book import Book, open_book
from bitflip.search.driver import Searcher
from bitflip.search.levels import DEFAULT_LEVEL, level_spec
from bitflip.search.limits import Limit, MoveScore, SearchInfo, SearchResult
from bitflip.search.plan import SearchPlan, ponder_plan, resolve_plan
from bitflip.search.probcut import load_table

__all__ = [
    "DEFAULT_LEVEL",
    "Engine",
    "MoveAnalysis",
    "SearchEngine",
    "load_engine_evaluation",
]


class SearchEngine(Protocol):
    """What a front end needs of an engine: the interface the NBoard server and the web app drive
    (:class:`Engine` provides it; tests give stand-ins)."""

    contempt: int
    """Centidiscs a draw is worse than 0 for the engine."""

    def set_position(self, board: Board) -> None: ...

    def go(
        self, limit: Limit | None = None, on_info: Callable[[SearchInfo], None] | None = None
    ) -> SearchResult: ...

    def hint(
        self,
        n: int = 64,
        limit: Limit | None = None,
        on_info: Callable[[SearchInfo], None] | None = None,
    ) -> list[MoveScore]: ...

    def stop(self) -> None: ...


@dataclass(frozen=True)
class MoveAnalysis:
    """How one played move compares with the engine's best, from the mover's view (discs).

    The one analysis type: :meth:`Engine.analyze_game` makes it, and so does the web app's
    analyst, which keeps it by tree node, stores it and shows it through its JSON model.
    """

    ply: int
    """Index of the move in the game's move stack."""
    color: Color
    played: Move
    played_score: float
    best: Move
    best_score: float
    loss: float
    """``best_score - played_score``, at least 0 (0 for the best move)."""
    depth: int
    exact: bool
    comparable: bool = False
    """Both scores are of one kind (both exact, or both from one search depth): only then does
    ``loss`` say how bad the move was."""

    @classmethod
    def compare(
        cls, ply: int, color: Color, played: Move, scores: Sequence[MoveScore]
    ) -> MoveAnalysis:
        """The ``played`` move of ``color`` at ``ply`` against the best of ``scores`` (every
        move's score in its position, best first). A move the search did not score (it was
        stopped first) counts as the best one, not comparable."""
        best = scores[0]
        score = next((s for s in scores if s.move == played), None)
        if score is None:
            score, comparable = best, False
        else:
            comparable = score.exact == best.exact and (score.exact or score.depth == best.depth)
        return cls(
            ply=ply,
            color=color,
            played=played,
            played_score=score.score,
            best=best.move,
            best_score=best.score,
            loss=max(0.0, best.score - score.score),
            depth=best.depth,
            exact=best.exact,
            comparable=comparable,
        )


def load_engine_evaluation(name: str = "default", size: int = 8) -> Evaluation:
    """An evaluation by name; "default" falls back to "positional" where none is installed."""
    try:
        return load_evaluation(name, size)
    except (ValueError, OSError):
        if name != "default":
            raise
        return load_evaluation("positional", size)


class Engine:
    """A searching engine with a level, a position and a transposition table."""

    def __init__(
        self,
        level: int = DEFAULT_LEVEL,
        *,
        evaluation: str | Evaluation = "default",
        tt_mb: int = 64,
        size: int = 8,
        threads: int = 1,
        book: str | os.PathLike[str] | Book | None = None,
        book_randomness: float = 0.0,
        seed: int | None = None,
    ) -> None:
        """``evaluation``: a name for :func:`load_engine_evaluation`, or a loaded evaluation
        (a learner searching with the weights it learned). ``threads``: search threads sharing
        the tables (:class:`bitflip.search.driver.Searcher`); 1 by default, since engines often
        share a machine (tournaments, the web app), and one thread searches reproducibly.
        ``book``: an opening book (a path, ``"default"`` for the shipped one, or None) that
        :meth:`go` plays from before searching; ``book_randomness``: play any book move within
        this many discs of the best (``seed`` seeds that choice)."""
        level_spec(level)
        self.level = level
        self.contempt = 0
        """How much worse than 0 a draw is for the engine, in centidiscs (NBoard's unit)."""
        self.size = size
        if isinstance(evaluation, Evaluation):
            self.evaluation = evaluation
        else:
            self.evaluation = load_engine_evaluation(evaluation, size)

        self._searcher = Searcher(
            self.evaluation, tt_mb=tt_mb, mpc=load_table(self.evaluation.name), threads=threads
        )
        self.book = open_book(book)
        self.book_randomness = book_randomness
        self._rng = random.Random(seed)
        self._board = Board(size=size)
        self._ponder_thread: threading.Thread | None = None
        self._state_lock = threading.Lock()
        self._settled: tuple[tuple[int, int, int, SearchPlan], SearchResult] | None = None
        """The last finished search of ``go``'s kind: its position and plan, and its answer."""

    @property
    def threads(self) -> int:
        return self._searcher.threads

    # --- position ----------------------------------------------------------------------------

    def new_game(self) -> None:
        """Forget the previous game: stop pondering, clear the tables."""
        self._end_ponder()
        self._searcher.clear()
        self._settled = None
        self._board = Board(size=self.size)

    def set_position(self, board: Board) -> None:
        """Search ``board`` from now on (a copy, with its move stack)."""
        self._end_ponder()
        if board.size != self.size:
            raise ValueError(
                f"this engine plays {self.size}x{self.size}, not {board.size}x{board.size}"
            )
        self._board = board.copy()

    @property
    def board(self) -> Board:
        """A copy of the current position."""
        return self._board.copy()

    # --- searching ---------------------------------------------------------------------------

    def plan(
        self, limit: Limit | None, *, multipv: bool = False, board: Board | None = None
    ) -> SearchPlan:
        """The search plan for a limit (None: the level's own) in the current position."""
        b = board if board is not None else self._board
        return resolve_plan(
            limit, level=self.level, empties=b.empties, multipv=multipv, contempt=self.contempt
        )

    def go(
        self, limit: Limit | None = None, on_info: Callable[[SearchInfo], None] | None = None
    ) -> SearchResult:
        """Search the current position and return the best move (PASS if it is the only one).

        Raises:
            ValueError: the game is over.
        """
        self._end_ponder()
        b = self._board
        if self.book is not None and not (limit is not None and (limit.exact or limit.wld)):
            found = self._book_move(b)
            if found is not None:
                return found
        return self._best(b, self.plan(limit), on_info)

    def _best(
        self, board: Board, plan: SearchPlan, on_info: Callable[[SearchInfo], None] | None
    ) -> SearchResult:
        """The search of :meth:`go` (and of :meth:`hint`'s first move). A finished search
        without a time or node limit is remembered for its position and plan: a selective
        search's answer also depends on what the tables hold, so ``hint`` then ``go`` (or
        ``go`` twice) at one depth would otherwise be free to answer different moves."""
        p, o = board.side_bitboards()
        key = (p, o, board.geometry.mask, plan)
        settled = self._settled
        if settled is not None and settled[0] == key:
            return settled[1]
        result, _ = self._run(board, plan, on_info)
        limited = plan.hard_time is not None or plan.soft_time is not None or plan.nodes
        if not limited and (result.exact or result.depth >= plan.max_depth):
            self._settled = (key, result)
        return result

    def _book_move(self, board: Board) -> SearchResult | None:
        if self.book is None or board.size != 8 or board.is_game_over():
            return None
        p, o = board.side_bitboards()
        bm = self.book.choose(p, o, board.geometry.mask, self.book_randomness, self._rng)
        if bm is None:
            return None
        return SearchResult(bm.move, bm.score, [bm.move], book=True)

    def hint(
        self,
        n: int = 64,
        limit: Limit | None = None,
        on_info: Callable[[SearchInfo], None] | None = None,
    ) -> list[MoveScore]:
        """Scores (discs, side to move's view) of the ``n`` best moves, best first.

        The first is the move :meth:`go` plays at the same limit (its search, less the book):
        a selective search's scores depend on the window, so a multi-PV pass alone may rank
        another move first at the same depth. The others come from a multi-PV search of the
        remaining moves (with a time limit, in the time the first search left).
        """
        import dataclasses

        self._end_ponder()
        if n < 1:
            raise ValueError(f"hint needs n >= 1, not {n}")
        board = self._board
        best = self._best(board, self.plan(limit), on_info)
        if best.depth == 0 and not best.exact:
            return []  # stopped before a first score
        first = MoveScore(best.move, best.score, best.depth, best.exact)
        others = len(board.legal_moves) - 1
        if best.move == PASS or (n == 1 and not best.wld) or others < 1:
            return [first]
        rest = limit
        if limit is not None and limit.time is not None:
            rest = dataclasses.replace(limit, time=max(limit.time - best.time, 0.01))
        plan = self.plan(rest, multipv=True)
        if best.wld and not plan.wld:
            # go proved a win or draw (a score of +-1, 0): the other moves have midgame
            # scores, so the first move's score comes from the same multi-PV search.
            _, scores = self._run(board, plan, on_info)
            same = [s for s in scores if s.move == best.move]
            first = same[0] if same else first
            return [first, *(s for s in scores if s.move != best.move)][:n]
        _, scores = self._run(board, dataclasses.replace(plan, exclude=1 << best.move), on_info)
        return [first, *scores][:n]

    def _run(
        self, board: Board, plan: SearchPlan, on_info: Callable[[SearchInfo], None] | None
    ) -> tuple[SearchResult, list[MoveScore]]:
        if board.is_game_over():
            raise ValueError(
                f"the game is over, there is no move to search (position {board.obf()})"
            )
        p, o = board.side_bitboards()
        return self._searcher.search(p, o, board.geometry.mask, plan, on_info)

    def stop(self) -> None:
        """Make the running ``go``/``hint``/ponder return promptly (safe from any thread)."""
        self._searcher.stop()

    # --- pondering ---------------------------------------------------------------------------

    def ponder(self) -> None:
        """Search the current position in a background thread (filling the tables) until
        ``go``, ``hint``, ``set_position``, ``new_game`` or ``stop`` ends it."""
        self._end_ponder()
        board = self._board.copy()
        if board.is_game_over():
            return
        plan = ponder_plan(self.level, contempt=self.contempt)

        def work() -> None:
            with contextlib.suppress(ValueError):
                self._run(board, plan, None)

        t = threading.Thread(target=work, name="bitflip-ponder", daemon=True)
        with self._state_lock:
            self._ponder_thread = t
        t.start()

    @property
    def pondering(self) -> bool:
        t = self._ponder_thread
        return t is not None and t.is_alive()

    def _end_ponder(self) -> None:
        with self._state_lock:
            t = self._ponder_thread
            self._ponder_thread = None
        if t is not None:
            self._searcher.stop()
            t.join()

    # --- analysis ----------------------------------------------------------------------------

    def analyze_game(
        self,
        board: Board,
        limit: Limit | None = None,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> list[MoveAnalysis]:
        """Score every move of ``board.move_stack`` against the best move of its position.

        Forced passes are skipped. ``on_progress(done, total)`` is called after each move.
        """
        self._end_ponder()
        moves = board.move_stack
        b = board.copy()
        while b.move_stack:
            b.pop()
        out: list[MoveAnalysis] = []
        for ply, move in enumerate(moves):
            if move != PASS:
                p, o = b.side_bitboards()
                plan = self.plan(limit, multipv=True, board=b)
                _, scores = self._searcher.search(p, o, b.geometry.mask, plan, None)
                out.append(MoveAnalysis.compare(ply, b.turn, move, scores))
            b.push(move)
            if on_progress is not None:
                on_progress(ply + 1, len(moves))
        return out


# --- agents ----------------------------------------------------------------------------------


class EngineAgent:
    """``engine:level=N``: the engine at a level, as an agent (one engine per board size)."""

    def __init__(
        self,
        level: int = DEFAULT_LEVEL,
        seed: int | None = None,
        eval: str = "default",
        tt_mb: int = 16,
        threads: int = 1,
        book: str = "none",
        book_random: float = 0.0,
    ) -> None:
        """``book``: "none", "default" or a book file; ``book_random``: discs of randomness in
        choosing book moves; ``threads``: search threads (tournaments keep 1 unless told)."""
        level_spec(level)
        self.level = level
        self.seed = seed
        self.eval_name = eval
        self.tt_mb = tt_mb
        self.threads = threads
        self.book = open_book(book)
        self.book_random = float(book_random)
        # The name tells apart agents that play differently (an arena needs distinct names).
        self.name = f"engine:level={level}"
        if eval != "default":
            self.name += f",eval={eval}"
        if book != "none":
            self.name += f",book={book}"
            if self.book_random:
                self.name += f",book_random={self.book_random:g}"
        self._engines: dict[int, Engine] = {}

    def _limit(self) -> Limit | None:
        return None

    def engine(self, size: int) -> Engine:
        if size not in self._engines:
            self._engines[size] = Engine(
                self.level,
                evaluation=self.eval_name,
                tt_mb=self.tt_mb,
                size=size,
                threads=self.threads,
                book=self.book if size == 8 else None,
                book_randomness=self.book_random,
                seed=self.seed,
            )
        return self._engines[size]

    def new_game(self) -> None:
        for e in self._engines.values():
            e.new_game()

    def select_move(self, board: Board) -> Move:
        e = self.engine(board.size)
        e.set_position(board)
        return e.go(self._limit()).move


class AlphaBetaAgent(EngineAgent):
    """``alphabeta:depth=N`` or ``alphabeta:time=S`` (seconds a move), ``eval=NAME``."""

    def __init__(
        self,
        depth: int | None = None,
        time: float | None = None,
        eval: str = "default",
        seed: int | None = None,
        tt_mb: int = 16,
    ) -> None:
        if depth is None and time is None:
            depth = 6
        if depth is not None and (not isinstance(depth, int) or not 1 <= depth <= 60):
            raise ValueError(
                f"alphabeta depth must be a whole number >= 1 and <= 60, not {depth!r}"
            )
        if time is not None and (not isinstance(time, int | float) or time <= 0):
            raise ValueError(f"alphabeta time must be a positive number of seconds, not {time!r}")
        super().__init__(DEFAULT_LEVEL, seed, eval, tt_mb)
        self.depth = depth
        self.time = float(time) if time is not None else None
        load_engine_evaluation(eval)  # fail now on an unknown evaluation
        what = f"depth={depth}" if depth is not None else f"time={time}"
        self.name = f"alphabeta:{what}" + (f",eval={eval}" if eval != "default" else "")

    def _limit(self) -> Limit | None:
        return Limit(depth=self.depth, time=self.time)


def engine_agent(
    level: int | None = None,
    depth: int | None = None,
    time: float | None = None,
    **options: Any,
) -> EngineAgent:
    """The agent of spec ``engine:...`` (registered in :mod:`bitflip.agents`).

    ``engine:level=N`` plays a level (:class:`EngineAgent`, the default level without any);
    ``engine:depth=N`` or ``engine:time=S`` (seconds a move) searches to a fixed depth or
    time (:class:`AlphaBetaAgent`, named ``engine:depth=N``). ``options`` are the agent's
    other parameters (``eval``, ``seed``, ``tt_mb``; levels also ``threads``, ``book``,
    ``book_random``).
    """
    if depth is None and time is None:
        return EngineAgent(DEFAULT_LEVEL if level is None else level, **options)
    if level is not None:
        raise ValueError("engine takes a level, or a depth or time, not both")
    agent = AlphaBetaAgent(depth, time, **options)
    agent.name = "engine:" + agent.name.partition(":")[2]
    return agent
