"""Board sizes as masks inside one 64-bit board (core.geometry)."""

from __future__ import annotations

import pytest

from bitflip.core.geometry import PASS, SIZES, board_mask, geometry, size_of_mask


@pytest.mark.parametrize("size", SIZES)
def test_a_size_is_the_top_left_corner_of_the_8x8_numbering(size: int) -> None:
    g = geometry(size)
    assert g.mask.bit_count() == g.num_squares == size * size == len(g.squares)
    assert all(g.contains(s) for s in g.squares) and not g.contains(PASS)
    assert g.squares[0] == 0 and g.squares[-1] == 9 * (size - 1)  # a1 and the far corner
    assert int(board_mask(size)) == g.mask and size_of_mask(g.mask) == size
    black, white = g.start_position()
    assert black.bit_count() == white.bit_count() == 2 and black & white == 0
    assert (black | white) & g.mask == black | white


def test_the_8x8_start_is_white_on_d4_and_e5() -> None:
    g = geometry(8)
    black, white = g.start_position()
    names = [g.square_name(s) for s in range(64) if white >> s & 1]
    assert names == ["d4", "e5"]
    assert [g.square_name(s) for s in range(64) if black >> s & 1] == ["e4", "d5"]


@pytest.mark.parametrize("size", SIZES)
def test_every_square_name_reads_back(size: int) -> None:
    g = geometry(size)
    for s in g.squares:
        name = g.square_name(s)
        assert g.parse_square(name) == s == g.parse_square(name.upper())
    assert g.square_name(PASS) == "pa"
    for text in ("pa", "PS", "pass", "--"):
        assert g.parse_square(text) == PASS


@pytest.mark.parametrize(("size", "text"), [(6, "g1"), (6, "a7"), (8, "a9"), (8, "i1"), (8, "d")])
def test_a_square_off_the_board_is_refused_by_name(size: int, text: str) -> None:
    with pytest.raises(ValueError, match=rf"'{text}' is not a square of a {size}x{size} board"):
        geometry(size).parse_square(text)


def test_bad_sizes_and_masks_are_refused() -> None:
    with pytest.raises(ValueError, match=r"board size must be one of \(4, 6, 8\), not 5"):
        geometry(5)
    with pytest.raises(ValueError, match="is not a board mask"):
        size_of_mask(0xFF)
    with pytest.raises(ValueError, match="square 6 is not on a 6x6 board"):
        geometry(6).square_name(6)
