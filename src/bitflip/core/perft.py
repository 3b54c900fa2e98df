"""Perft: count the leaves of the game tree, convention A of shared/data/perft.md.

A forced pass is a ply, and a game that ends before the depth is reached is one leaf.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitflip.core.bitboard import U1, legal_moves, lowest_square, play, popcount
from bitflip.core.board import Board


@njit(cache=True)
def perft_kernel(p: np.uint64, o: np.uint64, mask: np.uint64, depth: int) -> int:
    """Leaves at ``depth`` plies below (p, o), the side to move owning ``p``."""
    if depth == 0:
        return 1
    moves = legal_moves(p, o, mask)
    if depth == 1:
        # No move is one leaf either way: a pass ply, or a finished game.
        return max(int(popcount(moves)), 1)
    if moves == 0:
        if legal_moves(o, p, mask) == 0:
            return 1
        return perft_kernel(o, p, mask, depth - 1)
    total = 0
    while moves:
        sq = int(lowest_square(moves))
        moves &= moves - U1
        np_, no_ = play(p, o, sq)
        total += perft_kernel(np_, no_, mask, depth - 1)
    return total


def perft(board: object, depth: int) -> int:
    """Perft of a :class:`~bitflip.core.board.Board` to ``depth`` plies (convention A)."""
    if not isinstance(board, Board):
        raise TypeError("perft takes a Board")
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, not {depth}")
    p, o = board.side_bitboards()
    return int(perft_kernel(np.uint64(p), np.uint64(o), np.uint64(board.geometry.mask), depth))
