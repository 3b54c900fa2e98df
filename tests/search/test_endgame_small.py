"""The solver's last empties: flip counts by lines, and every small-empties kernel exact."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bitflip.core import bitboard as bb
from bitflip.search.control import NODES, new_control
from bitflip.search.endgame_small import SMALL_EMPTIES, _count_last_flips, solve_small

from ._exact import assert_fail_soft, brute_force, random_discs


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
    p, o, mask = random_discs(rng, size, empties, [0.05, 0.5, 0.95])
    expected = brute_force(p, o, mask)
    alpha = expected + window[0] - window[1] // 2
    beta = alpha + window[1]
    empty = np.uint64(mask & ~(p | o))
    ctl = new_control()
    v = solve_small(np.uint64(p), np.uint64(o), alpha, beta, np.uint64(mask), empty, empties, ctl)
    assert ctl[NODES] >= 1
    assert_fail_soft(v, alpha, beta, expected)
