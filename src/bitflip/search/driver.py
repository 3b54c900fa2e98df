"""Iterative deepening over the kernels: aspiration windows, limits, exact solving, PVs.

:class:`Searcher` owns the transposition tables and buffers of one searching thread. It runs
the midgame kernel one depth at a time (each iteration's scores order the next), switches to
the exact endgame solver when the remaining empties allow it, reports each finished
iteration through ``on_info`` and stops on a depth, node or time limit, or on :meth:`stop`
from another thread. Limits on time work with a timer thread that sets the kernels' shared
stop flag, so a hard deadline is kept within milliseconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from bitflip import _kernel_cache
from bitflip.core.bitboard import child, game_over, legal_moves, squares_of
from bitflip.core.geometry import PASS
from bitflip.eval.evaluator import EVAL_SCALE, Evaluation
from bitflip.search.alphabeta import SearchContext
from bitflip.search.control import (
    DISC_BOUND,
    EG_RANK,
    EG_TT_EMPTIES,
    EXACT_RANK,
    INF,
    MAX_NODES,
    NODES,
    SHALLOW_TT_EMPTIES,
    STOP,
    new_control,
    start_search,
)
from bitflip.search.endgame import table_empties
from bitflip.search.limits import MoveScore, SearchInfo, SearchResult
from bitflip.search.ordering import CORNERS
from bitflip.search.plan import SELECTIVE_WLD_SURE, SearchPlan, confidence_percent
from bitflip.search.root import RootScore, RootSearch, disc_widen
from bitflip.search.state import busy_table
from bitflip.search.tt import TranspositionTable

ASPIRATION = 2 * EVAL_SCALE
"""Half-width of the first aspiration window around the previous iteration's score."""


SELECTIVE_SOLVE_EMPTIES = 20
"""From this many empties an exact solve is preceded by selective (ProbCut) passes."""
SELECTIVE_RANKS = (1, 2)
"""The endgame ranks of those passes (see ``bitflip.search.endgame.EG_PC_T``)."""


@dataclass(frozen=True)
class _Request:
    """One search's question: the side-relative root, the plan, whom to tell, when it began."""

    p: int
    o: int
    mask: int
    plan: SearchPlan
    on_info: Callable[[SearchInfo], None] | None
    t0: float

    @property
    def empties(self) -> int:
        return (self.mask & ~(self.p | self.o)).bit_count()

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0


@dataclass
class _Iteration:
    depth: int
    best: int
    score: int
    scores: dict[int, int]
    exact: bool
    elapsed: float
    wld: bool = False
    """The exact scores are proven only as win (> 0), draw (0) or loss (< 0)."""
    endgame: bool = False
    """An endgame pass's scores (discs, in its table), proven (``exact``) or not."""

    def discs(self, score: int) -> float:
        """A kernel score in this iteration's unit as a front end reads it (discs, or the
        sign of a win/loss/draw proof)."""
        if self.wld:
            return float((score > 0) - (score < 0))
        return score / (1 if self.endgame else EVAL_SCALE)


