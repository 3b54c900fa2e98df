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


def read_game(arg: str) -> Board:
    """A game from a transcript string or a file holding one (or a GGF game when supported)."""
    path = Path(arg)
    if path.is_file() or any(arg.endswith(s) for s in (".txt", ".ggf", ".gam")):
        text = path.read_text()  # raises OSError with the file name when missing
        if text.lstrip().startswith("(;"):
            raise ValueError(f"{arg}: GGF games are not supported here yet; give a transcript")
        return parse_transcript(text.split("\n", 1)[0] if text.strip() else "")
    return parse_transcript(arg)
