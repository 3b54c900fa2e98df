"""bitflip: the Python toolkit for computer Othello.

>>> from bitflip import Board
>>> board = Board()
>>> board.push("f5")
>>> len(board.legal_moves)
3
"""

from __future__ import annotations

from bitflip._codegen import tune_kernels_for_host
from bitflip._kernel_cache import drop_stale_kernel_caches

tune_kernels_for_host()
drop_stale_kernel_caches()

from bitflip.core.board import (  # noqa: E402 (tuned and checked before kernels load)
    BLACK,
    WHITE,
    Board,
    Color,
    IllegalMoveError,
    InvalidMoveError,
    LegalMoves,
    Move,
    Outcome,
)
from bitflip.core.geometry import PASS, geometry  # noqa: E402

__version__ = "0.1.0"


def parse_square(name: str, size: int = 8) -> Move:
    """Square index of a name: ``parse_square("d3") == 19``; 'pa' is PASS."""
    return geometry(size).parse_square(name)


def square_name(square: Move, size: int = 8) -> str:
    """Name of a square index: ``square_name(19) == "d3"``; PASS is 'pa'."""
    return geometry(size).square_name(square)


__all__ = [
    "BLACK",
    "PASS",
    "WHITE",
    "Board",
    "Color",
    "IllegalMoveError",
    "InvalidMoveError",
    "LegalMoves",
    "Move",
    "Outcome",
    "__version__",
    "parse_square",
    "square_name",
]
