"""The minimax yardstick's values, pinned: recorded results depend on them never changing.

A slow negamax over the mailbox reference rules (:mod:`bitflip.core._reference`), with the
yardstick's rules written out here (a pass costs a ply, a finished game is worth 1,000,000 a
disc of difference, disc squares plus 5 a move of mobility at the horizon), must give every
root move the value :func:`bitflip.search.minimax.minimax_root` gives it. A few values are
also written down, so that a change to the disc-square table shows too.
"""

from __future__ import annotations

import numpy as np
import pytest

from bitflip.core._reference import ReferenceBoard
from bitflip.core.board import Board
from bitflip.core.geometry import board_mask
from bitflip.eval.positional import TABLES
from bitflip.search.minimax import minimax_root

WIN = 1_000_000
MOBILITY = 5
ILLEGAL = -1_000_000_000


def _reference(board: Board) -> ReferenceBoard:
    p, o = board.side_bitboards()

    def cells(x: int) -> set[tuple[int, int]]:
        return {(sq // 8, sq % 8) for sq in range(64) if x >> sq & 1}

    return ReferenceBoard(board.size, cells(p), cells(o))


def _score(b: ReferenceBoard, table: np.ndarray) -> int:
    discs = sum(int(table[8 * r + c]) for r, c in b.player)
    discs -= sum(int(table[8 * r + c]) for r, c in b.opponent)
    return discs + MOBILITY * (len(b.moves()) - len(b.passed().moves()))


def _value(b: ReferenceBoard, table: np.ndarray, depth: int) -> int:
    moves = b.moves()
    if not moves and not b.passed().moves():
        return WIN * (len(b.player) - len(b.opponent))
    if depth == 0:
        return _score(b, table)
    if not moves:
        return -_value(b.passed(), table, depth - 1)
    return max(-_value(b.play(r, c), table, depth - 1) for r, c in moves)


def reference_root(board: Board, depth: int) -> np.ndarray:
    """The value of every legal move searched ``depth`` plies deep; ILLEGAL elsewhere."""
    b = _reference(board)
    table = TABLES[board.size]
    out = np.full(64, ILLEGAL, np.int64)
    for r, c in b.moves():
        out[8 * r + c] = -_value(b.play(r, c), table, depth - 1)
    return out


def kernel_root(board: Board, depth: int) -> np.ndarray:
    p, o = board.side_bitboards()
    return minimax_root(
        np.uint64(p), np.uint64(o), board_mask(board.size), TABLES[board.size], depth
    )


def _played(size: int, transcript_seed: int, plies: int) -> Board:
    """The position after ``plies`` random moves (seeded), passes included."""
    rng = np.random.default_rng(transcript_seed)
    b = Board(size=size)
    for _ in range(plies):
        if b.is_game_over():
            break
        moves = list(b.legal_moves)
        b.push(moves[int(rng.integers(len(moves)))])
    return b


POSITIONS = [
    pytest.param(Board(), 3, id="start-8x8"),
    pytest.param(_played(8, 1, 20), 3, id="midgame-8x8"),
    pytest.param(_played(8, 2, 55), 6, id="endgame-8x8"),
    pytest.param(_played(6, 3, 10), 3, id="midgame-6x6"),
    pytest.param(_played(6, 4, 27), 5, id="endgame-6x6"),
    pytest.param(_played(4, 5, 3), 6, id="4x4-to-the-end"),
]


@pytest.mark.parametrize(("board", "depth"), POSITIONS)
def test_minimax_values_match_the_reference_negamax(board: Board, depth: int) -> None:
    assert not board.is_game_over()
    for d in range(1, depth + 1):
        assert kernel_root(board, d).tolist() == reference_root(board, d).tolist(), d


def test_pinned_values() -> None:
    def values(board: Board, depth: int) -> dict[str, int]:
        out = kernel_root(board, depth)
        return {board.geometry.square_name(m): int(out[m]) for m in board.legal_moves}

    assert values(Board(), 1) == {"d3": -3, "c4": -3, "f5": -3, "e6": -3}
    assert values(Board(), 2) == {"d3": -5, "c4": -5, "f5": -5, "e6": -5}
    after = Board()
    for m in ("f5", "d6", "c3", "d3", "c4"):
        after.push(m)
    assert values(after, 3) == {"b3": -8, "f3": -16, "f4": -15, "b5": -22, "g5": -18, "g6": -26}
    end = Board("--X-OOOXOXXXOO-XXXXOOOOX-XOXXOOXXXXOOXOXXXOOOOXXXXOXXOXXXOOOOOOO O")
    assert values(end, 4) == {"a1": 94, "b1": -149, "d1": -41, "a4": 17}
    assert values(end, 6) == {"a1": 2 * WIN, "b1": -24 * WIN, "d1": -12 * WIN, "a4": -4 * WIN}


def test_a_side_without_moves_gets_no_values() -> None:
    board = Board("XXXXXXOXOOOOOOOX-OOXOOXXOOOXXOOXXOOXXXOXXXXOOXXXXXOOOOXXXXXXXXXX O")
    assert (kernel_root(board, 3) == ILLEGAL).all()
