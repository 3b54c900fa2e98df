"""Positions from the command line: OBF boards and transcripts, and what is wrong with them."""

from __future__ import annotations

import pytest

from bitflip.cli._positions import parse_position
from bitflip.core.board import Board

START = "---------------------------OX------XO---------------------------"


def test_obf_and_transcripts() -> None:
    assert parse_position(START + " X") == Board()
    assert parse_position("f5 d6").move_stack == [37, 43]
    assert parse_position("f5d6c3").ply == 3
    six = "-" * 14 + "OX----XO" + "-" * 14
    assert parse_position(six + " O").size == 6


def test_a_board_without_its_side_to_move_is_named() -> None:
    with pytest.raises(ValueError, match="has no side to move: add ' X'"):
        parse_position(START)


def test_a_board_of_the_wrong_size_is_named_as_obf() -> None:
    with pytest.raises(ValueError, match="an OBF board is 16, 36 or 64 squares.*has 8 squares"):
        parse_position("---XO--- X")


def test_a_bad_transcript_names_the_move() -> None:
    with pytest.raises(ValueError, match="move 3: 'zz'"):
        parse_position("f5d6zz")
