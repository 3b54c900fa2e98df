"""Exact endgame solver: the final disc difference (or win/loss/draw) under perfect play.

The kernels search the side-relative position ``(p, o)`` in discs, empties to the winner, as
:func:`bitflip.core.board.final_outcome` counts them. Speed comes from:

- special code for the last empties (:mod:`bitflip.search.endgame_small`): the last one is a
  flip count read from its four lines, two and three are written out square by square, four to
  ``SMALL_EMPTIES`` walk the empty squares directly (no move generation), parity first;
- above that: move generation, a transposition table (from 8 or 10 empties:
  :func:`table_empties`), the hash move first, then "fastest first" (fewest opponent replies,
  corners counted double) with a parity bonus, and a stability cutoff (the opponent's stable
  discs bound our best score, :mod:`bitflip.search.stability`);
- principal variation search: the first move with the full window, the others with a null
  window, re-searched only when they beat it.

Win/loss/draw mode is the same search with the window (-1, 1).

Every kernel counts nodes in ``ctl[NODES]`` and returns at once (with a meaningless score)
when ``ctl[STOP]`` is set, by another thread, a timer or the node budget; callers must check
the flag before trusting a score (slots: :mod:`bitflip.search.control`). Kernels release the
GIL. They read their tables, buffers and evaluation from one named
:class:`~bitflip.search.state.KernelState`.
"""

from __future__ import annotations

import numpy as np
from numba import types

from bitflip.core.bitboard import U1, final_margin, legal_moves, lowest_square, play, popcount
from bitflip.core.hashing import position_hash
from bitflip.core.jit import kernel
from bitflip.eval.evaluator import evaluate
from bitflip.search.control import (
    DISC_INF,
    EG_RANK,
    EG_SURE_T,
    EG_TT_EMPTIES,
    EXACT_RANK,
    GENERATION,
    INF,
    SHALLOW_TT_EMPTIES,
    STOP,
    count_node,
)
from bitflip.search.endgame_small import SMALL_EMPTIES, solve_small
from bitflip.search.ordering import CORNERS, HASH_MOVE_BONUS, odd_regions, pick_next
from bitflip.search.stability import corner_stability, potential_mobility, stable_discs
from bitflip.search.state import KERNEL_STATE, KernelState, defer_or_claim, release
from bitflip.search.tt import EXACT, LOWER, NO_MOVE, UPPER, bound_of, tt_probe, tt_store

DEEP_SOLVE_EMPTIES = 24
DEEP_TT_EMPTIES = 10
"""A solve from ``DEEP_SOLVE_EMPTIES`` or more empties uses its transposition table only from
``DEEP_TT_EMPTIES`` empties, others from ``SHALLOW_TT_EMPTIES`` (8). A big solve's nodes
outnumber the table's entries many times over: the positions near the end then cost a probe
and a store (two cache misses) and push out entries worth more. FFO #45-#52 (24-27 empties,
one thread, 64 MB table): 88.4 s at 8, 84.1 at 9, 80.0 at 10, 81.0 at 11, 83.2 at 12. Small
solves lose by it: WTHOR positions at 18 empties 32.8 -> 36.2 ms (4 MB), 21 empties equal."""


def table_empties(root_empties: int) -> int:
    """The solver's table threshold (``ctl[EG_TT_EMPTIES]``) for a solve of this many empties."""
    return DEEP_TT_EMPTIES if root_empties >= DEEP_SOLVE_EMPTIES else SHALLOW_TT_EMPTIES


_STAB_THRESHOLD = np.array(
    [99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40]
    + [42, 44, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62]
    + [64] * 25,
    dtype=np.int64,
)
"""Try the stability cutoff only when alpha is at least this high (by empties; from Edax)."""


@kernel()
def move_score_fast(np_: np.uint64, no: np.uint64, mask: np.uint64, odd: bool, b: np.uint64) -> int:
    """Fastest-first ordering score of a move, from the position after it (opponent to move).

    Fewest opponent replies (corners double) first, then fewest potential replies, then our
    discs anchored at corners, then parity; as in Edax's fast move evaluation.
    """
    replies = legal_moves(np_, no, mask)
    s = (36 - int(popcount(replies) + popcount(replies & CORNERS))) << 15
    s += (36 - potential_mobility(np_, no, mask)) << 10
    s += corner_stability(no) << 11
    if odd:
        s += 1 << 9
    if b & CORNERS:
        s += 1 << 8
    return s


