"""Move ordering helpers shared by the midgame search and the endgame solver.

Good ordering is most of alpha-beta's speed: the best move first makes every other move a
cheap null-window refutation. The search combines, in this order of trust:

- the hash move (the best move stored in the transposition table);
- in the midgame, a shallow search of each child (at higher depths) or its static score;
- near the end, "fastest first": the move that leaves the opponent the fewest replies
  (corners counted double), and parity: first the moves in regions with an odd number of
  empty squares, so that we get the last move there.
"""

from __future__ import annotations

import numpy as np

from bitflip.core.bitboard import popcount
from bitflip.core.jit import kernel

QUADRANTS = np.array(
    [0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000],
    dtype=np.uint64,
)
"""The four 4x4 quadrants of the 8x8 board (the parity regions)."""
_Q0, _Q1, _Q2, _Q3 = QUADRANTS
"""The same as scalars, which numba compiles in as constants."""

CORNERS = np.uint64(0x8100000000000081)

HASH_MOVE_BONUS = 1 << 30


@kernel()
def odd_regions(empties: np.uint64) -> np.uint64:
    """The union of the quadrants holding an odd number of empty squares."""
    r = np.uint64(0)
    if popcount(empties & _Q0) & 1:
        r |= _Q0
    if popcount(empties & _Q1) & 1:
        r |= _Q1
    if popcount(empties & _Q2) & 1:
        r |= _Q2
    if popcount(empties & _Q3) & 1:
        r |= _Q3
    return r


@kernel()
def pick_next(moves: np.ndarray, scores: np.ndarray, start: int, n: int) -> int:
    """Swap the best-scored move of ``start..n-1`` to ``start`` (selection sort, one step)."""
    best = start
    for i in range(start + 1, n):
        if scores[i] > scores[best]:
            best = i
    if best != start:
        moves[start], moves[best] = moves[best], moves[start]
        scores[start], scores[best] = scores[best], scores[start]
    return int(moves[start])
