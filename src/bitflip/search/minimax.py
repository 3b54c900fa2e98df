"""Plain alpha-beta minimax on a hand-made score: the baseline agent of the AlphaZero reports.

Deliberately simple (no transposition table, no move ordering): it is a fixed yardstick for
learning agents, not the engine. The engine lives in :mod:`bitflip.search.alphabeta`.

Why it is not the engine's kernel with an evaluation kind: ``minimax:depth=N`` is the
documented baseline of recorded results, and its play must not change. It differs from the
engine where the engine is right for itself but would move the yardstick: a pass costs a ply,
a finished game is worth ``WIN_SCORE`` per disc (any win beats any evaluation; no empties to
the winner), and it never switches to an exact solve near the end.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitflip.core.bitboard import U1, legal_moves, lowest_square, play, popcount
from bitflip.core.jit import kernel
from bitflip.eval.positional import disc_square_score

WIN_SCORE = 1_000_000
MOBILITY_WEIGHT = 5


@kernel()
def handmade_score(p: np.uint64, o: np.uint64, mask: np.uint64, table: np.ndarray) -> int:
    """Disc-square table plus mobility, from the side to move's view."""
    mob = popcount(legal_moves(p, o, mask)) - popcount(legal_moves(o, p, mask))
    return disc_square_score(p, o, table) + MOBILITY_WEIGHT * mob


@kernel()
def minimax_value(
    p: np.uint64,
    o: np.uint64,
    mask: np.uint64,
    table: np.ndarray,
    depth: int,
    alpha: int,
    beta: int,
) -> int:
    """Negamax alpha-beta value of (p, o) searched ``depth`` plies deep."""
    moves = legal_moves(p, o, mask)
    if moves == 0:
        if legal_moves(o, p, mask) == 0:
            diff = popcount(p) - popcount(o)
            return WIN_SCORE * diff if diff != 0 else 0
        if depth == 0:
            return handmade_score(p, o, mask, table)
        return -minimax_value(o, p, mask, table, depth - 1, -beta, -alpha)
    if depth == 0:
        return handmade_score(p, o, mask, table)
    best = -WIN_SCORE * 100
    while moves:
        sq = lowest_square(moves)
        moves &= moves - U1
        np_, no = play(p, o, sq)
        v = -minimax_value(np_, no, mask, table, depth - 1, -beta, -alpha)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True)  # it creates its result array, so it keeps numba's reference counting
def minimax_root(
    p: np.uint64, o: np.uint64, mask: np.uint64, table: np.ndarray, depth: int
) -> np.ndarray:
    """Exact minimax value of every legal move (-inf-like for illegal squares), shape (64,)."""
    out = np.full(64, -WIN_SCORE * 1000, dtype=np.int64)
    moves = legal_moves(p, o, mask)
    while moves:
        sq = lowest_square(moves)
        moves &= moves - U1
        np_, no = play(p, o, sq)
        big = WIN_SCORE * 100
        out[sq] = -minimax_value(np_, no, mask, table, depth - 1, -big, big)
    return out