ETC_EMPTIES = 12
"""Above this many empties the solver looks up each child in the table before searching."""
EVAL_SORT_EMPTIES = 13
"""From this many empties the solver orders moves with the evaluation as well: the child's
static evaluation, from ``EVAL_SORT_EMPTIES + 3`` a depth-1 search, from ``+ 6`` depth 2.
(From + 4 and + 8 before: FFO #45-#52 one thread 79.4 -> 78.1 s, #40-#49 28.3 -> 27.5 s, #53
89.3 -> 87.2 s, 8-12% fewer nodes; + 2 / + 4: 12% fewer nodes again but 6% slower; + 5 /
+ 10 5% slower; depth 3 from + 10 no better.)"""

WIPEOUT_ALPHA = 48
"""Needing more than this many discs, the solver orders by fastest first only, without the
evaluated searches: the lines that win that much (wipe-outs) are the ones that leave the
opponent few moves, which the evaluation does not rank first. FFO #59 (+64): 536 M nodes,
21 s -> 86 M, 3.2 s; FFO #40-#49 unchanged (at 32, #40, +38, took 16% more nodes)."""

EG_PC_EMPTIES = 11
"""From this many empties a selective endgame pass may cut a node by ProbCut (the fastest of
10-16 on FFO #40-#44)."""
EG_PC_DEPTH = 2
EG_PC_A = 0.0108
EG_PC_B = 2.20
EG_PC_SIGMA = 7.1
"""Exact score ~ A * (depth-2 evaluated search) + B, residual deviation SIGMA discs: fitted on
250 WTHOR positions with 14-20 empties by ``python -m bitflip.learn.probcut_fit --endgame``."""
EG_PC_STATIC_A = 0.0110
EG_PC_STATIC_B = 1.19
EG_PC_STATIC_SIGMA = 8.3
"""The same line for the static evaluation alone, checked first: a node far enough outside the
window is cut without the depth-2 search (as Multi-ProbCut checks the cheaper predictor first).
Fitted with the depth-2 line's refit (2,500 WTHOR positions with 11-20 empties, a scratch walk
described in ``benchmarks/RESULTS-ntest.md`` steps 42-43: a 0.0110, b 1.19, sigma 8.94; depth 2
there 0.0110, 1.47, 7.65); sigma scaled by 7.1 / 7.65, as the depth-2 line's is, so that both
checks cut at the same confidence. ``python -m bitflip.learn.probcut_fit --endgame`` prints the
same row as "depth 0" over its own smaller sample (300 positions at 14-20 empties: a 0.0112,
b 1.00, sigma 9.61, depth 2 there 8.75). Level 14's proofs at 23
empties: 17% less time (200 positions of ``benchmarks/endgame_positions.py``)."""
SURE_RANK = 2
"""The surer selective rank: its t is a search's own when it sets ``ctl[EG_SURE_T]``."""
EG_PC_T = np.array([0.0, 1.0, 2.1, 0.0])
"""ProbCut confidence t of each selective rank (rank 3 is exact: no cut). Rank 2 at 2.1 with
the static check (1.8 without it before): from NTest's positions at 24 empties the default
scored +0.8 +- 0.7 points over 600 games paired with rank 2 at 1.8, in 1.07x NTest's time
against 1.02x (``benchmarks/RESULTS-ntest.md``, step 43)."""