class Searcher:
    """One search's state: tables, buffers, evaluation, stop flag; and its helper threads.

    With ``threads`` > 1, helpers with their own buffers and control arrays search the same
    root at once, sharing the transposition tables and a ``busy`` table of the positions being
    searched (:func:`bitflip.search.state.busy_table`). A thread that meets a child another
    thread is on searches its other moves first and comes back to it last, by when the other
    thread's result is usually in the table (simplified ABDADA: Weill 1996, Kerrigan): at the
    root, in the midgame kernel from :data:`~bitflip.search.alphabeta.DEFER_DEPTH` and in the
    solver from :data:`~bitflip.search.endgame.DEFER_EMPTIES`. The first to finish answers.
    Two threads: 0.57x the time of one on FFO #40-#49 and to depth 14 (lazy SMP with rotated
    root moves, before: 0.72x and 0.70-0.82x; ``benchmarks/RESULTS-search.md``).
    """

    def __init__(
        self,
        evaluation: Evaluation,
        *,
        tt_mb: float = 64,
        mpc: np.ndarray | None = None,
        threads: int = 1,
        share: Searcher | None = None,
    ) -> None:
        """``share``: another searcher whose tables (and evaluation) this one uses (a helper)."""
        if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
            raise ValueError(f"threads must be a whole number >= 1, not {threads!r}")
        _kernel_cache.before_first_search()
        self.evaluation = evaluation
        if share is not None:
            tt, eg_tt, mpc = share.ctx.tt, share.ctx.eg_tt, share.ctx.mpc
            busy = share.ctx.busy
        else:
            tt = TranspositionTable.allocate(tt_mb * 3 / 4)
            eg_tt = TranspositionTable.allocate(tt_mb / 4)
            busy = busy_table(threads)
        self.ctx: SearchContext = SearchContext(
            kind=evaluation.kind,
            weights=evaluation.weights,
            tt=tt,
            eg_tt=eg_tt,
            mpc=mpc if mpc is not None else np.zeros((1, 4), dtype=np.float64),
            ctl=new_control(),
            busy=busy,
        )
        self.helpers = [Searcher(evaluation, share=self) for _ in range(threads - 1)]
        self._lock = threading.Lock()
        self._stopped = False
        """The caller (or a timer) stopped this search, not a solve's own node budget."""

    @property
    def threads(self) -> int:
        return 1 + len(self.helpers)

    def clear(self) -> None:
        self.ctx.tt.clear()
        self.ctx.eg_tt.clear()

    def stop(self) -> None:
        """Make the running search return as soon as possible (any thread)."""
        self._stopped = True
        self.ctx.ctl[STOP] = 1
        for h in self.helpers:
            h.stop()

    # --- the search --------------------------------------------------------------------------

    def search(
        self,
        p: int,
        o: int,
        mask: int,
        plan: SearchPlan,
        on_info: Callable[[SearchInfo], None] | None = None,
    ) -> tuple[SearchResult, list[MoveScore]]:
        """Search the side-relative position; returns the result and the root move scores.

        Raises:
            ValueError: the game is over.
        """
        with self._lock:
            return self._search(p, o, mask, plan, on_info)

    def _search(
        self,
        p: int,
        o: int,
        mask: int,
        plan: SearchPlan,
        on_info: Callable[[SearchInfo], None] | None,
    ) -> tuple[SearchResult, list[MoveScore]]:
        t0 = time.perf_counter()
        ctx = self.ctx
        ctl = ctx.ctl
        self._stopped = False
        for h in self.helpers:
            h._stopped = False
        ctx.tt.new_search()
        ctx.eg_tt.new_search()
        start_search(
            ctl,
            max_nodes=plan.nodes,
            generation=ctx.tt.generation,
            mpc_t=plan.probcut_t if ctx.mpc.shape[0] > 1 else 0,
            mpc_mode=plan.probcut_mode,
            contempt=plan.contempt,
            eg_sure_t=plan.proof_t,
        )
        for h in self.helpers:
            h.ctx.ctl[:] = ctl
        up, uo, um = np.uint64(p), np.uint64(o), np.uint64(mask)
        moves_mask = int(legal_moves(up, uo, um))
        if moves_mask == 0:
            if game_over(up, uo, um):
                raise ValueError("the game is over: there is nothing to search")
            # A forced pass: search the opponent's position and report PASS.
            res, _ = self._search(o, p, mask, replace(plan, exclude=0), None)
            score = -res.score
            result = SearchResult(
                PASS, score, [PASS, *res.pv], res.depth, res.nodes, res.time, res.exact, res.wld
            )
            return result, [MoveScore(PASS, score, res.depth, res.exact)]
        if moves_mask & ~plan.exclude == 0:
            raise ValueError("every root move is excluded: there is nothing to search")
        moves = squares_of(moves_mask & ~plan.exclude)
        moves.sort(key=lambda sq: _fast_order(p, o, mask, sq))
        timer = None
        if plan.hard_time is not None:
            timer = threading.Timer(max(plan.hard_time, 0.0), self.stop)
            timer.daemon = True
            timer.start()
        req = _Request(p, o, mask, plan, on_info, t0)
        # A node budget is kept by one thread: its search is reproducible.
        helpers = self.helpers if plan.nodes is None else []
        try:
            last = self._deepen_smp(req, moves, helpers) if helpers else self._deepen(req, moves)
        finally:
            if timer is not None:
                timer.cancel()
        elapsed = time.perf_counter() - t0
        pv = self._pv(p, o, mask, last.best, last.endgame, last.depth)
        result = SearchResult(
            move=last.best,
            score=last.discs(last.score),
            pv=pv,
            depth=last.depth,
            nodes=int(ctl[NODES]) + sum(int(h.ctx.ctl[NODES]) for h in helpers),
            time=elapsed,
            exact=last.exact,
            wld=last.wld,
        )
        ranked = sorted(last.scores.items(), key=lambda kv: -kv[1])
        scores = [MoveScore(m, last.discs(s), last.depth, last.exact) for m, s in ranked]
        return result, scores

    def _deepen_smp(self, req: _Request, moves: list[int], helpers: list[Searcher]) -> _Iteration:
        """:meth:`_deepen` here and in the helpers at once; the deepest (exact first) answer.

        Helpers report nothing and keep no time: this thread's limits stop them all. A helper
        that finishes first stops the others, and its answer is as good as ours.
        """
        results: list[_Iteration | None] = [None] * len(helpers)
        quiet = replace(req, on_info=None, plan=replace(req.plan, soft_time=None))

        def work(i: int, helper: Searcher) -> None:
            results[i] = helper._deepen(quiet, moves)
            if not helper.ctx.ctl[STOP]:
                self.stop()

        pool = [
            threading.Thread(target=work, args=(i, h), name=f"bitflip-smp-{i + 1}", daemon=True)
            for i, h in enumerate(helpers)
        ]
        for t in pool:
            t.start()
        try:
            last = self._deepen(req, moves)
        finally:
            for h in helpers:
                h.stop()
            for t in pool:
                t.join()
        best = last
        for it in results:
            if it is not None and (it.exact, it.depth) > (best.exact, best.depth):
                best = it
        if best is not last and req.on_info is not None:
            req.on_info(self._info(req, best))
        return best

    def _deepen(self, req: _Request, moves: list[int]) -> _Iteration:
        ctl = self.ctx.ctl
        plan, on_info = req.plan, req.on_info
        n_empties = req.empties
        last: _Iteration | None = None
        times: list[float] = []
        exact_now = n_empties <= plan.exact_empties
        proves = max(plan.wld_empties, plan.selective_wld_empties)
        if not exact_now and n_empties <= proves and not plan.multipv:
            proof = self._wld_iteration(req, moves, _proof_rank(plan, n_empties))
            if proof is not None:
                return proof
        # One ply at a time: two plies reach the depth in 0.66-0.69x the nodes but play worse
        # where ProbCut is bold (level 17: -13.0 +- 10.0 points paired against NTest; the odd
        # iterations' table entries presumably steer the last one; RESULTS-ntest.md, step 13).
        depth = 0
        while not exact_now:
            depth += 1
            if depth > plan.max_depth:
                break
            if depth >= n_empties:
                exact_now = True
                break
            t_iter = time.perf_counter()
            it = self._midgame_iteration(req, moves, depth, last)
            if it is None:
                break
            it.elapsed = req.elapsed()
            times.append(time.perf_counter() - t_iter)
            last = it
            it_scores = it.scores
            moves = sorted(moves, key=lambda m: -it_scores.get(m, -INF))
            if on_info is not None:
                on_info(self._info(req, it))
            if plan.soft_time is not None and req.elapsed() + _predict(times) > plan.soft_time:
                break
            if plan.nodes is not None and ctl[NODES] >= plan.nodes:
                break
        if exact_now and last is None and not ctl[STOP]:
            last, moves = self._presearch(req, moves)
        if exact_now and not ctl[STOP]:
            it = self._exact_iteration(req, moves, last)
            if it is not None:
                it.elapsed = req.elapsed()
                last = it
                if on_info is not None:
                    on_info(self._info(req, it))
        return last if last is not None else self._unscored(req, moves)

    def _unscored(self, req: _Request, moves: list[int]) -> _Iteration:
        """Stopped before the first iteration finished: the best-ordered move, unscored."""
        return _Iteration(0, moves[0], 0, {}, False, req.elapsed())

    def _presearch(self, req: _Request, moves: list[int]) -> tuple[_Iteration | None, list[int]]:
        """A short midgame search before a solve of more than 12 empties: it orders the
        root, and its move is the answer should the time run out before the solve ends."""
        if req.empties <= 12:
            return None, moves
        pre = self._midgame_iteration(req, moves, min(6, req.empties - 6), None)
        if pre is None:
            return None, moves
        pre.elapsed = req.elapsed()
        pre_scores = pre.scores
        return pre, sorted(moves, key=lambda m: -pre_scores.get(m, -INF))

    def _wld_iteration(self, req: _Request, moves: list[int], rank: int) -> _Iteration | None:
        """The answer of a win/loss/draw proof (``SearchPlan.wld_empties``; cut by ProbCut
        below ``EXACT_RANK``): a win or draw it finds (from its last selective pass where the
        node budget ran out first, or a draw that pass finds: ``settle``), or, when stopped,
        the best move found so far; None after a loss (proven, or found by that pass), or with
        no pass finished within the budget, when the midgame search is to pick the move. A
        proof is not reported: the sign of the score is no score to show beside the others."""
        wld_req = replace(req, plan=replace(req.plan, wld=True))
        last, moves = self._presearch(wld_req, moves)
        it = None
        if not self.ctx.ctl[STOP]:
            it = self._exact_iteration(wld_req, moves, last, rank, settle=True)
        if it is not None:
            it.elapsed = req.elapsed()
        if self.ctx.ctl[STOP]:  # stopped: the best answer so far
            found = it if it is not None else last
            return found if found is not None else self._unscored(req, moves)
        return it if it is not None and it.score >= 0 else None

    def _midgame_iteration(
        self, req: _Request, moves: list[int], depth: int, last: _Iteration | None
    ) -> _Iteration | None:
        ctx = self.ctx
        mask, plan = req.mask, req.plan

        def search(p: int, o: int, alpha: int, beta: int) -> int:
            return ctx.midgame(p, o, mask, depth - 1, alpha, beta, ply=1)  # a root move's child

        if plan.multipv or last is None or depth <= 2:
            alpha, beta = -INF, INF
        else:
            alpha, beta = last.score - ASPIRATION, last.score + ASPIRATION
        width = ASPIRATION

        def widen(score: int, alpha: int, beta: int) -> tuple[int, int] | None:
            nonlocal width  # four times wider at each failure
            if score <= alpha and alpha > -INF:
                width *= 4
                return max(-INF, score - width), beta
            if score >= beta and beta < INF:
                width *= 4
                return alpha, min(INF, score + width)
            return None

        root = RootSearch(req.p, req.o, plan.multipv, search, ctx.ctl, ctx.busy)
        res = root.aspiration(moves, alpha, beta, widen)
        if res is None:
            return None
        best = max(res, key=lambda r: r.score)
        scores = {r.move: r.score for r in res}
        return _Iteration(depth, best.move, best.score, scores, False, 0.0)

    def _exact_iteration(
        self,
        req: _Request,
        moves: list[int],
        last: _Iteration | None,
        top: int = EXACT_RANK,
        *,
        settle: bool = False,
    ) -> _Iteration | None:
        """Endgame passes up to rank ``top`` (``EXACT_RANK``: proven, no ProbCut cut).

        ``settle``: a win/loss/draw proof stops at a loss or a draw its surer selective pass
        finds, proving only a win to the end (the proof before a midgame search, which picks
        the move after a loss either way; the exact pass costs most where it must refute every
        move or prove both bounds of a draw). Level 14 at 21-22 empties: losses settled,
        0.58-0.67x the time with 299 of 300 moves the same; draws too, 0.47x that again at 22,
        the same 200 moves.

        Stopped after a pass has finished (by the caller, or by the plan's ``solve_nodes``),
        the last finished pass answers, unproven; None when stopped before. A stop by the
        solve's own budget is cleared, so the search goes on as after any answer.
        """
        ctx = self.ctx
        ctl = ctx.ctl
        plan = req.plan
        n_empties = req.empties
        guess: int | None = None
        if last is not None and not plan.wld and not plan.multipv:
            guess = 2 * round(last.score / EVAL_SCALE / 2)
        ranks = [top]
        if (guess is not None or plan.wld) and n_empties >= SELECTIVE_SOLVE_EMPTIES:
            # As Edax does: passes that cut by ProbCut first, each surer than the last; each
            # fills the table with good moves and gives the next its aspiration window (a
            # win/loss/draw proof keeps (-1, 1): 19% fewer nodes and 9-13% less time for
            # level 14's proofs at 23 empties).
            ranks = [r for r in (*SELECTIVE_RANKS, EXACT_RANK) if r <= top]
        caller_max = int(ctl[MAX_NODES])
        if plan.solve_nodes is not None and len(ranks) > 1:
            ctl[MAX_NODES] = min(caller_max, int(ctl[NODES]) + plan.solve_nodes)
        ctl[EG_TT_EMPTIES] = table_empties(n_empties)
        answer: _Iteration | None = None
        try:
            for rank in ranks:
                ctl[EG_RANK] = rank
                # After a selective pass the guess is good enough for the narrowest window.
                width = 1 if rank == EXACT_RANK and len(ranks) > 1 else 3
                res = self._solve_root(req, moves, guess, width)
                if res is None:
                    if not self._stopped and ctl[NODES] < caller_max:
                        ctl[STOP] = 0  # the solve's budget, spent: the last pass answers
                    return answer
                best = max(res, key=lambda r: r.score)
                guess = best.score
                by_score = {r.move: r.score for r in res}
                moves = sorted(moves, key=lambda m: -by_score.get(m, -INF))
                proven = rank == EXACT_RANK  # a selective pass's score is likely, not proven
                answer = _Iteration(
                    n_empties, best.move, best.score, by_score, proven, 0.0, plan.wld, True
                )
                if settle and rank == SELECTIVE_RANKS[-1] and best.score <= 0:
                    break
        finally:
            ctl[MAX_NODES] = caller_max
            ctl[EG_RANK] = EXACT_RANK
            ctl[EG_TT_EMPTIES] = SHALLOW_TT_EMPTIES
        return answer

    def _solve_root(
        self, req: _Request, moves: list[int], guess: int | None, width: int
    ) -> list[RootScore] | None:
        """One endgame pass over the root moves, first in (guess - width, guess + width)."""
        ctx = self.ctx
        mask, plan = req.mask, req.plan

        def search(p: int, o: int, alpha: int, beta: int) -> int:
            return ctx.endgame(p, o, mask, alpha, beta)

        alpha, beta = (-1, 1) if plan.wld else (-DISC_BOUND, DISC_BOUND)
        if guess is not None and not plan.wld:  # a proof's window is always (-1, 1)
            alpha, beta = max(guess - width, -DISC_BOUND), min(guess + width, DISC_BOUND)
        root = RootSearch(req.p, req.o, plan.multipv, search, ctx.ctl, ctx.busy)
        return root.aspiration(moves, alpha, beta, disc_widen(plan.wld))

    # --- reporting ---------------------------------------------------------------------------

    def _info(self, req: _Request, it: _Iteration) -> SearchInfo:
        plan = req.plan
        return SearchInfo(
            depth=it.depth,
            score=it.discs(it.score),
            pv=self._pv(req.p, req.o, req.mask, it.best, it.endgame, it.depth),
            nodes=int(self.ctx.ctl[NODES]) + sum(int(h.ctx.ctl[NODES]) for h in self.helpers),
            time=it.elapsed,
            exact=it.exact,
            selectivity=(
                confidence_percent(plan.probcut_t) if plan.probcut_t and not it.exact else None
            ),
        )

    def _pv(self, p: int, o: int, mask: int, first: int, endgame: bool, depth: int) -> list[int]:
        pv = [first]
        p, o = child(p, o, first)
        um = np.uint64(mask)
        while len(pv) < max(depth, 1):
            moves = int(legal_moves(np.uint64(p), np.uint64(o), um))
            if moves == 0:
                if game_over(np.uint64(p), np.uint64(o), um):
                    break
                pv.append(PASS)
                p, o = o, p
                continue
            m = self.ctx.hash_move(p, o, endgame)
            if m is None or m >= 64 or not moves >> m & 1:
                break
            pv.append(m)
            p, o = child(p, o, m)
        return pv


# --- helpers ---------------------------------------------------------------------------------


def _proof_rank(plan: SearchPlan, empties: int) -> int:
    """The endgame rank of a win/loss/draw proof at ``empties``: exact within the plan's
    ``wld_empties``, then ProbCut, surer nearer to them."""
    if empties <= plan.wld_empties:
        return EXACT_RANK
    past = empties - max(plan.wld_empties, plan.exact_empties)
    return SELECTIVE_RANKS[-1] if past <= SELECTIVE_WLD_SURE else SELECTIVE_RANKS[0]


def _fast_order(p: int, o: int, mask: int, sq: int) -> int:
    # Fewest opponent replies first (corners count double): a cheap first root order.
    np_, no = child(p, o, sq)
    r = int(legal_moves(np.uint64(np_), np.uint64(no), np.uint64(mask)))
    return r.bit_count() + (r & int(CORNERS)).bit_count()


def _predict(times: list[float]) -> float:
    """Predicted duration of the next iteration from the last ones (growth factor 2 to 8)."""
    if not times:
        return 0.0
    if len(times) < 2 or times[-2] <= 1e-4:
        return times[-1] * 4
    growth = min(max(times[-1] / times[-2], 2.0), 8.0)
    return times[-1] * growth
