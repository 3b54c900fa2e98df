"""The small exact solver agrees with brute force on 4x4 and knows the 4x4 result."""

from __future__ import annotations

import numpy as np

from bitflip.core.board import Board
from bitflip.search.exact import solve, solve_moves


def _brute(b: Board) -> int:
    if b.is_game_over():
        out = b.outcome()
        assert out is not None
        return out.margin if b.turn == 0 else -out.margin
    best = -1000
    for m in list(b.legal_moves):
        b.push(m)
        best = max(best, -_brute(b))
        b.pop()
    return best


def test_solver_matches_brute_force_on_4x4() -> None:
    rng = np.random.default_rng(0)
    mask = np.uint64(Board(size=4).geometry.mask)
    for _ in range(5):
        b = Board(size=4)
        for _ in range(int(rng.integers(3, 6))):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(moves[int(rng.integers(len(moves)))])
        if b.is_game_over():
            continue
        p, o = (np.uint64(x) for x in b.side_bitboards())
        assert solve(p, o, mask, -100, 100) == _brute(b)
        scores = solve_moves(p, o, mask)
        assert max(scores) == _brute(b) or list(b.legal_moves) == [64]


def test_4x4_perfect_play_is_a_white_win() -> None:
    b = Board(size=4)
    p, o = (np.uint64(x) for x in b.side_bitboards())
    # 4x4 Othello is a white win, 3-11 with 2 empty squares: 3-13 with empties to the winner.
    assert solve(p, o, np.uint64(b.geometry.mask), -100, 100) == -10


def test_6x6_moves_are_scored_by_the_engine_solver_exactly() -> None:
    from bitflip.search.exact import ILLEGAL

    rng = np.random.default_rng(3)
    b = Board(size=6)
    while bin(b.empty).count("1") > 9:
        moves = list(b.legal_moves)
        b.push(moves[int(rng.integers(len(moves)))])
    assert not b.is_game_over()
    p, o = (np.uint64(x) for x in b.side_bitboards())
    mask = np.uint64(b.geometry.mask)
    scores = solve_moves(p, o, mask)
    legal = [m for m in b.legal_moves if m != 64]
    assert sorted(np.flatnonzero(scores != ILLEGAL).tolist()) == sorted(legal)
    assert max(scores) == solve(p, o, mask) == _brute(b)
    for m in legal:
        b.push(m)
        assert -_brute(b) == scores[m]
        b.pop()


def test_solve_moves_scores_h8_after_kernels_saw_small_ints() -> None:
    # Kernels return uint64 as Python ints; once popcount has an int64 version (any caller
    # passing a small int), an int with bit 63 set no longer converts. The position (8
    # empties, from an arena game that crashed this way) has h8 among its moves.
    from bitflip.core.bitboard import legal_moves, play, popcount

    popcount(5)
    p, o, full = 0x1E145E4E7E5A6000, 0x20E8A0B181A49EFF, (1 << 64) - 1
    moves = int(legal_moves(np.uint64(p), np.uint64(o), np.uint64(full)))
    assert moves >> 63 == 1
    scores = solve_moves(p, o, full)
    legal = [sq for sq in range(64) if moves >> sq & 1]
    assert [sq for sq in range(64) if scores[sq] != -1000] == legal
    for sq in legal:
        q, r = play(np.uint64(p), np.uint64(o), sq)
        assert scores[sq] == -solve(q, r, full)
