"""Exact endgame solver: the final disc difference (or win/loss/draw) under perfect play.

The kernels search the side-relative position ``(p, o)`` in discs, empties to the winner, as
:func:`bitflip.core.board.final_outcome` counts them. Speed comes from:

- special code for the last empties: the last one is a flip count read from its four lines,
  two and three are written out square by square, four to ``SMALL_EMPTIES`` walk the empty
  squares directly (no move generation), parity first;
- above that: move generation, a transposition table (from ``TT_EMPTIES`` empties), the hash
  move first, then "fastest first" (fewest opponent replies, corners counted double) with a
  parity bonus, and a stability cutoff (the opponent's stable discs bound our best score);
- principal variation search: the first move with the full window, the others with a null
  window, re-searched only when they beat it.

Win/loss/draw mode is the same search with the window (-1, 1).

Every kernel counts nodes in ``ctl[NODES]`` and returns at once (with a meaningless score)
when ``ctl[STOP]`` is set, by another thread, a timer or the node budget; callers must check
the flag before trusting a score. Kernels release the GIL.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bitflip.core.bitboard import U1, flips, legal_moves, lowest_square, popcount
from bitflip.core.hashing import position_hash
from bitflip.core.jit import kernel
from bitflip.eval.evaluator import evaluate
from bitflip.search.ordering import CORNERS, HASH_MOVE_BONUS, odd_regions, pick_next
from bitflip.search.tt import EXACT, LOWER, NO_MOVE, UPPER, bound_of, tt_probe, tt_store

# --- control array ---------------------------------------------------------------------------

NODES = 0
MAX_NODES = 1
STOP = 2
GENERATION = 3
EG_RANK = 6
"""Control slot: how sure the endgame search must be, ``EXACT_RANK`` (no ProbCut) or a
selective rank (an index into ``EG_PC_T``)."""
CTL_SIZE = 8
EXACT_RANK = 3


def new_control(max_nodes: int | None = None, generation: int = 1) -> np.ndarray:
    """The int64 control array a search shares with the threads that may stop it."""
    ctl = np.zeros(CTL_SIZE, dtype=np.int64)
    ctl[MAX_NODES] = max_nodes if max_nodes is not None else np.iinfo(np.int64).max
    ctl[GENERATION] = generation
    ctl[EG_RANK] = EXACT_RANK
    return ctl


SMALL_EMPTIES = 6
"""At and below this many empties the solver walks the empty squares without move lists."""
TT_EMPTIES = 8
"""From this many empties the solver uses its transposition table."""
INF = 1000

_STAB_THRESHOLD = np.array(
    [99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40]
    + [42, 44, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62]
    + [64] * 25,
    dtype=np.int64,
)
"""Try the stability cutoff only when alpha is at least this high (by empties; from Edax)."""

# --- stability -------------------------------------------------------------------------------

_NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)
_COL_A = np.uint64(0x0101010101010101)
_COL_H = np.uint64(0x8080808080808080)
_ROW_1 = np.uint64(0x00000000000000FF)
_ROW_8 = np.uint64(0xFF00000000000000)
_S1 = np.uint64(1)
_S7 = np.uint64(7)
_S8 = np.uint64(8)
_S9 = np.uint64(9)


def _ray_edges(step: int) -> np.ndarray:
    # EDGES[0, k]: squares 2**k or fewer steps from the edge going down the axis (s - step);
    # EDGES[1, k]: the same going up (s + step). dr, dc of one step up for each axis step.
    dr, dc = {1: (0, 1), 8: (1, 0), 9: (1, 1), 7: (1, -1)}[step]
    out = np.zeros((2, 3), dtype=np.uint64)
    for k in range(3):
        n = 1 << k
        for sq in range(64):
            r, c = divmod(sq, 8)
            if not (0 <= r - n * dr < 8 and 0 <= c - n * dc < 8):
                out[0, k] |= np.uint64(1 << sq)
            if not (0 <= r + n * dr < 8 and 0 <= c + n * dc < 8):
                out[1, k] |= np.uint64(1 << sq)
    return out


_EDGES_1 = _ray_edges(1)
_EDGES_8 = _ray_edges(8)
_EDGES_9 = _ray_edges(9)
_EDGES_7 = _ray_edges(7)


@kernel()
def _full_along(filled: np.uint64, step: np.uint64, edges: np.ndarray) -> np.uint64:
    # Squares whose whole line along one axis is filled, by doubling: after round k a square
    # knows that the 2**k squares on each side (or up to the edge) are filled.
    down = filled
    up = filled
    shift = step
    for k in range(3):
        down &= (down << shift) | edges[0, k]
        up &= (up >> shift) | edges[1, k]
        shift = shift + shift
    return down & up


@kernel()
def stable_discs(p: np.uint64, o: np.uint64, mask: np.uint64) -> np.uint64:
    """Discs of ``p`` that can never be flipped (a subset: edges, corners, full lines).

    A disc is stable when on each of the four axes its line is full, or a neighbour on that
    axis is off the board or a stable disc of the same colour. Squares off a smaller board
    count as off the board.
    """
    filled = p | o | ~mask
    full_h = _full_along(filled, _S1, _EDGES_1)
    full_v = _full_along(filled, _S8, _EDGES_8)
    full_d1 = _full_along(filled, _S9, _EDGES_9)
    full_d7 = _full_along(filled, _S7, _EDGES_7)
    wall = ~mask
    stable = np.uint64(0)
    while True:
        b = stable | wall
        h = full_h | ((b << _S1) & _NOT_A) | _COL_A | ((b >> _S1) & _NOT_H) | _COL_H
        v = full_v | (b << _S8) | _ROW_1 | (b >> _S8) | _ROW_8
        d1 = full_d1 | ((b << _S9) & _NOT_A) | _COL_A | _ROW_1
        d1 |= ((b >> _S9) & _NOT_H) | _COL_H | _ROW_8
        d7 = full_d7 | ((b << _S7) & _NOT_H) | _COL_H | _ROW_1
        d7 |= ((b >> _S7) & _NOT_A) | _COL_A | _ROW_8
        new = p & h & v & d1 & d7
        if new == stable:
            return stable
        stable = new


# --- scores ----------------------------------------------------------------------------------


@kernel()
def _end_score(p: np.uint64, o: np.uint64, n: int) -> int:
    # The disc difference of a finished game with ``n`` empty squares, which go to the winner.
    diff = int(popcount(p)) - int(popcount(o))
    if diff > 0:
        return diff + n
    if diff < 0:
        return diff - n
    return 0


@kernel()
def final_score(p: np.uint64, o: np.uint64, mask: np.uint64) -> int:
    """Disc difference of a finished game, the empty squares going to the winner."""
    return _end_score(p, o, int(popcount(mask & ~(p | o))))


def _neighbours() -> np.ndarray:
    out = np.zeros(64, dtype=np.uint64)
    for sq in range(64):
        r, c = divmod(sq, 8)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < 8 and 0 <= c + dc < 8:
                    out[sq] |= np.uint64(1 << (8 * (r + dr) + c + dc))
    return out


NEIGHBOURS = _neighbours()
"""The squares around each square: a move there flips nothing unless one holds an opponent."""


def _diagonals() -> np.ndarray:
    # DIAGONALS[sq] = (a1-h8 diagonal, a8-h1 diagonal) through ``sq``, ``sq`` included.
    out = np.zeros((64, 2), dtype=np.uint64)
    for sq in range(64):
        r, c = divmod(sq, 8)
        for rr in range(8):
            for cc in range(8):
                bit = np.uint64(1 << (8 * rr + cc))
                if rr - cc == r - c:
                    out[sq, 0] |= bit
                if rr + cc == r + c:
                    out[sq, 1] |= bit
    return out


def _line_flip_counts() -> np.ndarray:
    # LINE_FLIPS[pos, idx]: discs flipped by playing square ``pos`` of a line of 8 in which the
    # mover holds the squares of bitmask ``idx`` and the opponent all the others.
    out = np.zeros((8, 256), dtype=np.uint8)
    for pos in range(8):
        for idx in range(256):
            n = 0
            for step in (-1, 1):
                run, k = 0, pos + step
                while 0 <= k < 8 and not idx >> k & 1:
                    run, k = run + 1, k + step
                if 0 <= k < 8:
                    n += run
            out[pos, idx] = n
    return out


DIAGONALS = _diagonals()
LINE_FLIPS = _line_flip_counts()
_BYTE = np.uint64(0xFF)
_S56 = np.uint64(56)
_GATHER_COLUMN = np.uint64(0x0102040810204080)
"""Times a column shifted to column a, it lands in the top byte with row k at bit k."""


@kernel()
def _count_last_flips(x: np.uint64, sq: int) -> int:
    # Discs ``x`` flips by playing ``sq`` on a full 8x8 board: each line through ``sq`` is
    # gathered into a byte (a diagonal by a multiply, each square landing on its column's bit;
    # squares missing from a short diagonal read as the opponent's and never end a run).
    r = sq >> 3
    c = sq & 7
    row = (x >> np.uint64(8 * r)) & _BYTE
    col = (((x >> np.uint64(c)) & _COL_A) * _GATHER_COLUMN) >> _S56
    d9 = ((x & DIAGONALS[sq, 0]) * _COL_A) >> _S56
    d7 = ((x & DIAGONALS[sq, 1]) * _COL_A) >> _S56
    n = int(LINE_FLIPS[c, row]) + int(LINE_FLIPS[r, col]) + int(LINE_FLIPS[c, d9])
    return n + int(LINE_FLIPS[c, d7])


@kernel()
def _last1(p: np.uint64, o: np.uint64, sq: int) -> int:
    # One empty square left: whoever can play it does (the side to move first).
    pc = popcount(p)
    oc = popcount(o)
    around = NEIGHBOURS[sq]
    full = (p | o) == ~(U1 << np.uint64(sq))  # 8x8: count flips from the lines alone
    n = 0
    if around & o:
        n = _count_last_flips(p, sq) if full else popcount(flips(p, o, sq))
    if n > 0:
        return int(pc - oc + 2 * n + 1)
    if around & p:
        n = _count_last_flips(o, sq) if full else popcount(flips(o, p, sq))
    if n > 0:
        return int(pc - oc - 2 * n - 1)
    return _end_score(p, o, 1)


@kernel()
def _solve2(
    p: np.uint64, o: np.uint64, alpha: int, beta: int, x1: int, x2: int, ctl: np.ndarray
) -> int:
    # Two empties: each side's two tries written out, no move generation; fail-soft.
    ctl[NODES] += 1
    b1 = U1 << np.uint64(x1)
    b2 = U1 << np.uint64(x2)
    best = -INF
    if NEIGHBOURS[x1] & o:
        f = flips(p, o, x1)
        if f:
            ctl[NODES] += 1
            best = -_last1(o ^ f, p | f | b1, x2)
            if best >= beta:
                return best
    if NEIGHBOURS[x2] & o:
        f = flips(p, o, x2)
        if f:
            ctl[NODES] += 1
            v = -_last1(o ^ f, p | f | b2, x1)
            if v > best:
                best = v
    if best != -INF:
        return best
    # A pass: the opponent tries the same squares and we take the lower score.
    worst = INF
    if NEIGHBOURS[x1] & p:
        f = flips(o, p, x1)
        if f:
            ctl[NODES] += 1
            worst = _last1(p ^ f, o | f | b1, x2)
            if worst <= alpha:
                return worst
    if NEIGHBOURS[x2] & p:
        f = flips(o, p, x2)
        if f:
            ctl[NODES] += 1
            v = _last1(p ^ f, o | f | b2, x1)
            if v < worst:
                worst = v
    if worst != INF:
        return worst
    return _end_score(p, o, 2)


@kernel()
def _quadrant(sq: int) -> int:
    return ((sq >> 5) << 1) | ((sq >> 2) & 1)


_SOLVE3_SIG = "int64(uint64, uint64, int64, int64, int64, int64, int64, boolean, int64[::1])"


@kernel(_SOLVE3_SIG)
def _solve3(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    x1: int,
    x2: int,
    x3: int,
    passed: bool,
    ctl: np.ndarray,
) -> int:
    # Three empties, the one alone in its quadrant first (parity); fail-soft.
    ctl[NODES] += 1
    q1 = _quadrant(x1)
    q2 = _quadrant(x2)
    q3 = _quadrant(x3)
    if q1 == q2 and q3 != q1:
        x1, x3 = x3, x1
    elif q1 == q3 and q2 != q1:
        x1, x2 = x2, x1
    best = -INF
    for k in range(3):
        sq = x1 if k == 0 else x2 if k == 1 else x3
        if NEIGHBOURS[sq] & o == 0:
            continue
        f = flips(p, o, sq)
        if f == 0:
            continue
        ya = x2 if k == 0 else x1
        yb = x2 if k == 2 else x3
        v = -_solve2(o ^ f, p | f | (U1 << np.uint64(sq)), -beta, -max(alpha, best), ya, yb, ctl)
        if v > best:
            best = v
            if v >= beta:
                return best
    if best != -INF:
        return best
    if passed:
        return _end_score(p, o, 3)
    # ``not passed`` is True here; a literal True would make numba compile a second,
    # unlinkable specialisation of this recursive kernel.
    return -_solve3(o, p, -beta, -alpha, x1, x2, x3, not passed, ctl)


_SMALL_SIG = "int64(uint64, uint64, int64, int64, uint64, uint64, int64, int64[::1])"
SOLVE_SIG = (
    "int64(uint64, uint64, int64, int64, uint64, uint64[:], int64[:], int64[:, ::1],"
    " int64[:, ::1], int64[::1], int64, float64[::1])"
)
"""Explicit signatures: numba's cache of a recursive function is reliable only with one."""


