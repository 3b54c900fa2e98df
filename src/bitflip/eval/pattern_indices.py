"""Pattern indices kept up to date move by move, as Logistello and Edax do in their search.

:func:`bitflip.eval.patterns.patterns_score` gathers the 46 base-3 indices from the bitboards
at every call. A search knows which squares each move changes, so it can instead carry the
indices down the tree: playing a move adds a precomputed power of 3 for the new disc and for
each flipped disc to the instances that contain them, and the evaluation is then only the 46
table reads. The midgame search does this (:mod:`bitflip.search.alphabeta`); every other
caller of ``evaluate`` sees one position at a time and gathers.

A search keeps one row of ``uint16[ROW]`` per ply: the first half holds the indices read from
the side to move's view (digit 1 = its disc, 2 = the opponent's), the second half the same
squares read from the opponent's view. After a move the opponent is to move, so the child's
first half is the parent's second half updated, and the other way round; a pass swaps the
halves. Instances are stored in :data:`~bitflip.eval.patterns.SUM_ORDER`, so the score is the
same float, bit for bit, as the gathered evaluation.
"""

from __future__ import annotations

import numpy as np

from bitflip.core.bitboard import U1, lowest_square, popcount
from bitflip.core.jit import kernel
from bitflip.eval.patterns import (
    FOLDED_FEATURES,
    HEADER,
    INST_LEN,
    INST_OFFSET,
    INST_SQUARES,
    MAX_EMPTIES,
    SUM_ORDER,
    features_sum,
)

N_INST = len(SUM_ORDER)
WIDTH = 48
"""Slots per half row: the 46 instances, padded so the update loops vectorise evenly."""
ROW = 2 * WIDTH
"""Slots in one ply's row: side to move's view, then the opponent's."""


def _square_powers() -> np.ndarray:
    # SQUARE_POWERS[sq, i]: 3**k if square sq is digit k of instance i (in sum order), else 0.
    out = np.zeros((64, WIDTH), dtype=np.uint16)
    for i, inst in enumerate(SUM_ORDER):
        for k in range(int(INST_LEN[inst])):
            out[int(INST_SQUARES[inst, k]), i] = 3**k
    return out


SQUARE_POWERS = _square_powers()
"""``uint16[64, WIDTH]``: what a disc of the side to move on a square adds to each index
(3**10 - 1, the largest index, fits in 16 bits)."""
TWICE_POWERS = (2 * SQUARE_POWERS).astype(np.uint16)
"""What a disc of the opponent adds."""
MINUS_POWERS = (-SQUARE_POWERS.astype(np.int64)).astype(np.uint16)
"""Minus :data:`SQUARE_POWERS` modulo 2**16: adding it to a uint16 index subtracts."""
TABLE_OFFSET = np.concatenate([INST_OFFSET[SUM_ORDER], np.zeros(WIDTH - N_INST, dtype=np.int64)])
"""Folded table offset (within a phase block) of each instance, in sum order."""


@kernel()
def _add_discs(
    discs: np.uint64, first: np.ndarray, second: np.ndarray, rows: np.ndarray, ply: int
) -> None:
    # Each disc adds its ``first`` powers to the first half of the row, ``second`` to the other.
    m = discs
    while m:
        sq = lowest_square(m)
        m &= m - U1
        for i in range(WIDTH):
            rows[ply, i] += first[sq, i]
            rows[ply, WIDTH + i] += second[sq, i]


@kernel()
def set_indices(p: np.uint64, o: np.uint64, rows: np.ndarray, ply: int) -> None:
    """Fill ``rows[ply]`` with the indices of (p, o), p to move."""
    for i in range(ROW):
        rows[ply, i] = 0
    _add_discs(p, SQUARE_POWERS, TWICE_POWERS, rows, ply)
    _add_discs(o, TWICE_POWERS, SQUARE_POWERS, rows, ply)


@kernel()
def play_indices(rows: np.ndarray, ply: int, sq: int, flipped: np.uint64) -> None:
    """``rows[ply + 1]`` = the indices after the side to move at ``ply`` plays ``sq``.

    ``flipped`` is the move's flip mask. In the child, the mover is the opponent: the new disc
    is digit 2 of its own view and digit 1 of the other, and each flipped disc goes from 1 to 2
    in the child's own view and from 2 to 1 in the other. Each loop runs over a whole half row
    of uint16, which the compiler turns into a few vector instructions.
    """
    child = ply + 1
    for i in range(WIDTH):
        rows[child, i] = rows[ply, WIDTH + i] + TWICE_POWERS[sq, i]
        rows[child, WIDTH + i] = rows[ply, i] + SQUARE_POWERS[sq, i]
    _add_discs(flipped, SQUARE_POWERS, MINUS_POWERS, rows, child)


@kernel()
def pass_indices(rows: np.ndarray, ply: int) -> None:
    """``rows[ply + 1]`` = the indices after the side to move at ``ply`` passes."""
    for i in range(WIDTH):
        rows[ply + 1, i] = rows[ply, WIDTH + i]
        rows[ply + 1, WIDTH + i] = rows[ply, i]


@kernel()
def indexed_patterns_score(
    p: np.uint64,
    o: np.uint64,
    mask: np.uint64,
    w: np.ndarray,
    rows: np.ndarray,
    ply: int,
    moves: np.uint64,
) -> float:
    """:func:`~bitflip.eval.patterns.patterns_score` of (p, o), whose indices are ``rows[ply]``
    and whose legal moves the caller already has (``moves``: the search needs them anyway)."""
    empties = popcount(mask & ~(p | o))
    base = HEADER + int(w[empties]) * int(w[MAX_EMPTIES + 1])
    s = 0.0
    for i in range(N_INST):
        s += w[base + TABLE_OFFSET[i] + rows[ply, i]]
    return float(w[base] + s + features_sum(p, o, mask, moves, w, base + FOLDED_FEATURES))
