"""The midgame search kernel: negamax principal variation search with a transposition table,
move ordering and Multi-ProbCut, compiled by numba and releasing the GIL.

Scores are in eval units (:data:`bitflip.eval.evaluator.EVAL_SCALE` per disc), from the side to
move's view. A node whose remaining depth reaches the end of the game is handed to the exact
endgame solver, so such scores are exact disc differences times the scale.

Iterative deepening, aspiration windows and limits live in :mod:`bitflip.search.driver`; this
module is the recursive kernel and its context.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import types

from bitflip.core.bitboard import (
    U1,
    apply_flips,
    final_margin,
    flips,
    legal_moves,
    lowest_square,
    popcount,
)
from bitflip.core.hashing import position_hash
from bitflip.core.jit import kernel
from bitflip.eval.evaluator import EVAL_SCALE, KIND_PATTERNS, evaluate_indexed
from bitflip.eval.pattern_indices import ROW, pass_indices, play_indices, set_indices
from bitflip.search.control import (
    CONTEMPT,
    DISC_BOUND,
    DISC_INF,
    GENERATION,
    INF,
    MPC_FLAT,
    MPC_MODE,
    MPC_PRETEST,
    MPC_T,
    NODES,
    STOP,
    count_node,
)
from bitflip.search.endgame import solve_kernel
from bitflip.search.ordering import CORNERS, pick_next
from bitflip.search.probcut import SIGMA
from bitflip.search.state import KERNEL_STATE, KernelState, busy_table, defer_or_claim, release
from bitflip.search.tt import (
    EXACT,
    LOWER,
    NO_MOVE,
    UPPER,
    TranspositionTable,
    bound_of,
    tt_probe,
    tt_store,
)

MAX_PLY = 128

SORT_SEARCH_DEPTH = 6
"""From this remaining depth on, children are ordered by a shallow search, not a static score
and their replies (from 4 instead: 1.1-1.2x the nodes and time to depths 10-14)."""

SORT_ALPHA_DELTA = 800
"""The ordering searches rank exactly only the moves that may come within this many eval units
(8 discs) of alpha; a worse move fails low at once (Edax's sort window). With every move ranked
exactly, a search took 1.05-1.1x the nodes and time to depths 10-14 (40 WTHOR midgame positions
at 95% ProbCut, ``benchmarks/time_to_depth.py``)."""

DEFER_DEPTH = 4
"""From this remaining depth on, a thread that shares its tables defers the children another
thread is searching (see :data:`bitflip.search.endgame.DEFER_EMPTIES`)."""


@kernel()
def _sort_depth(depth: int) -> int:
    # Depth of the ordering search at a node of remaining depth ``depth``.
    return min((depth - SORT_SEARCH_DEPTH) // 2, 3)


PVS_SIG = types.int64(
    types.uint64, types.uint64, types.uint64, types.int64, types.int64, types.int64, types.int64,
    KERNEL_STATE,
)  # fmt: skip
"""One explicit signature: numba's cache of a recursive function is reliable only with one."""


@kernel(PVS_SIG)
def pvs_kernel(
    p: np.uint64,
    o: np.uint64,
    mask: np.uint64,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    s: KernelState,
) -> int:
    """Fail-soft PVS value of (p, o) searched ``depth`` plies, in eval units.

    The children are made from ``flips`` (not ``play``): their flips also update the pattern
    indices in ``s.rows``.
    """
    ctl = s.ctl
    if count_node(ctl):
        return 0
    empties = mask & ~(p | o)
    n = int(popcount(empties))
    if depth >= n:
        # The search reaches the end: solve exactly (disc window rounded outward).
        lo = -((-alpha) // EVAL_SCALE) - 1 if alpha > -INF else -DISC_INF
        hi = beta // EVAL_SCALE + 1 if beta < INF else DISC_INF
        ctl[NODES] -= 1
        v = solve_kernel(p, o, max(lo, -DISC_BOUND), min(hi, DISC_BOUND), mask, s)
        return int(v * EVAL_SCALE)
    kind = s.kind
    rows = s.rows
    moves = legal_moves(p, o, mask)
    if moves == 0:
        if legal_moves(o, p, mask) == 0:
            margin = final_margin(p, o, mask)
            if margin == 0:
                return int(-ctl[CONTEMPT] if ply % 2 == 0 else ctl[CONTEMPT])
            return int(margin * EVAL_SCALE)
        if kind == KIND_PATTERNS:
            pass_indices(rows, ply)
        return -pvs_kernel(o, p, mask, depth, -beta, -alpha, ply + 1, s)
    if depth <= 0:
        return int(evaluate_indexed(p, o, mask, kind, s.weights, rows, ply, moves))

    # The parents of leaves skip the table: their search costs less than its memory traffic.
    key = np.uint64(0)
    found, tscore, tdepth, tbound, hash_move = False, 0, 0, 0, NO_MOVE
    if depth >= 2:
        key = position_hash(p, o)
        found, tscore, tdepth, tbound, hash_move = tt_probe(s.tt_keys, s.tt_data, key)
    if found and tdepth >= depth:
        if tbound == EXACT:
            return tscore
        if tbound == LOWER and tscore >= beta:
            return tscore
        if tbound == UPPER and tscore <= alpha:
            return tscore

    # Multi-ProbCut: a shallow search predicts the deep one; cut when it is confidently out
    # of the window.
    t = ctl[MPC_T]
    mpc = s.mpc
    if t > 0 and depth < mpc.shape[0] and mpc[depth, 1] > 0 and beta < INF and alpha > -INF:
        sd = int(mpc[depth, 0])
        a_ = mpc[depth, 1]
        b_ = mpc[depth, 2]
        margin = t * mpc[depth, SIGMA + n] / 100.0
        mode = ctl[MPC_MODE]
        check_high = check_low = True
        # Depth 2 is predicted by the static evaluation itself (shallow depth 0): no search.
        static = 0
        if mode & MPC_PRETEST or sd == 0:
            static = int(evaluate_indexed(p, o, mask, kind, s.weights, rows, ply, moves))
        if mode & MPC_PRETEST:
            check_high = static >= beta
            check_low = static <= alpha
        if mode & MPC_FLAT:
            ctl[MPC_T] = 0
        cut = 0
        if check_high:
            hi = int(np.ceil((beta + margin - b_) / a_))
            v = static if sd == 0 else pvs_kernel(p, o, mask, sd, hi - 1, hi, ply, s)
            if ctl[STOP] == 0 and v >= hi:
                cut = 1
        if cut == 0 and check_low and ctl[STOP] == 0:
            lo = int(np.floor((alpha - margin - b_) / a_))
            v = static if sd == 0 else pvs_kernel(p, o, mask, sd, lo, lo + 1, ply, s)
            if ctl[STOP] == 0 and v <= lo:
                cut = -1
        ctl[MPC_T] = t
        if ctl[STOP] != 0:
            return 0
        if cut != 0:
            return beta if cut > 0 else alpha

    best = -INF
    best_move: int = NO_MOVE
    a = alpha
    m = moves
    # The hash move first, before the others are ordered: it cuts most cut nodes alone, and
    # then the shallow ordering searches of the other moves would be wasted.
    if hash_move != NO_MOVE and (moves >> np.uint64(hash_move)) & U1:
        m &= ~(U1 << np.uint64(hash_move))
        f = flips(p, o, hash_move)
        if kind == KIND_PATTERNS:
            play_indices(rows, ply, hash_move, f)
        np_, no = apply_flips(p, o, hash_move, f)
        best = -pvs_kernel(np_, no, mask, depth - 1, -beta, -a, ply + 1, s)
        if ctl[STOP] != 0:
            return 0
        best_move = hash_move
        a = max(a, best)
        if a >= beta:
            tt_store(s.tt_keys, s.tt_data, key, best, depth, bound_of(best, alpha, beta),
                     best_move, ctl[GENERATION])  # fmt: skip
            return best

    if depth == 1:
        # The parents of leaves evaluate their children in place, in square order (ordering
        # would cost what it saves): no call and no move list per leaf. A child that must pass
        # or ends the game takes the general path.
        while m:
            sq = int(lowest_square(m))
            m &= m - U1
            f = flips(p, o, sq)
            np_, no = apply_flips(p, o, sq, f)
            if kind == KIND_PATTERNS:
                play_indices(rows, ply, sq, f)
            replies = legal_moves(np_, no, mask)
            if replies != 0:
                if count_node(ctl):  # a node budget stops within its leaves too
                    return 0
                v = -int(evaluate_indexed(np_, no, mask, kind, s.weights, rows, ply + 1, replies))
            else:
                v = -pvs_kernel(np_, no, mask, depth - 1, -beta, -a, ply + 1, s)
            if v > best:
                best = v  # the best move is not kept: nothing is stored at this depth
                if v > a:
                    a = v
                    if a >= beta:
                        break
        if ctl[STOP] != 0:
            return 0
        return best

    # Order the other moves.
    mv = s.moves[ply]
    sc = s.scores[ply]
    count = 0
    sd = _sort_depth(depth)
    # Typed int64, not a literal: a literal argument would make numba compile, and cache, a
    # second specialisation of this recursive kernel, which then fails to load.
    inf = int(np.int64(INF))
    # The ordering searches' window, from the child's view: (-inf, -(alpha - delta)).
    sort_beta = -max(alpha - SORT_ALPHA_DELTA, -inf)
    while m:
        sq = int(lowest_square(m))
        m &= m - U1
        f = flips(p, o, sq)
        np_, no = apply_flips(p, o, sq, f)
        if depth >= SORT_SEARCH_DEPTH:
            if kind == KIND_PATTERNS:
                play_indices(rows, ply, sq, f)
            score = -pvs_kernel(np_, no, mask, sd, -inf, sort_beta, ply + 1, s)
        else:
            # Fewest replies first; from depth 2 also the static score (at depth 1 the
            # children are evaluated anyway, so evaluating them twice would not pay).
            replies = legal_moves(np_, no, mask)
            score = -64 * int(popcount(replies) + popcount(replies & CORNERS))
            if (U1 << np.uint64(sq)) & CORNERS:
                score += 64
            if depth >= 2:
                if kind == KIND_PATTERNS:
                    play_indices(rows, ply, sq, f)
                score -= int(
                    evaluate_indexed(np_, no, mask, kind, s.weights, rows, ply + 1, replies)
                )
        mv[count] = sq
        sc[count] = score
        count += 1
    if ctl[STOP] != 0:
        return 0

    searched = 0 if best_move == NO_MOVE else 1
    busy = s.busy
    shared = busy.shape[0] > 1 and depth >= DEFER_DEPTH
    sorted_count = count  # moves after this index were deferred: already ordered
    i = 0
    while i < count:
        sq = pick_next(mv, sc, i, sorted_count) if i < sorted_count else int(mv[i])
        f = flips(p, o, sq)
        np_, no = apply_flips(p, o, sq, f)
        # PVS: the first move gets the full window, the others a null window first and a
        # re-search only when they land inside (alpha, beta).
        first = i + searched == 0
        child_key = np.uint64(0)
        if shared:
            # Another thread searching this child: come back to it last (as the solver does).
            child_key = position_hash(np_, no)
            if defer_or_claim(busy, child_key, not first and i < sorted_count, mv, count, sq):
                count += 1
                i += 1
                continue
        if kind == KIND_PATTERNS:
            play_indices(rows, ply, sq, f)
        lo = -beta if first else -a - 1
        v = -pvs_kernel(np_, no, mask, depth - 1, lo, -a, ply + 1, s)
        if not first and a < v < beta:
            v = -pvs_kernel(np_, no, mask, depth - 1, -beta, -a, ply + 1, s)
        if shared:
            release(busy, child_key)
        i += 1
        if ctl[STOP] != 0:
            return 0
        if v > best:
            best = v
            best_move = sq
            if v > a:
                a = v
                if a >= beta:
                    break
    tt_store(s.tt_keys, s.tt_data, key, best, depth, bound_of(best, alpha, beta), best_move,
             ctl[GENERATION])  # fmt: skip
    return best


@dataclass
class SearchContext:
    """One searching thread's tables and buffers, and the :class:`KernelState` built once over
    them that every kernel call receives."""

    kind: int
    weights: np.ndarray
    tt: TranspositionTable
    eg_tt: TranspositionTable
    mpc: np.ndarray
    ctl: np.ndarray
    busy: np.ndarray = field(default_factory=lambda: busy_table(1))
    """The table of positions being searched, shared by all threads of a search."""
    state: KernelState = field(init=False)

    def __post_init__(self) -> None:
        self.state = KernelState(
            kind=self.kind,
            weights=self.weights,
            ctl=self.ctl,
            tt_keys=self.tt.keys,
            tt_data=self.tt.data,
            moves=np.zeros((MAX_PLY, 64), dtype=np.int64),
            scores=np.zeros((MAX_PLY, 64), dtype=np.int64),
            rows=np.zeros((MAX_PLY + 1, ROW), dtype=np.uint16),
            mpc=self.mpc,
            eg_keys=self.eg_tt.keys,
            eg_data=self.eg_tt.data,
            eg_moves=np.zeros((65, 64), dtype=np.int64),
            eg_scores=np.zeros((65, 64), dtype=np.int64),
            busy=self.busy,
        )

    def midgame(
        self, p: int, o: int, mask: int, depth: int, alpha: int, beta: int, ply: int = 0
    ) -> int:
        """PVS value of a position (eval units); meaningless if ``ctl[STOP]`` got set.

        ``ply`` counts the moves since the root (odd: the root's opponent is to move), which
        tells the contempt whose draw it is.
        """
        if self.kind == KIND_PATTERNS:
            set_indices(np.uint64(p), np.uint64(o), self.state.rows, ply)
        up, uo, um = np.uint64(p), np.uint64(o), np.uint64(mask)
        return int(pvs_kernel(up, uo, um, depth, alpha, beta, ply, self.state))

    def endgame(self, p: int, o: int, mask: int, alpha: int, beta: int) -> int:
        """Exact value of a position (discs) within (alpha, beta), fail-soft."""
        up, uo, um = np.uint64(p), np.uint64(o), np.uint64(mask)
        return int(solve_kernel(up, uo, alpha, beta, um, self.state))

    def hash_move(self, p: int, o: int, exact: bool) -> int | None:
        table = self.eg_tt if exact else self.tt
        return table.best_move(int(position_hash(np.uint64(p), np.uint64(o))))
