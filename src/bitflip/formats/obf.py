"""OBF position files (Edax, the FFO endgame suite): one position per line.

A line is the board (``X`` black, ``O`` white, ``-`` empty, a1...h8 row by row), the side to
move, ``;``, then ``MOVE:score;`` for annotated moves (the exact final disc difference after
the move, from the mover's view; ``PS`` is a forced pass). ``%`` starts a comment; blank
lines are skipped::

    --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS
from bitflip.formats.errors import FormatError

FMT = "OBF"
_SCORE = re.compile(r"[+-]?\d{1,3}")


@dataclass
class ObfPosition:
    """A position with scores for some (in FFO files: all) of its legal moves."""

    board: Board
    scores: dict[Move, int] = field(default_factory=dict)
    comment: str = ""

    def best_score(self) -> int | None:
        return max(self.scores.values()) if self.scores else None

    def dumps(self) -> str:
        """This position as one OBF line (no newline)."""
        parts = [f"{self.board.obf()};"]
        for move, score in self.scores.items():
            name = "PS" if move == PASS else self.board.geometry.square_name(move).upper()
            parts.append(f" {name}:{score:+d};")
        if self.comment:
            if "\n" in self.comment or "\r" in self.comment:
                raise ValueError("an OBF comment must fit on one line")
            parts.append(f" % {self.comment}")
        return "".join(parts)


def parse_line(line: str) -> ObfPosition:
    """One OBF line (without its newline); raises FormatError naming what is wrong."""
    body, _, comment = line.partition("%")
    fields = body.split(";")
    try:
        board = Board(fields[0])
    except ValueError as exc:
        raise FormatError(FMT, str(exc)) from None
    legal = set(board.legal_moves)
    n = board.size * board.size
    scores: dict[Move, int] = {}
    for entry in fields[1:]:
        e = entry.strip()
        if not e:
            continue
        move_text, colon, score_text = e.partition(":")
        if not colon:
            raise FormatError(FMT, f"{e!r} is not MOVE:score")
        try:
            move = board.geometry.parse_square(move_text)
        except ValueError:
            raise FormatError(FMT, f"unknown move {move_text.strip()!r}") from None
        name = board.geometry.square_name(move)
        if not _SCORE.fullmatch(score_text.strip()):
            raise FormatError(FMT, f"{name}: score {score_text.strip()!r} is not an integer")
        score = int(score_text)
        if abs(score) > n:
            raise FormatError(FMT, f"{name}: score {score} is beyond +-{n}")
        if move not in legal:
            raise FormatError(FMT, f"{name} is not a legal move in {board.obf()}")
        if move in scores:
            raise FormatError(FMT, f"{name} is scored twice")
        scores[move] = score
    return ObfPosition(board, scores, comment.strip())


def _iter_lines(lines: Iterable[str], path: str | os.PathLike[str] | None) -> Iterator[ObfPosition]:
    for n, line in enumerate(lines, 1):
        s = line.strip()
        if not s or s.startswith("%"):
            continue
        try:
            yield parse_line(s)
        except FormatError as exc:
            raise exc.located(path=path, line=n) from None


def loads(text: str, *, path: str | os.PathLike[str] | None = None) -> list[ObfPosition]:
    """The positions of an OBF text."""
    return list(_iter_lines(re.split(r"\r\n|\r|\n", text), path))


def read(path: str | os.PathLike[str]) -> Iterator[ObfPosition]:
    """Stream the positions of an OBF file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        yield from _iter_lines(f, path)


def dumps(positions: Iterable[ObfPosition]) -> str:
    """OBF text, one line per position."""
    return "".join(p.dumps() + "\n" for p in positions)


def write(path: str | os.PathLike[str], positions: Iterable[ObfPosition]) -> None:
    """Write positions to an OBF file."""
    Path(path).write_text(dumps(positions), encoding="utf-8")
