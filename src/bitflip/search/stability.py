"""Cheap bounds and ordering terms of the endgame solver: stable discs, potential mobility.

Edax's stability cutoff: the opponent's discs that can never be flipped cap the side to
move's best final score, so a node whose window lies above that cap is cut unsearched.
"""

from __future__ import annotations

import numpy as np

from bitflip.core.bitboard import NOT_A, NOT_H, popcount
from bitflip.core.jit import kernel
from bitflip.search.ordering import CORNERS

COL_A = np.uint64(0x0101010101010101)
COL_H = np.uint64(0x8080808080808080)
ROW_1 = np.uint64(0x00000000000000FF)
ROW_8 = np.uint64(0xFF00000000000000)
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
        h = full_h | ((b << _S1) & NOT_A) | COL_A | ((b >> _S1) & NOT_H) | COL_H
        v = full_v | (b << _S8) | ROW_1 | (b >> _S8) | ROW_8
        d1 = full_d1 | ((b << _S9) & NOT_A) | COL_A | ROW_1
        d1 |= ((b >> _S9) & NOT_H) | COL_H | ROW_8
        d7 = full_d7 | ((b << _S7) & NOT_H) | COL_H | ROW_1
        d7 |= ((b >> _S7) & NOT_A) | COL_A | ROW_8
        new = p & h & v & d1 & d7
        if new == stable:
            return stable
        stable = new


@kernel()
def potential_mobility(p: np.uint64, o: np.uint64, mask: np.uint64) -> int:
    """Empty squares next to an opponent disc: where the side to move might play later."""
    e = mask & ~(p | o)
    x = ((o << _S1) & NOT_A) | ((o >> _S1) & NOT_H) | (o << _S8) | (o >> _S8)
    x |= ((o << _S9) & NOT_A) | ((o >> _S9) & NOT_H) | ((o << _S7) & NOT_H) | ((o >> _S7) & NOT_A)
    return int(popcount(x & e))


_CORNER_NEIGH = np.uint64(0x42C300000000C342)


@kernel()
def corner_stability(x: np.uint64) -> int:
    """Discs of ``x`` on a corner or beside an owned corner along an edge (a cheap stability)."""
    c = x & CORNERS
    n = ((c >> _S1) | (c << _S1) | (c >> _S8) | (c << _S8)) & x & _CORNER_NEIGH
    return int(popcount(c) + popcount(n))
