"""Reading a position or a game from the command line: an OBF board string or a transcript."""

from __future__ import annotations

from pathlib import Path

from bitflip.core.board import Board
from bitflip.datadir import find
from bitflip.formats.io import read_games
from bitflip.formats.transcript import parse_transcript as transcript_moves


def parse_transcript(text: str, size: int = 8) -> Board:
    """A board after the moves of a transcript such as ``f5d6c3`` (spaces and passes allowed)."""
    board = Board(size=size)
    for move in transcript_moves(text, size):
        board.push(move)
    return board


_CELLS = frozenset("XOxo-.*")
_BOARD_SQUARES = (16, 36, 64)


def parse_position(text: str) -> Board:
    """An OBF board string (the squares, then the side to move) or a transcript from the start.

    Raises:
        ValueError: an OBF board without its side to move or with a wrong number of squares
            is named as such, not read as a bad transcript.
    """
    t = text.strip().split(";")[0].strip()
    squares = "".join(t.split())
    if squares and set(squares) <= _CELLS and ("-" in squares or "." in squares):
        cells, side = squares[:-1], squares[-1].upper()
        if len(squares) in _BOARD_SQUARES:
            raise ValueError(
                f"the OBF board {t!r} has no side to move: add ' X' (black) or ' O' (white)"
            )
        if len(cells) not in _BOARD_SQUARES or side not in "XO":
            raise ValueError(
                f"an OBF board is 16, 36 or 64 squares (X, O, -) then the side to move (X or "
                f"O); {t!r} has {len(cells) if side in 'XO' else len(squares)} squares"
            )
        return Board(t)
    return parse_transcript(t)


def read_game(arg: str, index: int = 1) -> Board:
    """A game from a transcript string, or game ``index`` (1-based) of a .txt/.ggf/.wtb file."""
    path = Path(arg)
    if path.is_file() or path.suffix.lower() in (".txt", ".ggf", ".wtb"):
        from itertools import islice

        if index < 1:
            raise ValueError(f"game index {index}: games are numbered from 1")
        try:
            path = find(arg)  # wthor/WTH_2021.wtb: looked up in the data folders
        except FileNotFoundError as exc:
            raise OSError(f"no such game file: {exc}") from None
        if not path.is_file():
            raise OSError(f"{path}: not a game file")
        games = list(islice(read_games(path), index))
        if len(games) < index:
            raise ValueError(f"{arg}: has {len(games)} game(s), not {index}")
        return games[index - 1].board()
    return parse_transcript(arg)
