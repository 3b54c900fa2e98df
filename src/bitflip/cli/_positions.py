"""Reading a position or a game from the command line: an OBF board string or a transcript."""

from __future__ import annotations

from pathlib import Path

from bitflip.core.board import Board


def parse_transcript(text: str, size: int = 8) -> Board:
    """A board after the moves of a transcript such as ``f5d6c3`` (spaces allowed)."""
    t = "".join(text.split()).lower()
    if len(t) % 2:
        raise ValueError(f"a transcript is pairs of letters and digits; {text!r} has odd length")
    board = Board(size=size)
    for i in range(0, len(t), 2):
        move = t[i : i + 2]
        if move not in ("pa", "ps", "--") and board.legal_mask() == 0 and not board.is_game_over():
            board.push("pa")  # passes are often left out of transcripts
        try:
            board.push(move)
        except ValueError as exc:
            raise ValueError(f"move {i // 2 + 1} ({move}) of the transcript: {exc}") from None
    return board


def parse_position(text: str) -> Board:
    """An OBF board string (cells and side to move) or a transcript from the start."""
    t = text.strip()
    if len("".join(t.split())) in (17, 37, 65) and any(c in t for c in "XO-"):
        return Board(t.split(";")[0])
    return parse_transcript(t)


def read_game(arg: str, index: int = 1) -> Board:
    """A game from a transcript string, or game ``index`` (1-based) of a .txt/.ggf/.wtb file."""
    path = Path(arg)
    if path.is_file() or path.suffix.lower() in (".txt", ".ggf", ".wtb"):
        from itertools import islice

        from bitflip.formats.io import read_games

        if not path.is_file():
            raise OSError(f"no such game file: {arg}")
        games = list(islice(read_games(path), index))
        if len(games) < index:
            raise ValueError(f"{arg}: has {len(games)} game(s), not {index}")
        return games[index - 1].board()
    return parse_transcript(arg)