@kernel("int64(uint64, uint64, uint64, int64, int64, int64, int64, float32[::1])")
def shallow_search(
    p: np.uint64,
    o: np.uint64,
    mask: np.uint64,
    depth: int,
    alpha: int,
    beta: int,
    kind: int,
    weights: np.ndarray,
) -> int:
    """Plain fail-soft alpha-beta on the evaluation (eval units): the solver's move ordering
    and ProbCut predictor (depth 0 to 2)."""
    if depth <= 0:
        return int(evaluate(p, o, mask, kind, weights))
    moves = legal_moves(p, o, mask)
    if moves == 0:
        return int(evaluate(p, o, mask, kind, weights))
    best = -INF
    while moves:
        sq = int(lowest_square(moves))
        moves &= moves - U1
        np_, no = play(p, o, sq)
        if depth == 1:
            v = -int(evaluate(np_, no, mask, kind, weights))
        else:
            v = -shallow_search(np_, no, mask, depth - 1, -beta, -max(alpha, best), kind, weights)
        if v > best:
            best = v
            if v >= beta:
                break
    return best


@kernel(inline=True)
def _beyond(predicted: float, margin: float, alpha: int, beta: int) -> int:
    """ProbCut's test of a predicted score: +1 when it is ``margin`` above the window (the node
    fails high), -1 when ``margin`` below it, 0 when it may be inside."""
    if predicted - margin >= beta:
        return 1
    if predicted + margin <= alpha:
        return -1
    return 0


MIDGAME_HINT_EMPTIES = 16
"""From this many empties a selective pass that has no move of its own for a node takes the
midgame table's: in a game the midgame searches of the moves before (18-22 plies at levels
14-20) met most of a first proof's upper nodes, and their best move is the likeliest to win.
Level 14's first proofs with the table of its searches 2-4 plies before (200 positions of
``match-step43-def21-n16-s135`` and ``s136``): at 25 empties 0.74x the time, at 24 0.81x, the
same moves. Not in exact-rank proofs and solves: 1.03x the nodes at 22 empties."""


DEFER_EMPTIES = 14
"""From this many empties a thread that shares its tables defers the children another thread is
searching (simplified ABDADA, see :class:`bitflip.search.driver.Searcher`, and the helpers of
:mod:`bitflip.search.state`): it searches its
other moves first, and by the time it comes back the other thread's result is in the table.
(10: 0.62x the time of one thread on FFO #40-#49; 12: 0.59x; 14 and 16: 0.58x.)"""


SOLVE_SIG = types.int64(
    types.uint64, types.uint64, types.int64, types.int64, types.uint64, KERNEL_STATE
)
"""An explicit signature: numba's cache of a recursive function is reliable only with one."""


