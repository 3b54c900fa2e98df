"""The exact score of tiny endgames by plain negamax, random disc layouts, and the fail-soft
check of a windowed search: shared by the endgame solver's tests."""

from __future__ import annotations

import numpy as np
from numba import njit

from bitflip.core import bitboard as bb
from bitflip.core.board import Board


@njit(cache=False)
def _brute(p: np.uint64, o: np.uint64, mask: np.uint64) -> int:
    moves = bb.legal_moves(p, o, mask)
    if moves == 0:
        if bb.legal_moves(o, p, mask) == 0:
            return bb.final_margin(p, o, mask)
        return -_brute(o, p, mask)
    best = -1000
    while moves:
        sq = bb.lowest_square(moves)
        moves &= moves - bb.U1
        q, r = bb.play(p, o, sq)
        best = max(best, -_brute(q, r, mask))
    return best


def brute_force(p: int, o: int, mask: int) -> int:
    """Plain negamax to the end of the game: the obviously-correct exact score."""
    return int(_brute(np.uint64(p), np.uint64(o), np.uint64(mask)))


def random_discs(
    rng: np.random.Generator, size: int, empties: int, shares: list[float]
) -> tuple[int, int, int]:
    """``(p, o, mask)``: random discs (not from a game) on all but ``empties`` squares, the
    side to move holding a share drawn from ``shares`` (lopsided boards: passes, wipe-outs)."""
    mask = Board(size=size).geometry.mask
    squares = [sq for sq in range(64) if mask >> sq & 1]
    rng.shuffle(squares)
    share = rng.choice(shares)
    p = o = 0
    for sq in squares[empties:]:
        if rng.random() < share:
            p |= 1 << sq
        else:
            o |= 1 << sq
    return p, o, mask


def assert_fail_soft(v: int, alpha: int, beta: int, expected: int) -> None:
    """A window search's value: a bound outside (alpha, beta), the exact score inside it."""
    if v <= alpha:
        assert expected <= v
    elif v >= beta:
        assert expected >= v
    else:
        assert v == expected
