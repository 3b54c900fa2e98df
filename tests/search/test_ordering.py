"""The move-ordering helpers the midgame search and the solver share (search.ordering)."""

from __future__ import annotations

import numpy as np

from bitflip.core.bitboard import popcount
from bitflip.search.ordering import QUADRANTS, odd_regions, pick_next


def test_the_quadrants_split_the_board() -> None:
    union = np.uint64(0)
    for q in QUADRANTS:
        assert popcount(q) == 16 and union & q == 0
        union |= q
    assert union == np.uint64(0xFFFFFFFFFFFFFFFF)


def test_odd_regions_are_the_quadrants_with_an_odd_count_of_empties() -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        empties = np.uint64(int(rng.integers(0, 2**63)) | (int(rng.integers(0, 2)) << 63))
        expected = np.uint64(0)
        for q in QUADRANTS:
            if popcount(empties & q) % 2:
                expected |= q
        assert odd_regions(empties) == expected
    assert odd_regions(np.uint64(0)) == 0


def test_pick_next_sorts_by_score_one_step_at_a_time() -> None:
    moves = np.array([10, 20, 30, 40, 50], np.int64)
    scores = np.array([3, 9, 1, 9, 5], np.int64)
    order = [pick_next(moves, scores, i, 5) for i in range(5)]
    assert order == [20, 40, 50, 10, 30]  # best first; of equal scores the earlier one
    assert list(scores) == [9, 9, 5, 3, 1]  # the scores moved with their moves
    # Only the part from ``start`` on is looked at.
    moves, scores = np.array([1, 2, 3], np.int64), np.array([0, 5, 7], np.int64)
    assert pick_next(moves, scores, 1, 2) == 2 and list(moves) == [1, 2, 3]
