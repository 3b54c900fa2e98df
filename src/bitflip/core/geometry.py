"""Board sizes as masks inside one 64-bit board.

Every size uses the same square numbering as 8x8: square = 8 * row + col, a1 = 0, row 1 at the
top. A smaller board occupies the top-left ``size x size`` corner, so one set of kernels serves
all sizes; only the mask of valid squares changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

SIZES: tuple[int, ...] = (4, 6, 8)
PASS = 64
"""The move index of a pass."""


def _board_mask(size: int) -> int:
    mask = 0
    for row in range(size):
        for col in range(size):
            mask |= 1 << (8 * row + col)
    return mask


@dataclass(frozen=True)
class Geometry:
    """Squares, names and start position of one board size."""

    size: int
    mask: int
    """Bits of the valid squares."""

    @property
    def num_squares(self) -> int:
        return self.size * self.size

    @property
    def squares(self) -> tuple[int, ...]:
        """Valid squares in reading order (a1, b1, ..., then row 2 ...)."""
        return tuple(8 * r + c for r in range(self.size) for c in range(self.size))

    def start_position(self) -> tuple[int, int]:
        """(black, white) bitboards of the standard start: white on d4/e5 (8x8)."""
        h = self.size // 2
        white = (1 << (8 * (h - 1) + h - 1)) | (1 << (8 * h + h))
        black = (1 << (8 * (h - 1) + h)) | (1 << (8 * h + h - 1))
        return black, white

    def contains(self, square: int) -> bool:
        return 0 <= square < 64 and bool(self.mask >> square & 1)

    def square_name(self, square: int) -> str:
        """'a1' for 0; 'pa' for PASS."""
        if square == PASS:
            return "pa"
        if not self.contains(square):
            raise ValueError(f"square {square} is not on a {self.size}x{self.size} board")
        return "abcdefgh"[square % 8] + str(square // 8 + 1)

    def parse_square(self, text: str) -> int:
        """Square index of a name such as 'd3' or 'F5' (any case); 'pa'/'ps'/'--' are PASS."""
        t = text.strip().lower()
        if t in ("pa", "ps", "pass", "--"):
            return PASS
        if len(t) != 2 or t[0] not in "abcdefgh"[: self.size] or not t[1].isdigit():
            raise ValueError(f"{text!r} is not a square of a {self.size}x{self.size} board")
        row = int(t[1]) - 1
        if not 0 <= row < self.size:
            raise ValueError(f"{text!r} is not a square of a {self.size}x{self.size} board")
        return 8 * row + "abcdefgh".index(t[0])


@cache
def geometry(size: int = 8) -> Geometry:
    """The geometry of a ``size x size`` board (4, 6 or 8)."""
    if size not in SIZES:
        raise ValueError(f"board size must be one of {SIZES}, not {size}")
    return Geometry(size, _board_mask(size))


def board_mask(size: int) -> np.uint64:
    """The valid-square mask of a size, as the kernels take it."""
    return np.uint64(geometry(size).mask)


def size_of_mask(mask: int) -> int:
    for s in SIZES:
        if geometry(s).mask == mask:
            return s
    raise ValueError(f"{mask:#x} is not a board mask")
