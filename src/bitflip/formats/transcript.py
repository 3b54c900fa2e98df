"""Move transcripts: ``f5d6c3d3c4...``, one game per line in a file.

Square names in any case, spaces allowed between moves. A pass may be written (``pa``, ``ps``
or ``--``) or left out: the replay inserts it when the side to move has no legal move, so a
parsed transcript always has its passes written out and is checked to be a legal game.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS, geometry
from bitflip.core.replay import explain, replay_one
from bitflip.formats.errors import FormatError
from bitflip.formats.record import GameRecord

FMT = "transcript"

_PASS_TOKENS = ("pa", "ps", "--")


def _tokens(text: str) -> list[str]:
    t = "".join(text.split()).lower()
    if len(t) % 2:
        raise FormatError(FMT, f"odd number of characters: {t[-1:]!r} at the end is no move")
    return [t[i : i + 2] for i in range(0, len(t), 2)]


def parse_transcript(text: str, size: int = 8, start: str | None = None) -> list[Move]:
    """The moves of a transcript, passes written out, checked to be legal.

    Args:
        text: e.g. ``"f5d6c3"`` or ``"F5 D6 C3"``; passes as ``pa`` or implicit.
        size: board size (ignored when ``start`` is given).
        start: OBF string of the start position (default: the standard start).

    Raises:
        FormatError: a token that is not a square, or an illegal move (named with its number).
    """
    board = Board(start) if start else Board(size=size)
    geo = board.geometry
    moves: list[Move] = []
    for k, tok in enumerate(_tokens(text), 1):
        if tok in _PASS_TOKENS:
            moves.append(PASS)
            continue
        try:
            moves.append(geo.parse_square(tok))
        except ValueError:
            raise FormatError(
                FMT, f"move {k}: {tok!r} is not a square of a {geo.size}x{geo.size} board"
            ) from None
    rep = replay_one(moves, board)
    bad = int(rep.bad[0])
    if bad >= 0:
        raise FormatError(FMT, f"move {bad + 1}: {explain(board, moves, bad)}")
    return rep.game_moves(0)


def format_transcript(moves: Iterable[Move], passes: bool = False, size: int = 8) -> str:
    """Lower-case square names run together (of a ``size`` x ``size`` board).

    Passes are written as ``pa`` when ``passes``; otherwise they are left out, except a pass
    that ends the list (a game cut right after a pass), which no reader could infer.
    """
    g = geometry(size)
    ms = list(moves)
    last = len(ms) - 1
    return "".join(g.square_name(m) for i, m in enumerate(ms) if passes or m != PASS or i == last)


def loads(
    text: str, size: int = 8, *, path: str | os.PathLike[str] | None = None
) -> list[GameRecord]:
    """Games of a transcript file's text: one per line; blank and ``#`` lines skipped."""
    return list(_iter_lines(re.split(r"\r\n|\r|\n", text), size, path))


def _iter_lines(
    lines: Iterable[str], size: int, path: str | os.PathLike[str] | None
) -> Iterator[GameRecord]:
    for n, line in enumerate(lines, 1):
        s = line.strip()
        if not s or s.startswith(("#", "%")):
            continue
        try:
            moves = parse_transcript(s, size)
        except FormatError as exc:
            raise exc.located(path=path, line=n) from None
        yield GameRecord(moves=moves, size=size)


def read(path: str | os.PathLike[str], size: int = 8) -> Iterator[GameRecord]:
    """Stream the games of a transcript file (one game per line)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        yield from _iter_lines(f, size, path)


def dumps(records: Iterable[GameRecord], passes: bool = False) -> str:
    """One transcript line per game (standard starts only: a line cannot hold a position)."""
    lines = []
    for i, r in enumerate(records, 1):
        if r.start is not None:
            raise ValueError(f"game {i}: a transcript cannot hold a non-standard start position")
        if not r.moves:
            raise ValueError(f"game {i}: a transcript line cannot hold a game without moves")
        lines.append(format_transcript(r.moves, passes) + "\n")
    return "".join(lines)


def write(
    path: str | os.PathLike[str], records: Iterable[GameRecord], passes: bool = False
) -> None:
    """Write games as transcript lines."""
    Path(path).write_text(dumps(records, passes), encoding="utf-8")
