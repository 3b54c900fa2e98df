"""Hand-made evaluation features of the field, as numba kernels on (p, o, mask) bitboards.

Every feature is a difference "side to move minus opponent" (so a position and its colour swap
give opposite values) and is invariant under the 8 symmetries of the board. They serve the
hand-weighted ``features`` evaluation here, the FIREBRAND features and the pattern evaluation.

Board sizes: every kernel takes the valid-square ``mask`` (8x8, 6x6, 4x4 in the top-left
corner); off-board squares count as "edge" for stability.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitflip.core.bitboard import NOT_A, NOT_H, U0, legal_moves, popcount
from bitflip.core.jit import kernel
from bitflip.eval.positional import TABLES, disc_square_score

_S1 = np.uint64(1)
_S7 = np.uint64(7)
_S8 = np.uint64(8)
_S9 = np.uint64(9)

FILE_A = np.uint64(0x0101010101010101)
FILE_H = np.uint64(0x8080808080808080)
RANK_1 = np.uint64(0x00000000000000FF)
RANK_8 = np.uint64(0xFF00000000000000)


def _size_masks() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    # Per board size (index = size): corners, X-squares, C-squares, and for each corner the
    # X- and C-squares that touch it (rows 0-3 = the four corners).
    corners = np.zeros(9, dtype=np.uint64)
    xsq = np.zeros(9, dtype=np.uint64)
    csq = np.zeros(9, dtype=np.uint64)
    per_corner = np.zeros((9, 4, 3), dtype=np.uint64)  # corner, its X, its Cs
    for s in (4, 6, 8):
        for k, (r, c) in enumerate(((0, 0), (0, s - 1), (s - 1, 0), (s - 1, s - 1))):
            dr = 1 if r == 0 else -1
            dc = 1 if c == 0 else -1
            cb = 1 << (8 * r + c)
            xb = 1 << (8 * (r + dr) + c + dc)
            cs = (1 << (8 * r + c + dc)) | (1 << (8 * (r + dr) + c))
            corners[s] |= np.uint64(cb)
            xsq[s] |= np.uint64(xb)
            csq[s] |= np.uint64(cs)
            per_corner[s, k] = (np.uint64(cb), np.uint64(xb), np.uint64(cs))
    return corners, xsq, csq, per_corner


CORNERS, X_SQUARES, C_SQUARES, CORNER_NEIGHBOURS = _size_masks()
"""Indexed by board size: masks of the corners, X-squares and C-squares."""

FEATURE_NAMES: tuple[str, ...] = (
    "discs",
    "mobility",
    "potential_mobility",
    "frontier",
    "corners",
    "x_squares",
    "c_squares",
    "stable",
    "parity",
    "disc_square",
)
"""The features of :func:`feature_vector`, in order."""
NUM_FEATURES = len(FEATURE_NAMES)


@njit(cache=True)
def board_size(mask: np.uint64) -> int:
    """8, 6 or 4 from a board mask."""
    n = popcount(mask)
    if n == 64:
        return 8
    if n == 36:
        return 6
    return 4


@njit(cache=True)
def neighbours(x: np.uint64, mask: np.uint64) -> np.uint64:
    """Squares of the board adjacent (8 directions) to a square of ``x``, and ``x`` itself:
    every caller intersects it with squares outside ``x`` (empties, the other side's discs),
    and the 3x3 block is half the work of eight separate shifts (the evaluation reads it at
    every leaf)."""
    row = x | ((x << _S1) & NOT_A) | ((x >> _S1) & NOT_H)
    return (row | (row << _S8) | (row >> _S8)) & mask


@njit(cache=True)
def frontier(p: np.uint64, o: np.uint64, mask: np.uint64) -> np.uint64:
    """Discs of ``p`` next to an empty square."""
    return p & neighbours(mask & ~(p | o), mask)


@njit(cache=True)
def potential_mobility(p: np.uint64, o: np.uint64, mask: np.uint64) -> np.uint64:
    """Empty squares next to an opponent disc: where ``p`` may get moves later."""
    return mask & ~(p | o) & neighbours(o, mask)


@njit(cache=True)
def _line_fill(e: np.uint64, mask: np.uint64, axis: int) -> np.uint64:
    # Every square sharing a line (along one axis) with a square of e.
    for _ in range(7):
        if axis == 0:
            e |= ((e << _S1) & NOT_A) | ((e >> _S1) & NOT_H)
        elif axis == 1:
            e |= (e << _S8) | (e >> _S8)
        elif axis == 2:
            e |= ((e << _S9) & NOT_A) | ((e >> _S9) & NOT_H)
        else:
            e |= ((e << _S7) & NOT_H) | ((e >> _S7) & NOT_A)
        e &= mask
    return e


@njit(cache=True)
def full_lines(
    p: np.uint64, o: np.uint64, mask: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """Occupied squares whose whole line is full: horizontal, vertical, a1-h8 and h1-a8 axes."""
    occ = p | o
    empty = mask & ~occ
    return (
        occ & ~_line_fill(empty, mask, 0),
        occ & ~_line_fill(empty, mask, 1),
        occ & ~_line_fill(empty, mask, 2),
        occ & ~_line_fill(empty, mask, 3),
    )


@njit(cache=True)
def _stable_of(
    p: np.uint64,
    mask: np.uint64,
    fh: np.uint64,
    fv: np.uint64,
    fd9: np.uint64,
    fd7: np.uint64,
) -> np.uint64:
    # A disc is stable when on each of the 4 axes its line is full, or one of its two neighbours
    # on that axis is off the board or a stable disc of its own colour: no line can then bracket
    # it. Grown from nothing until it stops changing (corners come in first).
    s = U0
    while True:
        e = s | ~mask
        h = fh | ((e << _S1) & NOT_A) | FILE_A | ((e >> _S1) & NOT_H) | FILE_H
        v = fv | (e << _S8) | RANK_1 | (e >> _S8) | RANK_8
        d9 = fd9 | ((e << _S9) & NOT_A) | FILE_A | RANK_1 | ((e >> _S9) & NOT_H) | FILE_H | RANK_8
        d7 = fd7 | ((e << _S7) & NOT_H) | FILE_H | RANK_1 | ((e >> _S7) & NOT_A) | FILE_A | RANK_8
        n = p & h & v & d9 & d7
        if n == s:
            return s
        s = n


@njit(cache=True)
def stable_discs(p: np.uint64, o: np.uint64, mask: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Discs of p and of o that can never be flipped (a sound lower bound, edge-anchored)."""
    fh, fv, fd9, fd7 = full_lines(p, o, mask)
    return _stable_of(p, mask, fh, fv, fd9, fd7), _stable_of(o, mask, fh, fv, fd9, fd7)


@njit(cache=True)
def corner_features(p: np.uint64, o: np.uint64, mask: np.uint64) -> tuple[int, int, int]:
    """(corners, X-squares, C-squares) differences; X and C count only next to an empty corner."""
    size = board_size(mask)
    corners = int(popcount(p & CORNERS[size]) - popcount(o & CORNERS[size]))
    x = 0
    c = 0
    occ = p | o
    for k in range(4):
        if CORNER_NEIGHBOURS[size, k, 0] & occ:
            continue
        xs = CORNER_NEIGHBOURS[size, k, 1]
        cs = CORNER_NEIGHBOURS[size, k, 2]
        x += int(popcount(p & xs) - popcount(o & xs))
        c += int(popcount(p & cs) - popcount(o & cs))
    return corners, x, c


@njit(cache=True)
def game_progress(p: np.uint64, o: np.uint64, mask: np.uint64) -> float:
    """0.0 at the start position, 1.0 on a full board."""
    squares = popcount(mask)
    return (popcount(p | o) - 4) / (squares - 4)


@njit(cache=True)
def _features(
    p: np.uint64, o: np.uint64, mask: np.uint64
) -> tuple[float, float, float, float, float, float, float, float, float, float]:
    # The features as a tuple: no allocation, so evaluation stays cheap inside search.
    empty = mask & ~(p | o)
    discs = popcount(p) - popcount(o)
    mob = popcount(legal_moves(p, o, mask)) - popcount(legal_moves(o, p, mask))
    pot = popcount(potential_mobility(p, o, mask)) - popcount(potential_mobility(o, p, mask))
    front = popcount(frontier(p, o, mask)) - popcount(frontier(o, p, mask))
    corners, x, c = corner_features(p, o, mask)
    sp, so = stable_discs(p, o, mask)
    stable = popcount(sp) - popcount(so)
    parity = 1.0 if popcount(empty) & 1 else -1.0
    dsq = disc_square_score(p, o, TABLES[board_size(mask)]) / 100.0
    return (
        float(discs),
        float(mob),
        float(pot),
        float(front),
        float(corners),
        float(x),
        float(c),
        float(stable),
        parity,
        dsq,
    )


@njit(cache=True)
def feature_vector(p: np.uint64, o: np.uint64, mask: np.uint64) -> np.ndarray:
    """The :data:`FEATURE_NAMES` features of (p, o) as float64, side to move's view.

    Parity is +1 when the number of empties is odd (the side to move would get the last move
    if nobody passes), -1 when even.
    """
    f = _features(p, o, mask)
    out = np.empty(NUM_FEATURES, dtype=np.float64)
    for i in range(NUM_FEATURES):
        out[i] = f[i]
    return out


# Weights in discs at the opening (t = 0) and at the end (t = 1), linear in between. First set
# by hand, then calibrated by least squares (bitflip.learn.linear_fit.fit_features, 400,000
# positions of WTHOR 1977-2022, targets as in configs/patterns.toml) and rounded: held-out MAE on
# WTH_2023 fell from 20.5 to 16.8 discs. Early on the disc-square term carries the corners
# (15.6 * 1.0 per corner); late, corners, parity and mobility take over.
FEATURE_WEIGHTS_OPENING = np.array([0.01, 1.36, -0.09, -1.64, -1.98, -1.92, 0.52, 1.83, -0.8, 15.6])
FEATURE_WEIGHTS_ENDING = np.array([0.22, 2.21, -0.22, -1.05, 3.55, -2.42, -0.8, 0.66, 1.54, -3.0])


def default_feature_weights() -> np.ndarray:
    """The weight vector of the ``features`` evaluation: opening weights, then ending ones."""
    return np.concatenate([FEATURE_WEIGHTS_OPENING, FEATURE_WEIGHTS_ENDING]).astype(np.float64)


@kernel()
def features_score(p: np.uint64, o: np.uint64, mask: np.uint64, w: np.ndarray) -> float:
    """Phase-weighted sum of the features, in discs: ``w[:N]`` at t = 0, ``w[N:2N]`` at t = 1."""
    f = _features(p, o, mask)
    t = game_progress(p, o, mask)
    s = 0.0
    for i in range(NUM_FEATURES):
        s += ((1.0 - t) * w[i] + t * w[NUM_FEATURES + i]) * f[i]
    return s
