from __future__ import annotations

import random

import pytest

from bitflip import BLACK, PASS, WHITE, Board, IllegalMoveError, InvalidMoveError, parse_square
from bitflip.core.board import Outcome, final_outcome


def test_start_position() -> None:
    b = Board()
    assert b.turn == BLACK
    assert b.color_at(parse_square("d4")) == WHITE
    assert b.color_at(parse_square("e5")) == WHITE
    assert b.color_at(parse_square("d5")) == BLACK
    assert b.color_at(parse_square("e4")) == BLACK
    assert sorted(b.legal_moves) == sorted(parse_square(s) for s in ("d3", "c4", "f5", "e6"))
    assert len(b.legal_moves) == 4


def test_6x6_start() -> None:
    b = Board(size=6)
    assert b.board_string() == "--------------OX----XO--------------"
    assert b.obf().endswith(" X")


def test_push_pop_round_trip() -> None:
    rng = random.Random(5)
    b = Board()
    history = [repr(b)]
    while not b.is_game_over():
        b.push(rng.choice(list(b.legal_moves)))
        history.append(repr(b))
    while b.move_stack:
        assert repr(b) == history.pop()
        b.pop()
    assert b == Board()


def test_legal_moves_view() -> None:
    b = Board()
    f5 = parse_square("f5")
    assert f5 in b.legal_moves
    assert parse_square("a1") not in b.legal_moves
    assert PASS not in b.legal_moves
    assert "f5" not in b.legal_moves  # squares are ints; names go through parse_square
    assert repr(b.legal_moves) == "<LegalMoves (d3, c4, f5, e6)>"


def test_illegal_and_invalid_moves_name_the_move_and_position() -> None:
    b = Board()
    with pytest.raises(IllegalMoveError, match="a1.*flips no disc.*position"):
        b.push("a1")
    with pytest.raises(IllegalMoveError, match="d4.*occupied"):
        b.push("d4")
    with pytest.raises(IllegalMoveError, match="pa"):
        b.push(PASS)
    with pytest.raises(InvalidMoveError, match="z9"):
        b.push("z9")
    with pytest.raises(InvalidMoveError):
        b.push(99)
    with pytest.raises(InvalidMoveError):
        Board(size=6).push("g1")
    with pytest.raises(IndexError):
        b.pop()


def test_pass_and_game_over() -> None:
    over = Board("X" * 63 + "- O")
    assert list(over.legal_moves) == [] and len(over.legal_moves) == 0
    assert over.is_game_over()
    # White to move with no move; black can take h8 (flipping g8): white must pass.
    b = Board("X" * 62 + "O- O")
    assert list(b.legal_moves) == [PASS]
    b.push(PASS)
    assert b.turn == BLACK
    b.push("h8")
    assert b.is_game_over()
    assert b.pop() == parse_square("h8")
    assert b.pop() == PASS and b.turn == WHITE


def test_outcome_gives_empties_to_winner() -> None:
    assert Board("X" * 60 + "O" * 2 + "-- O").outcome() is None
    assert Board("X" * 62 + "-- O").outcome() == Outcome(BLACK, 64, 0)
    assert Board("O" * 10 + "X" * 4 + "-" * 50 + " X").outcome() is None
    assert final_outcome(20, 30) == Outcome(WHITE, 20, 44)
    assert final_outcome(31, 31) == Outcome(None, 32, 32)
    assert final_outcome(10, 8, size=6) == Outcome(BLACK, 28, 8)
    assert Board().outcome() is None


def test_repr_round_trips_and_copy_is_independent() -> None:
    b = Board()
    b.push("f5")
    assert eval(repr(b)) == b
    c = b.copy()
    c.push("d6")
    assert c != b and b.move_stack == [parse_square("f5")]


def test_obf_parse_errors() -> None:
    with pytest.raises(ValueError, match="16, 36 or 64"):
        Board("XO X")
    with pytest.raises(ValueError, match="bad cell"):
        Board("Z" * 64 + " X")
    with pytest.raises(ValueError, match="side to move"):
        Board("-" * 64 + " Q")


def test_transform_keeps_legality() -> None:
    b = Board()
    b.push("f5")
    for s in range(8):
        t = b.transform(s)
        assert len(t.legal_moves) == len(b.legal_moves)
        assert t.transform([0, 1, 2, 3, 4, 6, 5, 7][s]) == b


def test_str_and_svg() -> None:
    b = Board()
    text = str(b)
    assert text.splitlines()[0] == "  a b c d e f g h"
    assert "black to move" in text
    svg = b._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") == 4 + 4


def _fresh(b: Board) -> Board:
    """The same position rebuilt from text: nothing cached."""
    return Board(b.obf())


def test_cached_legal_moves_follow_push_pop_and_passes() -> None:
    rng = random.Random(4)
    for size in (4, 6, 8):
        for _ in range(20):
            b = Board(size=size)
            seen = []
            while not b.is_game_over():
                ref = _fresh(b)
                assert list(b.legal_moves) == list(ref.legal_moves)
                assert b.is_game_over() == ref.is_game_over()
                seen.append(b.obf())
                m = rng.choice(list(b.legal_moves))
                b.push(m if rng.random() < 0.7 else b.geometry.square_name(m))
            assert _fresh(b).is_game_over() and not list(b.legal_moves)
            while b.ply:
                b.pop()
                assert b.obf() == seen.pop()
                assert list(b.legal_moves) == list(_fresh(b).legal_moves)


def test_setting_the_sides_directly_drops_the_cache() -> None:
    b = Board()
    b.push("f5")
    b.push("d6")
    _ = list(b.legal_moves)
    b.black, b.white, b.turn = Board().black, Board().white, BLACK
    assert list(b.legal_moves) == list(Board().legal_moves)
    b.push("c4")
    b.pop()
    assert b == Board() and list(b.legal_moves) == list(Board().legal_moves)
    b.pop()  # undoes d6 on the replaced position: what XOR gives, with fresh legal moves
    assert list(b.legal_moves) == list(_fresh(b).legal_moves)


def test_children_are_the_positions_after_each_legal_move() -> None:
    b = Board()
    for m in ("f5", "d6", "c3"):
        b.push(m)
    kids = b.children()
    assert len(kids) == len(b.legal_moves)
    for m, kid in zip(b.legal_moves, kids, strict=True):
        after = b.copy()
        after.push(m)
        assert kid == after and kid.ply == 0
        assert list(kid.legal_moves) == list(after.legal_moves)
    # A side that must pass has one child, after PASS; a finished game has none.
    must_pass = Board("-" * 61 + "XOO" + " X")
    assert not must_pass.legal_mask() and not must_pass.is_game_over()
    (child,) = must_pass.children()
    assert child.turn == WHITE and child.black == must_pass.black
    assert list(child.legal_moves) == list(_fresh(child).legal_moves)
    assert Board("X" * 64 + " O").children() == []
