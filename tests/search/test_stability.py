"""Stable discs (the endgame's stability cutoff) and the full-line computation under it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bitflip.core.board import Board
from bitflip.search import stability as eg
from bitflip.search.stability import corner_stability, potential_mobility, stable_discs


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(20, 56))
def test_stable_discs_never_flip(seed: int, plies: int) -> None:
    rng = np.random.default_rng(seed)
    b = Board()
    for _ in range(plies):
        if b.is_game_over():
            return
        moves = list(b.legal_moves)
        b.push(moves[int(rng.integers(len(moves)))])
    mask = np.uint64(b.geometry.mask)
    sb = int(stable_discs(np.uint64(b.black), np.uint64(b.white), mask))
    sw = int(stable_discs(np.uint64(b.white), np.uint64(b.black), mask))
    assert sb & ~b.black == 0 and sw & ~b.white == 0
    while not b.is_game_over():
        moves = list(b.legal_moves)
        b.push(moves[int(rng.integers(len(moves)))])
        assert sb & b.black == sb and sw & b.white == sw


def test_corners_and_full_board_are_stable() -> None:
    full = Board("X" * 63 + "O X")
    mask = np.uint64(full.geometry.mask)
    assert int(stable_discs(np.uint64(full.black), np.uint64(full.white), mask)) == full.black
    b = Board("X" + "-" * 63 + " O")
    assert int(stable_discs(np.uint64(b.black), np.uint64(0), mask)) == 1


def _all_lines() -> np.ndarray:
    # Every row, column and diagonal of the 8x8 board, by axis: (4, 15) masks, unused = 0.
    out = np.zeros((4, 15), dtype=np.uint64)
    for r in range(8):
        out[0, r] = sum(1 << (8 * r + c) for c in range(8))
        out[1, r] = sum(1 << (8 * c + r) for c in range(8))
    for k in range(15):
        d1 = d7 = 0
        for r in range(8):
            c = k - 7 + r  # c - r = k - 7: a1-h8 direction
            if 0 <= c < 8:
                d1 |= 1 << (8 * r + c)
            c = k - r  # r + c = k: h1-a8 direction
            if 0 <= c < 8:
                d7 |= 1 << (8 * r + c)
        out[2, k] = d1
        out[3, k] = d7
    return out


def test_full_lines_by_doubling_match_the_line_list() -> None:
    rng = np.random.default_rng(4)
    steps = (np.uint64(1), np.uint64(8), np.uint64(9), np.uint64(7))
    edges = (eg._EDGES_1, eg._EDGES_8, eg._EDGES_9, eg._EDGES_7)
    lines = _all_lines()
    for _ in range(500):
        filled = np.uint64(int(rng.integers(0, 2**63)) | int(rng.integers(0, 2)) << 63)
        filled |= np.uint64(int(rng.integers(0, 2**63))) if rng.random() < 0.5 else np.uint64(0)
        for axis in range(4):
            want = 0
            for line in lines[axis]:
                if line and int(filled) & int(line) == int(line):
                    want |= int(line)
            assert int(eg._full_along(filled, steps[axis], edges[axis])) == want, axis


def test_potential_mobility_counts_empty_squares_beside_the_opponent() -> None:
    b = Board()
    p, o = (np.uint64(x) for x in b.side_bitboards())
    mask = np.uint64(b.geometry.mask)
    # Around the two opponent discs of the start: 10 empty squares (a 4x3 block less 2 discs).
    assert potential_mobility(p, o, mask) == 10
    assert potential_mobility(p, np.uint64(0), mask) == 0


def test_corner_stability_counts_corners_and_their_edge_neighbours() -> None:
    a1, b1, a2, b2 = (np.uint64(1 << sq) for sq in (0, 1, 8, 9))
    assert corner_stability(a1) == 1
    assert corner_stability(a1 | b1 | a2) == 3
    assert corner_stability(b1 | a2 | b2) == 0  # no corner: nothing anchored