@kernel(_SMALL_SIG)
def _small(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    mask: np.uint64,
    empties: np.uint64,
    n: int,
    ctl: np.ndarray,
) -> int:
    # 4..SMALL_EMPTIES empties: walk the empty squares, odd regions first; fail-soft.
    ctl[NODES] += 1
    best = -INF
    odd = odd_regions(empties)
    for phase in range(2):
        rem = empties & odd if phase == 0 else empties & ~odd
        while rem:
            sq = int(lowest_square(rem))
            rem &= rem - U1
            if NEIGHBOURS[sq] & o == 0:
                continue
            f = flips(p, o, sq)
            if f == 0:
                continue
            b = U1 << np.uint64(sq)
            if n == 4:
                e = empties ^ b
                x1 = int(lowest_square(e))
                e &= e - U1
                x2 = int(lowest_square(e))
                e &= e - U1
                v = -_solve3(
                    o ^ f,
                    p | f | b,
                    -beta,
                    -max(alpha, best),
                    x1,
                    x2,
                    int(lowest_square(e)),
                    False,
                    ctl,
                )
            else:
                v = -_small(
                    o ^ f, p | f | b, -beta, -max(alpha, best), mask, empties ^ b, n - 1, ctl
                )
            if v > best:
                best = v
                if v >= beta:
                    return best
    if best == -INF:
        if legal_moves(o, p, mask) == 0:
            return final_score(p, o, mask)
        return -_small(o, p, -beta, -alpha, mask, empties, n, ctl)
    return best


