from __future__ import annotations

import numpy as np

from bitflip.core.bitboard import flips, legal_moves
from bitflip.core.geometry import board_mask
from bitflip.eval.evaluator import load_evaluation
from bitflip.eval.pattern_indices import (
    ROW,
    WIDTH,
    indexed_patterns_score,
    pass_indices,
    play_indices,
    set_indices,
)
from bitflip.eval.patterns import INST_LEN, INST_SQUARES, SUM_ORDER, pattern_index, patterns_score

from ._positions import random_game

MASK = board_mask(8)


def _gathered(p: np.uint64, o: np.uint64) -> list[int]:
    return [int(pattern_index(p, o, INST_SQUARES[i], INST_LEN[i])) for i in SUM_ORDER]


def test_indices_follow_random_games_through_moves_and_passes() -> None:
    # Carried down whole games (passes and wipe-outs included), the indices of both views stay
    # those read from the board, and the score is the gathered one, bit for bit.
    w = load_evaluation("patterns").weights
    rng = np.random.default_rng(7)
    rows = np.zeros((130, ROW), dtype=np.uint16)
    passes = 0
    for _ in range(40):
        game = random_game(rng)
        set_indices(game[0][0], game[0][1], rows, 0)
        for ply in range(len(game) - 1):
            (p, o), (q, r) = game[ply], game[ply + 1]
            if (q, r) == (o, p):
                pass_indices(rows, ply)
                passes += 1
            else:
                sq = ((int(p) | int(o)) ^ (int(q) | int(r))).bit_length() - 1
                play_indices(rows, ply, sq, flips(p, o, sq))
            n = len(SUM_ORDER)
            assert list(rows[ply + 1, :n]) == _gathered(q, r)
            assert list(rows[ply + 1, WIDTH : WIDTH + n]) == _gathered(r, q)
            moves = np.uint64(legal_moves(q, r, MASK))
            assert indexed_patterns_score(q, r, MASK, w, rows, ply + 1, moves) == patterns_score(
                q, r, MASK, w
            )
    assert passes > 0


def test_set_indices_reads_any_board() -> None:
    rng = np.random.default_rng(3)
    rows = np.zeros((2, ROW), dtype=np.uint16)
    for _ in range(100):
        cells = rng.integers(0, 3, size=64)
        p = np.uint64(sum(1 << s for s in range(64) if cells[s] == 1))
        o = np.uint64(sum(1 << s for s in range(64) if cells[s] == 2))
        set_indices(p, o, rows, 1)
        n = len(SUM_ORDER)
        assert list(rows[1, :n]) == _gathered(p, o)
        assert list(rows[1, WIDTH : WIDTH + n]) == _gathered(o, p)
