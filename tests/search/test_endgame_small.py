"""The solver's last empties: flip counts by lines, and every small-empties kernel exact."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bitflip.core import bitboard as bb
from bitflip.core.board import Board
from bitflip.search.control import NODES, new_control
from bitflip.search.endgame_small import SMALL_EMPTIES, _count_last_flips, solve_small


def brute(p: int, o: int, mask: int) -> int:
    """Plain negamax to the end in Python: the obviously-correct score."""
    up, uo, um = np.uint64(p), np.uint64(o), np.uint64(mask)
    moves = int(bb.legal_moves(up, uo, um))
    if moves == 0:
        if int(bb.legal_moves(uo, up, um)) == 0:
            return int(bb.final_margin(up, uo, um))
        return -brute(o, p, mask)
    best = -1000
    for sq in range(64):
        if moves >> sq & 1:
            q, r = bb.play(up, uo, sq)
            best = max(best, -brute(int(q), int(r), mask))
    return best


@settings(max_examples=200, deadline=None)
@given(discs=st.integers(0, 2**64 - 1), sq=st.integers(0, 63))
def test_last_flip_count_matches_the_flips(discs: int, sq: int) -> None:
    p = discs & ~(1 << sq)
    o = (2**64 - 1) & ~p & ~(1 << sq)
    n = bin(int(bb.flips(np.uint64(p), np.uint64(o), sq))).count("1")
    assert _count_last_flips(np.uint64(p), sq) == n


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.sampled_from([6, 8]),
    empties=st.integers(0, SMALL_EMPTIES),
    window=st.tuples(st.integers(-6, 6), st.integers(1, 8)),
)
def test_small_empties_solve_exactly_within_any_window(
    seed: int, size: int, empties: int, window: tuple[int, int]
) -> None:
    # Random discs (not from a game): passes and wipe-outs are common, the cases written out.
    rng = np.random.default_rng(seed)
    mask = Board(size=size).geometry.mask
    squares = [sq for sq in range(64) if mask >> sq & 1]
    rng.shuffle(squares)
    share = rng.choice([0.05, 0.5, 0.95])
    p = o = 0
    for sq in squares[empties:]:
        if rng.random() < share:
            p |= 1 << sq
        else:
            o |= 1 << sq
    expected = brute(p, o, mask)
    alpha = expected + window[0] - window[1] // 2
    beta = alpha + window[1]
    empty = np.uint64(mask & ~(p | o))
    ctl = new_control()
    v = solve_small(np.uint64(p), np.uint64(o), alpha, beta, np.uint64(mask), empty, empties, ctl)
    assert ctl[NODES] >= 1
    if v <= alpha:
        assert expected <= v
    elif v >= beta:
        assert expected >= v
    else:
        assert v == expected
