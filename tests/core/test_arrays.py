"""Batched kernels agree with the one-position kernels they repeat."""

from __future__ import annotations

import numpy as np

from bitflip.core import bitboard as bb
from bitflip.core.arrays import (
    SUCC_LEGAL,
    SUCC_MOVE,
    SUCC_OPPONENT,
    SUCC_PLAYER,
    empties_many,
    flips_many,
    game_over_many,
    legal_moves_inline,
    legal_moves_many,
    play_inline,
    play_many,
    random_moves,
    successors,
    successors_list,
    successors_many,
    symmetry_square_table,
    transform_many,
)
from bitflip.core.board import Board
from bitflip.core.geometry import PASS, board_mask


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


def test_game_over_many_is_game_over_per_position() -> None:
    p, o = _positions(40)
    # Finished ones too: a full board, and one where a side has no discs left.
    ends = [(bb.FULL, np.uint64(0)), (np.uint64(0x8100000000000081), np.uint64(0))]
    p = np.concatenate([p, np.array([e[0] for e in ends], np.uint64)])
    o = np.concatenate([o, np.array([e[1] for e in ends], np.uint64)])
    over = game_over_many(p, o, bb.FULL)
    assert over.dtype == np.bool_ and over[-2:].all() and not over[:40].all()
    for i in range(len(p)):
        assert over[i] == bb.game_over(p[i], o[i], bb.FULL)


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


def test_batch_kernels_match_the_scalar_ones_on_every_board_size() -> None:
    # Random positions of each size, and full-board noise (any disc pattern, not only reachable
    # ones), so the vectorised loops see every lane layout and edge wrap.
    rng = np.random.default_rng(5)
    for size in (4, 6, 8):
        mask = board_mask(size)
        noise = rng.integers(0, 2**63, 500, dtype=np.uint64) * np.uint64(2) | rng.integers(
            0, 2, 500, dtype=np.uint64
        )
        split = rng.integers(0, 2**63, 500, dtype=np.uint64) * np.uint64(2)
        p, o = noise & split & mask, noise & ~split & mask
        legal = legal_moves_many(p, o, mask)
        moves = random_moves(legal, 7)
        f = flips_many(p, o, moves)
        for i in range(500):
            assert legal[i] == bb.legal_moves(p[i], o[i], mask)
            assert legal[i] == legal_moves_inline(p[i], o[i], mask)
            m = int(moves[i])
            if m == PASS:
                assert f[i] == 0
            else:
                assert f[i] == bb.flips(p[i], o[i], m)
                assert play_inline(p[i], o[i], m) == bb.play(p[i], o[i], m)


def test_successors_are_the_boards_children_in_move_order() -> None:
    p, o = _positions(40, seed=2)
    mask = bb.FULL
    for i in range(40):
        kids = successors(p[i], o[i], mask)
        legal = int(bb.legal_moves(p[i], o[i], mask))
        if legal == 0:
            if bb.legal_moves(o[i], p[i], mask) == 0:
                assert kids.shape == (0, 4)
            else:
                assert kids[:, SUCC_MOVE].tolist() == [PASS]
                assert (kids[0, SUCC_PLAYER], kids[0, SUCC_OPPONENT]) == (o[i], p[i])
            continue
        assert kids[:, SUCC_MOVE].tolist() == [sq for sq in range(64) if legal >> sq & 1]
        for row in kids:
            cp, co = bb.play(p[i], o[i], int(row[SUCC_MOVE]))
            assert (row[SUCC_PLAYER], row[SUCC_OPPONENT]) == (cp, co)
            assert row[SUCC_LEGAL] == bb.legal_moves(np.uint64(cp), np.uint64(co), mask)


def test_successors_list_is_successors_as_python_ints() -> None:
    p, o = _positions(30, seed=4)
    done, must_pass = Board("X" * 64 + " O"), Board("-" * 61 + "XOO" + " X")
    for cp, co in [*zip(p, o, strict=True), done.side_bitboards(), must_pass.side_bitboards()]:
        kids = successors_list(int(cp), int(co), bb.FULL)
        assert kids == [tuple(row) for row in successors(cp, co, bb.FULL).tolist()]
        assert all(type(x) is int for kid in kids for x in kid)
    assert successors_list(*done.side_bitboards(), bb.FULL) == []
    assert [k[0] for k in successors_list(*must_pass.side_bitboards(), bb.FULL)] == [PASS]
    assert successors_list(2**63, 2**62, bb.FULL) == [(61, 0, 2**63 + 2**62 + 2**61, 0)]  # bit 63


def test_successors_many_is_successors_of_each_position() -> None:
    p, o = _positions(30, seed=3)
    # Add a finished game and a position whose mover must pass.
    done, must_pass = Board("X" * 64 + " O"), Board("-" * 61 + "XOO" + " X")
    p = np.append(p, [done.side_bitboards()[0], must_pass.side_bitboards()[0]]).astype(np.uint64)
    o = np.append(o, [done.side_bitboards()[1], must_pass.side_bitboards()[1]]).astype(np.uint64)
    parent, move, cp, co = successors_many(p, o, bb.FULL)
    for i in range(len(p)):
        kids = successors(p[i], o[i], bb.FULL)
        mine = parent == i
        assert move[mine].tolist() == kids[:, SUCC_MOVE].astype(np.int64).tolist()
        assert cp[mine].tolist() == kids[:, SUCC_PLAYER].tolist()
        assert co[mine].tolist() == kids[:, SUCC_OPPONENT].tolist()
    assert move[parent == len(p) - 1].tolist() == [PASS]
    assert not (parent == len(p) - 2).any()