@kernel()
def potential_mobility(p: np.uint64, o: np.uint64, mask: np.uint64) -> int:
    """Empty squares next to an opponent disc: where the side to move might play later."""
    e = mask & ~(p | o)
    x = ((o << _S1) & _NOT_A) | ((o >> _S1) & _NOT_H) | (o << _S8) | (o >> _S8)
    x |= (
        ((o << _S9) & _NOT_A)
        | ((o >> _S9) & _NOT_H)
        | ((o << _S7) & _NOT_H)
        | ((o >> _S7) & _NOT_A)
    )
    return int(popcount(x & e))


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


_CORNER_NEIGH = np.uint64(0x42C300000000C342)


@kernel()
def corner_stability(x: np.uint64) -> int:
    """Discs of ``x`` on a corner or beside an owned corner along an edge (a cheap stability)."""
    c = x & CORNERS
    n = ((c >> _S1) | (c << _S1) | (c >> _S8) | (c << _S8)) & x & _CORNER_NEIGH
    return int(popcount(c) + popcount(n))


ETC_EMPTIES = 12
"""Above this many empties the solver looks up each child in the table before searching."""
EVAL_SORT_EMPTIES = 13
"""From this many empties the solver orders moves with the evaluation as well."""
_SHALLOW_INF = 10_000_000

