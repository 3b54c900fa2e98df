"""What the environments share: observation planes and game results."""

from __future__ import annotations

import numpy as np

from bitflip.core.board import Board
from bitflip.core.geometry import PASS


def planes(board: Board) -> np.ndarray:
    """(3, S, S) int8: own discs, opponent discs, legal moves, from the side to move's view."""
    s = board.size
    p, o = board.side_bitboards()
    legal = board.legal_mask()
    out = np.zeros((3, s, s), np.int8)
    for r in range(s):
        for c in range(s):
            bit = 8 * r + c
            out[0, r, c] = p >> bit & 1
            out[1, r, c] = o >> bit & 1
            out[2, r, c] = legal >> bit & 1
    return out


def action_to_move(action: int, size: int) -> int:
    """Action ``r * size + c`` -> square ``8 * r + c``; ``size * size`` is PASS (64)."""
    if action == size * size:
        return PASS
    return 8 * (action // size) + action % size


def move_to_action(move: int, size: int) -> int:
    if move == PASS:
        return size * size
    return (move // 8) * size + move % 8


def legal_action_mask(board: Board, with_pass: bool) -> np.ndarray:
    s = board.size
    mask = np.zeros(s * s + (1 if with_pass else 0), np.int8)
    for m in board.legal_moves:
        if m == PASS:
            if with_pass:
                mask[-1] = 1
        else:
            mask[move_to_action(m, s)] = 1
    return mask
