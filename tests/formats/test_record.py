"""The game record every format reads into (formats.record): passes put back by the rules."""

from __future__ import annotations

import pytest

from bitflip.core.board import Board, IllegalMoveError
from bitflip.core.geometry import PASS
from bitflip.formats.record import GameRecord

from ._games import random_moves


def _passing_game() -> list[int]:
    """A random game in which some side passes (the seed is searched for, the game is fixed)."""
    for seed in range(1000):
        moves = random_moves(seed, size=6)
        if PASS in moves:
            return moves
    raise AssertionError("no random 6x6 game with a pass in 1000 seeds")


def test_passes_left_out_are_put_back() -> None:
    moves = _passing_game()
    without = GameRecord(moves=[m for m in moves if m != PASS], size=6)
    assert without.with_passes() == moves
    assert without.board().move_stack == moves
    assert GameRecord(moves=moves, size=6).with_passes() == moves  # written out: kept as they are


def test_the_board_starts_from_the_records_start() -> None:
    start = Board()
    start.push(start.parse_move("f5"))
    record = GameRecord(moves=[start.parse_move("d6")], start=start.obf())
    assert record.start_board().obf() == start.obf()
    board = record.board()
    assert board.move_stack == [start.parse_move("d6")] and board.ply == 1


def test_an_illegal_move_is_refused() -> None:
    with pytest.raises(IllegalMoveError):
        GameRecord(moves=[0]).board()  # a1 is not a legal first move
