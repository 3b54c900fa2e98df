from __future__ import annotations

import pytest

from bitflip import Board
from bitflip.core.perft import perft

# Convention A of shared/data/perft.md (a pass is a ply; a finished game is one leaf).
PERFT_8 = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800]
PERFT_6 = [1, 4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912, 14976792, 108820292]
PERFT_4 = [1, 4, 12, 44, 128, 424, 1256, 3624, 9116, 20044, 36540, 50704, 57436, 59564, 59980]


@pytest.mark.parametrize("depth", range(10))
def test_perft_8x8(depth: int) -> None:
    assert perft(Board(), depth) == PERFT_8[depth]


@pytest.mark.parametrize("depth", range(11))
def test_perft_6x6(depth: int) -> None:
    assert perft(Board(size=6), depth) == PERFT_6[depth]


def test_perft_4x4_counts_every_game() -> None:
    b = Board(size=4)
    assert [perft(b, d) for d in range(15)] == PERFT_4
    assert perft(b, 15) == perft(b, 20) == 60060


@pytest.mark.slow
def test_perft_8x8_depth_11() -> None:
    assert perft(Board(), 11) == PERFT_8[11]


@pytest.mark.slow
def test_perft_6x6_depth_11() -> None:
    assert perft(Board(size=6), 11) == PERFT_6[11]


def test_perft_does_not_change_the_board() -> None:
    b = Board()
    b.push("f5")
    before = repr(b)
    perft(b, 4)
    assert repr(b) == before


def test_perft_rejects_negative_depth() -> None:
    with pytest.raises(ValueError, match="depth"):
        perft(Board(), -1)


def _perft_push(b: Board, depth: int) -> int:
    """Perft over the Python API: push and pop every move, count moves at the last ply."""
    if depth == 0:
        return 1
    if depth == 1:
        return max(len(b.legal_moves), 1)
    if b.is_game_over():
        return 1
    total = 0
    for m in list(b.legal_moves):
        b.push(m)
        total += _perft_push(b, depth - 1)
        b.pop()
    return total


def _perft_children(b: Board, depth: int) -> int:
    if depth == 0:
        return 1
    kids = b.children()
    return sum(_perft_children(c, depth - 1) for c in kids) if kids else 1


@pytest.mark.parametrize(("size", "depth", "counts"), [(8, 6, PERFT_8), (6, 7, PERFT_6)])
def test_perft_through_push_pop_and_children(size: int, depth: int, counts: list[int]) -> None:
    b = Board(size=size)
    assert _perft_push(b, depth) == counts[depth]
    assert _perft_children(b, depth) == counts[depth]
    assert b == Board(size=size) and b.ply == 0


def test_perft_through_push_pop_on_4x4_reaches_every_end() -> None:
    b = Board(size=4)
    assert _perft_push(b, 20) == _perft_children(b, 20) == 60060
