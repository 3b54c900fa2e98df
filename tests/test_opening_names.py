"""Named openings: the shipped list replays legally and is found under every symmetry."""

from __future__ import annotations

import pytest

from bitflip.core.board import Board
from bitflip.formats.transcript import parse_transcript
from bitflip.opening_names import opening_of, openings, read_openings


def test_every_opening_is_legal_and_names_its_own_line() -> None:
    ops = openings()
    assert len(ops) >= 40
    names = {op.name for op in ops}
    for required in ("Tiger", "Rose", "Buffalo", "Heath", "Cow", "Chimney", "Snake", "Rabbit"):
        assert required in names
    assert {"Aubrey", "Leader's Tiger"} <= names
    for op in ops:
        b = Board()
        for m in op.moves:
            b.push(m)  # raises on an illegal move
        found = opening_of(list(op.moves))
        assert found is not None and found.ply == len(op.moves)
        assert found.name == op.name, f"{op.transcript}: {found.name} shadows {op.name}"


def test_openings_are_found_under_the_symmetries() -> None:
    # Four of the eight symmetries keep the start position; they give the four first moves.
    tiger = parse_transcript("f5d6c3d3c4")
    kept = 0
    for sym in range(8):
        if Board().transform(sym) != Board():
            continue
        kept += 1
        b = Board()
        for m in tiger:
            b.push(_transform_square(m, sym))
        found = opening_of(b.move_stack)
        assert found is not None and found.name == "Tiger", sym
    assert kept == 4


def _transform_square(sq: int, sym: int) -> int:
    one = Board("-" * 64 + " X")  # an empty board to carry one disc through Board.transform
    one.black = 1 << sq
    out = one.transform(sym).black
    return out.bit_length() - 1


def test_no_name_off_the_standard_start_or_past_the_book() -> None:
    assert opening_of(parse_transcript("c4")) is None  # one move names nothing yet
    assert opening_of(parse_transcript("c4c3")) == opening_of(parse_transcript("f5f6"))
    start = "-" * 27 + "XO------OX" + "-" * 27 + " X"
    assert opening_of([], Board(start)) is None
    with pytest.raises(ValueError, match="no name"):
        read_openings("f5d6\n")