EG_PC_EMPTIES = 11
"""From this many empties a selective endgame pass may cut a node by ProbCut (the fastest of
10-16 on FFO #40-#44)."""
EG_PC_DEPTH = 2
EG_PC_A = 0.0108
EG_PC_B = 2.20
EG_PC_SIGMA = 7.1
"""Exact score ~ A * (depth-2 evaluated search) + B, residual deviation SIGMA discs: fitted on
250 WTHOR positions with 14-20 empties by ``benchmarks/endgame_probcut.py``."""
EG_PC_T = np.array([0.0, 1.0, 1.8, 0.0])
"""ProbCut confidence t of each selective rank (rank 3 is exact: no cut)."""


@kernel("int64(uint64, uint64, uint64, int64, int64, int64, int64, float64[::1])")
def _shallow(
    p: np.uint64,
    o: np.uint64,
    mask: np.uint64,
    depth: int,
    alpha: int,
    beta: int,
    kind: int,
    weights: np.ndarray,
) -> int:
    # Plain fail-soft alpha-beta on the evaluation, for move ordering (depth 0 to 2).
    if depth <= 0:
        return int(evaluate(p, o, mask, kind, weights))
    moves = legal_moves(p, o, mask)
    if moves == 0:
        return int(evaluate(p, o, mask, kind, weights))
    best = -_SHALLOW_INF
    while moves:
        sq = int(lowest_square(moves))
        moves &= moves - U1
        f = flips(p, o, sq)
        np_ = o ^ f
        no = p | f | (U1 << np.uint64(sq))
        if depth == 1:
            v = -int(evaluate(np_, no, mask, kind, weights))
        else:
            v = -_shallow(np_, no, mask, depth - 1, -beta, -max(alpha, best), kind, weights)
        if v > best:
            best = v
            if v >= beta:
                break
    return best


