"""The disc-square table of every board size, and its score."""

from __future__ import annotations

import numpy as np
import pytest

from bitflip.core.board import Board
from bitflip.eval.positional import TABLES, disc_square_score, disc_square_table


@pytest.mark.parametrize("size", [4, 6, 8])
def test_squares_keep_their_roles_on_every_size(size: int) -> None:
    t = disc_square_table(size)
    grid = t.reshape(8, 8)[:size, :size]
    assert not t.reshape(8, 8)[size:, :].any() and not t.reshape(8, 8)[:, size:].any()
    for k in range(4):  # the 8 symmetries of the square
        assert np.array_equal(np.rot90(grid, k), grid)
        assert np.array_equal(np.rot90(grid, k).T, grid)
    last = size - 1
    assert grid[0, 0] == grid[last, last] == 100  # corners
    assert grid[1, 1] == -50 and grid[0, 1] == -20  # X- and C-squares
    assert np.array_equal(TABLES[size], t)


def test_score_is_the_sum_of_own_squares_minus_the_opponents() -> None:
    table = disc_square_table(8)
    b = Board()
    for move in ("f5", "d6", "c3", "d3", "c4"):
        b.push(b.geometry.parse_square(move))
    p, o = b.side_bitboards()
    own = sum(int(table[sq]) for sq in range(64) if p >> sq & 1)
    theirs = sum(int(table[sq]) for sq in range(64) if o >> sq & 1)
    score = disc_square_score(np.uint64(p), np.uint64(o), table)
    assert score == own - theirs != 0
    assert disc_square_score(np.uint64(o), np.uint64(p), table) == -score
