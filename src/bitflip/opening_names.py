"""Named Othello openings: which one a game is in, under the 8 symmetries of the board.

The names and lines are data (``bitflip/data/openings.txt``). A position is looked up by its
canonical form, so transpositions and the four equivalent first moves all find their name.

>>> from bitflip.core.board import Board
>>> b = Board()
>>> for m in ("d3", "c5", "f6", "f5", "e6"):  # the Tiger seen from d3
...     b.push(b.parse_move(m))
>>> opening_of(b.move_stack).name
'Tiger'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from bitflip.core.bitboard import NUM_SYMMETRIES
from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS
from bitflip.formats.transcript import parse_transcript

DATA = "openings.txt"


@dataclass(frozen=True)
class NamedOpening:
    """A named opening: its name and its line from the standard 8x8 start."""

    name: str
    moves: tuple[Move, ...]

    @property
    def transcript(self) -> str:
        b = Board()
        return "".join(b.geometry.square_name(m) for m in self.moves if m != PASS)


@dataclass(frozen=True)
class Named:
    """The opening a game is in and how many of its moves made it."""

    name: str
    ply: int


def _key(board: Board) -> tuple[int, int, int]:
    """The position's least form over the symmetries (with the side to move)."""
    forms = [board.transform(s) for s in range(NUM_SYMMETRIES)]
    best = min((b.black, b.white) for b in forms)
    return best[0], best[1], int(board.turn)


def read_openings(text: str) -> list[NamedOpening]:
    """Openings from lines ``transcript name`` (``#`` starts a comment)."""
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#")[0].strip()
        if not line:
            continue
        moves, _, name = line.partition(" ")
        if not name.strip():
            raise ValueError(f"line {number} of the openings: no name after {moves!r}")
        out.append(NamedOpening(name.strip(), tuple(parse_transcript(moves))))
    return out


@cache
def openings() -> tuple[NamedOpening, ...]:
    """The named openings shipped with bitflip."""
    return tuple(read_openings(files("bitflip").joinpath("data", DATA).read_text("utf-8")))


@cache
def _table() -> dict[tuple[int, int, int], str]:
    table: dict[tuple[int, int, int], str] = {}
    for op in openings():
        b = Board()
        for m in op.moves:
            b.push(m)
        table.setdefault(_key(b), op.name)
    return table


def opening_of(moves: list[Move], start: Board | None = None) -> Named | None:
    """The last named opening that ``moves`` (from the standard start) pass through.

    None for a game from another start position or one that leaves the openings at once.
    """
    b = start.copy(stack=False) if start is not None else Board()
    if b.size != 8 or b != Board():
        return None
    table = _table()
    found = None
    for ply, m in enumerate(moves, 1):
        b.push(m)
        name = table.get(_key(b))
        if name is not None:
            found = Named(name, ply)
        if ply >= 30:
            break
    return found