@kernel(SOLVE_SIG)
def solve_kernel(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    mask: np.uint64,
    keys: np.ndarray,
    data: np.ndarray,
    buf_moves: np.ndarray,
    buf_scores: np.ndarray,
    ctl: np.ndarray,
    kind: int,
    weights: np.ndarray,
) -> int:
    """Exact score of (p, o) in discs within the window (alpha, beta), fail-soft.

    ``kind`` and ``weights`` name the evaluation that orders moves far from the end.
    """
    empties = mask & ~(p | o)
    n = int(popcount(empties))
    if n <= SMALL_EMPTIES:
        if n == 0:
            ctl[NODES] += 1
            return final_score(p, o, mask)
        x1 = int(lowest_square(empties))
        if n == 1:
            ctl[NODES] += 1
            return _last1(p, o, x1)
        e = empties & (empties - U1)
        x2 = int(lowest_square(e))
        if n == 2:
            return _solve2(p, o, alpha, beta, x1, x2, ctl)
        if n == 3:
            e &= e - U1
            return _solve3(p, o, alpha, beta, x1, x2, int(lowest_square(e)), False, ctl)
        return _small(p, o, alpha, beta, mask, empties, n, ctl)
    ctl[NODES] += 1
    if ctl[NODES] >= ctl[MAX_NODES]:
        ctl[STOP] = 1
    if ctl[STOP] != 0:
        return 0
    moves = legal_moves(p, o, mask)
    if moves == 0:
        if legal_moves(o, p, mask) == 0:
            return final_score(p, o, mask)
        return -solve_kernel(
            o, p, -beta, -alpha, mask, keys, data, buf_moves, buf_scores, ctl, kind, weights
        )

    # The opponent's stable discs cap our score.
    if alpha >= _STAB_THRESHOLD[n] - (64 - popcount(mask)):
        cap = int(popcount(mask) - 2 * popcount(stable_discs(o, p, mask)))
        if cap <= alpha:
            return cap

    rank = ctl[EG_RANK]
    key = np.uint64(0)
    hash_move = NO_MOVE
    if n >= TT_EMPTIES:
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

    if rank != EXACT_RANK and n >= EG_PC_EMPTIES:
        # ProbCut: a shallow evaluated search that predicts a score well outside the window.
        margin = EG_PC_T[rank] * EG_PC_SIGMA
        inf = ctl[NODES] * 0 + _SHALLOW_INF  # not a literal: see pvs_kernel
        v = EG_PC_A * _shallow(p, o, mask, EG_PC_DEPTH, -inf, inf, kind, weights) + EG_PC_B
        if v - margin >= beta:
            return beta
        if v + margin <= alpha:
            return alpha

    mv = buf_moves[n]
    sc = buf_scores[n]
    odd = odd_regions(empties)
    count = 0
    m = moves
    while m:
        sq = int(lowest_square(m))
        m &= m - U1
        b = U1 << np.uint64(sq)
        f = flips(p, o, sq)
        np_ = o ^ f
        no = p | f | b
        if n > ETC_EMPTIES:
            # Enhanced transposition cutoff: a child already proven bad enough for the
            # opponent refutes this node without searching anything.
            found, cs, cd, cb, _ = tt_probe(keys, data, position_hash(np_, no))
            if found and (cb & UPPER) != 0 and -cs >= beta and (cd >> 6) >= rank:
                return -cs
        if sq == hash_move:
            s = HASH_MOVE_BONUS
        elif no == 0:
            s = HASH_MOVE_BONUS // 2  # wipe-out
        else:
            s = move_score_fast(np_, no, mask, b & odd != 0, b)
            if n >= EVAL_SORT_EMPTIES:
                # Far from the end, a shallow evaluated search orders better (as in Edax):
                # about 4 discs of it (2 at depth 1) weigh as much as one opponent reply.
                sd = 0 if n < EVAL_SORT_EMPTIES + 4 else 1 if n < EVAL_SORT_EMPTIES + 8 else 2
                inf = ctl[NODES] * 0 + _SHALLOW_INF  # not a literal: see pvs_kernel
                v = _shallow(np_, no, mask, sd, -inf, inf, kind, weights)
                s -= v * ((1 << 15) // (400 if sd == 0 else 200))
        mv[count] = sq
        sc[count] = s
        count += 1

    best = -INF
    best_move: int = NO_MOVE
    a = alpha
    for i in range(count):
        sq = pick_next(mv, sc, i, count)
        b = U1 << np.uint64(sq)
        f = flips(p, o, sq)
        np_ = o ^ f
        no = p | f | b
        if i == 0:
            v = -solve_kernel(
                np_, no, -beta, -a, mask, keys, data, buf_moves, buf_scores, ctl, kind, weights
            )
        else:
            v = -solve_kernel(
                np_, no, -a - 1, -a, mask, keys, data, buf_moves, buf_scores, ctl, kind, weights
            )
            if a < v < beta:
                v = -solve_kernel(
                    np_, no, -beta, -v, mask, keys, data, buf_moves, buf_scores, ctl, kind, weights
                )
        if ctl[STOP] != 0:
            return 0
        if v > best:
            best = v
            best_move = sq
            if v > a:
                a = v
                if a >= beta:
                    break
    if n >= TT_EMPTIES:
        bound = bound_of(best, alpha, beta)
        tt_store(keys, data, key, best, n + 64 * rank, bound, best_move, ctl[GENERATION])
    return best


# --- Python side -----------------------------------------------------------------------------


@dataclass
class SolverBuffers:
    """Per-ply move lists of the solver (one set per searching thread)."""

    moves: np.ndarray
    scores: np.ndarray

    @classmethod
    def allocate(cls) -> SolverBuffers:
        return cls(np.zeros((65, 64), dtype=np.int64), np.zeros((65, 64), dtype=np.int64))
