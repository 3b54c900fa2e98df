"""Differential tests: the numba kernels against the slow mailbox reference."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bitflip.core import bitboard as bb
from bitflip.core._reference import ReferenceBoard
from bitflip.core.geometry import geometry


def to_reference(p: int, o: int, size: int) -> ReferenceBoard:
    def cells(x: int) -> set[tuple[int, int]]:
        return {(sq // 8, sq % 8) for sq in range(64) if x >> sq & 1}

    return ReferenceBoard(size, cells(p), cells(o))


def random_game_positions(size: int, seed: int) -> list[tuple[int, int]]:
    """Every position (side to move first) of one random game, checking the kernels on the way."""
    rng = random.Random(seed)
    g = geometry(size)
    p, o = g.start_position()
    ref = to_reference(p, o, size)
    mask = np.uint64(g.mask)
    out = []
    while True:
        out.append((p, o))
        moves = int(bb.legal_moves(np.uint64(p), np.uint64(o), mask))
        ref_moves = ref.moves()
        assert moves == sum(1 << (8 * r + c) for r, c in ref_moves)
        if not ref_moves:
            if ref.game_over():
                assert int(bb.legal_moves(np.uint64(o), np.uint64(p), mask)) == 0
                return out
            p, o, ref = o, p, ref.passed()
            continue
        r, c = rng.choice(ref_moves)
        sq = 8 * r + c
        f = int(bb.flips(np.uint64(p), np.uint64(o), sq))
        assert f == sum(1 << (8 * rr + cc) for rr, cc in ref.flips(r, c))
        np_, no = bb.play(np.uint64(p), np.uint64(o), sq)
        ref = ref.play(r, c)
        p, o = int(np_), int(no)
        assert (p, o) == (
            sum(1 << (8 * rr + cc) for rr, cc in ref.player),
            sum(1 << (8 * rr + cc) for rr, cc in ref.opponent),
        )


@pytest.mark.parametrize("size", [4, 6, 8])
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=25, deadline=None)
def test_random_games_match_reference(size: int, seed: int) -> None:
    positions = random_game_positions(size, seed)
    assert len(positions) >= 5


@given(p=st.integers(0, 2**64 - 1), o=st.integers(0, 2**64 - 1))
@settings(max_examples=300, deadline=None)
def test_arbitrary_positions_match_reference(p: int, o: int) -> None:
    o &= ~p
    for size in (6, 8):
        mask = geometry(size).mask
        pp, oo = p & mask, o & mask
        ref = to_reference(pp, oo, size)
        moves = int(bb.legal_moves(np.uint64(pp), np.uint64(oo), np.uint64(mask)))
        assert moves == sum(1 << (8 * r + c) for r, c in ref.moves())
        for r, c in ref.moves()[:4]:
            f = int(bb.flips(np.uint64(pp), np.uint64(oo), 8 * r + c))
            assert f == sum(1 << (8 * rr + cc) for rr, cc in ref.flips(r, c))


def _apply(sym: int, r: int, c: int, n: int) -> tuple[int, int]:
    if sym & 4:
        r, c = c, r
    if sym & 2:
        r = n - 1 - r
    if sym & 1:
        c = n - 1 - c
    return r, c


@pytest.mark.parametrize("size", [4, 6, 8])
@pytest.mark.parametrize("sym", range(8))
def test_symmetries_move_squares_as_defined(size: int, sym: int) -> None:
    for r in range(size):
        for c in range(size):
            x = np.uint64(1 << (8 * r + c))
            rr, cc = _apply(sym, r, c, size)
            assert int(bb.transform(x, sym, size)) == 1 << (8 * rr + cc)
            back = bb.transform(
                np.uint64(bb.transform(x, sym, size)), bb.SYMMETRY_INVERSE[sym], size
            )
            assert int(back) == int(x)


def test_popcount_and_lowest_square() -> None:
    for x in (1, 2**63, 0xF0F0, 2**64 - 1):
        assert bb.popcount(np.uint64(x)) == bin(x).count("1")
        assert bb.lowest_square(np.uint64(x)) == (x & -x).bit_length() - 1
    assert bb.popcount(np.uint64(0)) == 0


def test_final_margin_gives_the_empties_to_the_winner() -> None:
    from bitflip.core.bitboard import FULL, final_margin, margin_with_empties

    p, o = np.uint64(0xFF), np.uint64(0xF00)  # 8 against 4, 52 empties
    assert final_margin(p, o, FULL) == 8 - 4 + 52
    assert final_margin(o, p, FULL) == -(8 - 4 + 52)
    assert final_margin(p, p, FULL) == 0
    assert margin_with_empties(0, 10) == 0
    assert margin_with_empties(-3, 10) == -13
