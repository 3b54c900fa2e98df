"""Save and load for the web app: a game as a transcript or GGF text, and back.

Reading and writing go through :mod:`bitflip.formats` (``GameRecord``); this module only maps a
web game to a record and tells the format of pasted text. Malformed text raises
:class:`bitflip.formats.errors.FormatError` (a ValueError naming the line and what is wrong).
"""

from __future__ import annotations

import time

from bitflip.core.board import Board
from bitflip.formats import ggf
from bitflip.formats.errors import FormatError
from bitflip.formats.record import GameRecord
from bitflip.formats.transcript import format_transcript, parse_transcript
from bitflip.web.games import GameState

FORMATS = ("transcript", "ggf")


def record_of(
    state: GameState, names: tuple[str, str], path: list[int] | None = None
) -> GameRecord:
    """One line of the game as a record (default: the line shown, to its end).

    Args:
        names: black's and white's player names.
        path: tree nodes from the root, e.g. ``state.tree.main_line()``.
    """
    start = state.start if state.start != Board(size=state.size).obf() else None
    moves = state.tree.line_moves(path if path is not None else state.path)
    end = Board(state.start)
    for m in moves:
        end.push(m)
    outcome = end.outcome()
    return GameRecord(
        moves=moves,
        size=state.size,
        start=start,
        black=names[0],
        white=names[1],
        event="bitflip web",
        date=time.strftime("%Y.%m.%d_%H:%M:%S", time.gmtime(state.created)),
        black_score=outcome.black if outcome else None,
    )


def detect_format(text: str) -> str:
    return "ggf" if text.lstrip().startswith("(;") else "transcript"


def write(record: GameRecord, fmt: str) -> str:
    if fmt == "transcript":
        return format_transcript(record.moves)
    if fmt == "ggf":
        return ggf.dump_game(record)
    raise ValueError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")


def read(text: str, fmt: str = "auto", size: int = 8) -> GameRecord:
    """The game in pasted text (``fmt`` 'auto' tells GGF from a transcript)."""
    if fmt == "auto":
        fmt = detect_format(text)
    if fmt == "transcript":
        return read_transcript(text, size)
    if fmt == "ggf":
        games = ggf.loads(text)
        if not games:
            raise FormatError("GGF", "no game in the text")
        return games[0]
    raise ValueError(f"unknown format {fmt!r}; known: auto, {', '.join(FORMATS)}")


def read_transcript(text: str, size: int = 8, start: str | None = None) -> GameRecord:
    """A record of one transcript (passes written out, checked to be legal)."""
    if not text.strip():
        raise FormatError("transcript", "empty transcript")
    board = Board(start) if start else Board(size=size)
    return GameRecord(moves=parse_transcript(text, board.size, start), size=board.size, start=start)
