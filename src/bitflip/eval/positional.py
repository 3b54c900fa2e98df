"""The classic disc-square table, for any board size."""

from __future__ import annotations

import numpy as np

from bitflip.core.bitboard import U1, lowest_square
from bitflip.core.jit import kernel

# The well-known 8x8 table (corners 100, X-squares -50, C-squares -20, ...).
_TABLE_8 = (
    (100, -20, 10, 5, 5, 10, -20, 100),
    (-20, -50, -2, -2, -2, -2, -50, -20),
    (10, -2, -1, -1, -1, -1, -2, 10),
    (5, -2, -1, -1, -1, -1, -2, 5),
    (5, -2, -1, -1, -1, -1, -2, 5),
    (10, -2, -1, -1, -1, -1, -2, 10),
    (-20, -50, -2, -2, -2, -2, -50, -20),
    (100, -20, 10, 5, 5, 10, -20, 100),
)


def disc_square_table(size: int = 8) -> np.ndarray:
    """Weights of the 64 squares (0 off the board) for a ``size x size`` board.

    Smaller boards keep the roles of the squares: corners, C- and X-squares, edges, inner ring.
    """
    table = np.zeros(64, dtype=np.int64)
    for r in range(size):
        for c in range(size):
            # Map a coordinate to the 8x8 one with the same role: 0 and 1 from the edge keep their
            # distance, the middle of a smaller board takes the 8x8 middle values.
            def role(i: int) -> int:
                d = min(i, size - 1 - i)
                return d if d < 2 else min(d, 3)

            table[8 * r + c] = _TABLE_8[role(r)][role(c)]
    return table


TABLES = np.stack(
    [disc_square_table(s) if s in (4, 6, 8) else np.zeros(64, np.int64) for s in range(9)]
)
"""``TABLES[size]`` is the table of that size (rows 4, 6 and 8 are filled)."""


@kernel()
def disc_square_score(p: np.uint64, o: np.uint64, table: np.ndarray) -> int:
    """Sum of the table over p's discs minus over o's."""
    score = 0
    x = p
    while x:
        sq = lowest_square(x)
        score += table[sq]
        x &= x - U1
    x = o
    while x:
        sq = lowest_square(x)
        score -= table[sq]
        x &= x - U1
    return score