@kernel(SOLVE_SIG)
def solve_kernel(
    p: np.uint64, o: np.uint64, alpha: int, beta: int, mask: np.uint64, s: KernelState
) -> int:
    """Exact score of (p, o) in discs within the window (alpha, beta), fail-soft.

    The state's evaluation orders moves far from the end; the solver uses the ``eg_`` fields
    of the state, its ``busy`` table and its control array.
    """
    ctl = s.ctl
    empties = mask & ~(p | o)
    n = int(popcount(empties))
    if n <= SMALL_EMPTIES:
        return solve_small(p, o, alpha, beta, mask, empties, n, ctl)
    if count_node(ctl):
        return 0
    moves = legal_moves(p, o, mask)
    if moves == 0:
        if legal_moves(o, p, mask) == 0:
            return final_margin(p, o, mask)
        return -solve_kernel(o, p, -beta, -alpha, mask, s)

    # The opponent's stable discs cap our score.
    if alpha >= _STAB_THRESHOLD[n] - (64 - popcount(mask)):
        cap = int(popcount(mask) - 2 * popcount(stable_discs(o, p, mask)))
        if cap <= alpha:
            return cap

    keys, data = s.eg_keys, s.eg_data
    kind, weights = s.kind, s.weights
    inf = int(np.int64(INF))  # an int64, not a literal: see pvs_kernel
    rank = ctl[EG_RANK]
    tabled = n >= ctl[EG_TT_EMPTIES]
    key = np.uint64(0)
    hash_move = NO_MOVE
    if tabled:
        key = position_hash(p, o)
        found, score, stored, bound, hash_move = tt_probe(keys, data, key)
        # The depth field holds n + 64 * rank: a bound proven less surely only orders moves.
        if found and (stored >> 6) >= rank:
            if bound == EXACT:
                return score
            if bound == LOWER and score >= beta:
                return score
            if bound == UPPER and score <= alpha:
                return score
            if bound == LOWER and score > alpha:
                alpha = score
            elif bound == UPPER and score < beta:
                beta = score
        if hash_move == NO_MOVE and rank != EXACT_RANK and n >= MIDGAME_HINT_EMPTIES:
            # The midgame search's best move here, from the moves before (see the constant);
            # NO_MOVE when it has none.
            _, _, _, _, hash_move = tt_probe(s.tt_keys, s.tt_data, key)

    if rank != EXACT_RANK and n >= EG_PC_EMPTIES:
        # ProbCut: the static evaluation, then a shallow evaluated search, that predicts a
        # score well outside the window.
        t = EG_PC_T[rank]
        if rank == SURE_RANK and ctl[EG_SURE_T] > 0:
            t = ctl[EG_SURE_T] / 100.0
        static = EG_PC_STATIC_A * evaluate(p, o, mask, kind, weights) + EG_PC_STATIC_B
        cut = _beyond(static, t * EG_PC_STATIC_SIGMA, alpha, beta)
        if cut == 0:
            d2 = shallow_search(p, o, mask, EG_PC_DEPTH, -inf, inf, kind, weights)
            cut = _beyond(EG_PC_A * d2 + EG_PC_B, t * EG_PC_SIGMA, alpha, beta)
        if cut != 0:
            return beta if cut > 0 else alpha

    mv = s.eg_moves[n]
    sc = s.eg_scores[n]
    odd = odd_regions(empties)
    count = 0
    m = moves
    while m:
        sq = int(lowest_square(m))
        m &= m - U1
        b = U1 << np.uint64(sq)
        np_, no = play(p, o, sq)
        if n > ETC_EMPTIES:
            # Enhanced transposition cutoff: a child already proven bad enough for the
            # opponent refutes this node without searching anything.
            found, cs, cd, cb, _ = tt_probe(keys, data, position_hash(np_, no))
            if found and (cb & UPPER) != 0 and -cs >= beta and (cd >> 6) >= rank:
                return -cs
        if sq == hash_move:
            score = HASH_MOVE_BONUS
        elif no == 0:
            score = HASH_MOVE_BONUS // 2  # wipe-out
        else:
            score = move_score_fast(np_, no, mask, b & odd != 0, b)
            if n >= EVAL_SORT_EMPTIES and alpha < WIPEOUT_ALPHA:
                # Far from the end, a shallow evaluated search orders better (as in Edax):
                # about 4 discs of it (2 at depth 1) weigh as much as one opponent reply.
                sd = 0 if n < EVAL_SORT_EMPTIES + 3 else 1 if n < EVAL_SORT_EMPTIES + 6 else 2
                v = shallow_search(np_, no, mask, sd, -inf, inf, kind, weights)
                score -= v * ((1 << 15) // (400 if sd == 0 else 200))
        mv[count] = sq
        sc[count] = score
        count += 1

    best = -DISC_INF
    best_move: int = NO_MOVE
    a = alpha
    busy = s.busy
    shared = busy.shape[0] > 1 and n >= DEFER_EMPTIES
    sorted_count = count  # moves after this index were deferred: already ordered
    i = 0
    while i < count:
        sq = pick_next(mv, sc, i, sorted_count) if i < sorted_count else int(mv[i])
        np_, no = play(p, o, sq)
        child_key = np.uint64(0)
        if shared:
            child_key = position_hash(np_, no)
            if defer_or_claim(busy, child_key, 0 < i < sorted_count, mv, count, sq):
                count += 1  # another thread is on it: come back to it last
                i += 1
                continue
        # PVS: the first move with the full window, the others with a null window first.
        v = -solve_kernel(np_, no, -beta if i == 0 else -a - 1, -a, mask, s)
        if i > 0 and a < v < beta:
            v = -solve_kernel(np_, no, -beta, -v, mask, s)
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
    if tabled:
        bound = bound_of(best, alpha, beta)
        tt_store(keys, data, key, best, n + 64 * rank, bound, best_move, ctl[GENERATION])
    return best
