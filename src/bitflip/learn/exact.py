"""A small exact solver for small boards (4x4, 6x6 endgames): the yardstick for learned play.

Negamax alpha-beta on the final disc margin (empties to the winner), moves ordered by the
opponent's mobility (fewest first). Fine for up to ~20 empties; the engine's endgame solver
(:mod:`bitflip.search.endgame`) is the fast one for 8x8.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitflip.core.bitboard import U1, flips, legal_moves, lowest_square, popcount


@njit(cache=True)
def _final(p: np.uint64, o: np.uint64, mask: np.uint64) -> int:
    d = popcount(p) - popcount(o)
    e = popcount(mask) - popcount(p | o)
    return d + e if d > 0 else (d - e if d < 0 else 0)


@njit(cache=False)  # not cached: a cached recursive kernel with two signatures crashed on reload
def solve(p: np.uint64, o: np.uint64, mask: np.uint64, alpha: int, beta: int) -> int:
    """Exact final margin of (p, o) for the side to move, within the window (alpha, beta)."""
    moves = legal_moves(p, o, mask)
    if moves == 0:
        if legal_moves(o, p, mask) == 0:
            return _final(p, o, mask)
        return -solve(o, p, mask, -beta, -alpha)
    n = popcount(moves)
    sqs = np.empty(n, np.int64)
    keys = np.empty(n, np.int64)
    for i in range(n):
        sq = lowest_square(moves)
        moves &= moves - U1
        f = flips(p, o, sq)
        q, r = o ^ f, p | f | (U1 << np.uint64(sq))
        sqs[i] = sq
        keys[i] = popcount(legal_moves(q, r, mask))
    order = np.argsort(keys)
    best = -1000
    for j in range(n):
        sq = sqs[order[j]]
        f = flips(p, o, sq)
        v = -solve(o ^ f, p | f | (U1 << np.uint64(sq)), mask, -beta, -alpha)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=False)
def solve_moves(p: np.uint64, o: np.uint64, mask: np.uint64) -> np.ndarray:
    """Exact margin after each legal move (shape 64; -1000 where illegal)."""
    out = np.full(64, -1000, np.int64)
    moves = legal_moves(p, o, mask)
    while moves:
        sq = lowest_square(moves)
        moves &= moves - U1
        f = flips(p, o, sq)
        out[sq] = -solve(o ^ f, p | f | (U1 << np.uint64(sq)), mask, -100, 100)
    return out
