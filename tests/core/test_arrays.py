"""Batched kernels agree with the one-position kernels they repeat."""

from __future__ import annotations

import numpy as np

from bitflip.core import bitboard as bb
from bitflip.core.arrays import (
    empties_many,
    legal_moves_many,
    play_many,
    random_moves,
    symmetry_square_table,
    transform_many,
)
from bitflip.core.board import Board
from bitflip.core.geometry import PASS


def _positions(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    p, o = [], []
    for _ in range(n):
        b = Board()
        for _ in range(int(rng.integers(0, 50))):
            if b.is_game_over():
                break
            moves = list(b.legal_moves)
            b.push(moves[int(rng.integers(len(moves)))])
        sp, so = b.side_bitboards()
        p.append(sp)
        o.append(so)
    return np.array(p, np.uint64), np.array(o, np.uint64)


def test_batched_kernels_match_the_single_ones() -> None:
    p, o = _positions(60)
    legal = legal_moves_many(p, o, bb.FULL)
    syms = np.arange(60) % 8
    moved = transform_many(p, syms)
    empties = empties_many(p, o, bb.FULL)
    for i in range(60):
        assert legal[i] == bb.legal_moves(p[i], o[i], bb.FULL)
        assert moved[i] == bb.transform(p[i], int(syms[i]), 8)
        assert empties[i] == 64 - bb.popcount(p[i] | o[i])
    moves = random_moves(legal, 3)
    np.testing.assert_array_equal(moves, random_moves(legal, 3))  # seeded
    for i in range(60):
        assert moves[i] == PASS if legal[i] == 0 else (int(legal[i]) >> int(moves[i])) & 1
    after_p, after_o = p.copy(), o.copy()
    which = np.arange(60) % 2 == 0
    play_many(after_p, after_o, moves, which)
    for i in range(60):
        if not which[i]:
            expected = (p[i], o[i])
        elif moves[i] == PASS:
            expected = (o[i], p[i])
        else:
            expected = bb.play(p[i], o[i], int(moves[i]))
        assert (after_p[i], after_o[i]) == expected


def test_symmetry_square_table_follows_transform() -> None:
    table = symmetry_square_table()
    for s in range(8):
        assert sorted(table[s]) == list(range(64))
        for sq in (0, 9, 27, 63):
            assert int(bb.transform(np.uint64(1 << sq), s, 8)) == 1 << int(table[s, sq])
