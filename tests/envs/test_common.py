"""What the environments share: observation planes, actions and their legal mask."""

from __future__ import annotations

import numpy as np
import pytest

from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.envs._common import action_to_move, legal_action_mask, move_to_action, planes

MUST_PASS = "OOOXXXOOOOX-OOOXXXOOOXXXXOOXX-XOOXXX X"
"""6x6, black to move with no legal move (white has f2 and f5)."""


@pytest.mark.parametrize("size", [4, 6, 8])
def test_actions_and_squares_map_one_to_one(size: int) -> None:
    actions = range(size * size + 1)
    moves = [action_to_move(a, size) for a in actions]
    assert moves[-1] == PASS and len(set(moves)) == len(moves)
    assert all(m == PASS or (m % 8 < size and m // 8 < size) for m in moves)
    assert [move_to_action(m, size) for m in moves] == list(actions)


def test_planes_of_the_start_from_the_side_to_move() -> None:
    b = Board(size=6)
    x = planes(b)
    assert x.shape == (3, 6, 6) and x.dtype == np.int8
    assert x[0].sum() == 2 and x[1].sum() == 2 and x[2].sum() == 4
    for m in b.legal_moves:
        assert x[2, m // 8, m % 8] == 1
    b.push(next(iter(b.legal_moves)))
    y = planes(b)  # white to move: its discs are now "own"
    assert y[0].sum() == 1 and y[1].sum() == 4


def test_legal_mask_with_and_without_the_pass_action() -> None:
    b = Board(size=6)
    mask = legal_action_mask(b, with_pass=True)
    assert mask.shape == (37,) and mask.sum() == 4 and mask[-1] == 0
    assert legal_action_mask(b, with_pass=False).shape == (36,)
    stuck = Board(MUST_PASS)
    assert list(stuck.legal_moves) == [PASS]
    assert legal_action_mask(stuck, with_pass=True).tolist() == [0] * 36 + [1]
    assert not legal_action_mask(stuck, with_pass=False).any()
    assert not planes(stuck)[2].any()
