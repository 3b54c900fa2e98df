"""The bitboard kernels over arrays of positions: one numba call for a whole batch.

Training data, networks and self-play hold positions as parallel uint64 arrays (side to move,
other side); these are the batched forms of :mod:`bitflip.core.bitboard` they share.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitflip.core.bitboard import legal_moves, play, popcount, random_square, transform
from bitflip.core.geometry import PASS


@njit(cache=True)
def legal_moves_many(p: np.ndarray, o: np.ndarray, mask: np.uint64) -> np.ndarray:
    """``legal_moves(p[i], o[i], mask)`` for every i."""
    out = np.empty_like(p)
    for i in range(len(p)):
        out[i] = legal_moves(p[i], o[i], mask)
    return out


@njit(cache=True)
def empties_many(p: np.ndarray, o: np.ndarray, mask: np.uint64) -> np.ndarray:
    """Empty squares of the board ``mask`` in every position (int64)."""
    out = np.zeros(p.shape[0], dtype=np.int64)
    for i in range(p.shape[0]):
        out[i] = popcount(mask & ~(p[i] | o[i]))
    return out


@njit(cache=True)
def transform_many(x: np.ndarray, syms: np.ndarray, size: int = 8) -> np.ndarray:
    """``transform(x[i], syms[i], size)`` for every i."""
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = transform(x[i], syms[i], size)
    return out


def symmetry_square_table(size: int = 8) -> np.ndarray:
    """``table[s, sq]``: where symmetry s sends square sq, shape (8, 64), int64.

    Only the entries of squares on the ``size`` board are meaningful.
    """
    table = np.zeros((8, 64), dtype=np.int64)
    for s in range(8):
        for sq in range(64):
            t = int(transform(np.uint64(1 << sq), s, size))
            table[s, sq] = t.bit_length() - 1
    return table


@njit(cache=True)
def random_moves(legal: np.ndarray, seed: int) -> np.ndarray:
    """A uniformly random move of every position's legal-move set (PASS where it is 0).

    Seeds numba's ``np.random`` with ``seed`` first, so a seed gives the same moves everywhere.
    """
    np.random.seed(seed)
    out = np.empty(legal.shape[0], np.int64)
    for i in range(legal.shape[0]):
        out[i] = PASS if legal[i] == 0 else random_square(legal[i])
    return out


@njit(cache=True)
def play_many(p: np.ndarray, o: np.ndarray, moves: np.ndarray, which: np.ndarray) -> None:
    """Play ``moves[i]`` (a square or PASS) in place on every position where ``which[i]``.

    Each played position is left seen from its new side to move, like :func:`play`.
    """
    for i in range(p.shape[0]):
        if not which[i]:
            continue
        if moves[i] == PASS:
            p[i], o[i] = o[i], p[i]
        else:
            p[i], o[i] = play(p[i], o[i], moves[i])
