"""The typed ``Board``: python-chess manners over the numba kernels."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import cast

import numpy as np

from bitflip.core import bitboard as bb
from bitflip.core.arrays import successors_list
from bitflip.core.geometry import PASS, Geometry, geometry

Move = int

# The two kernels of push and of the legal-move cache, typed as Board calls them: Python ints
# in and out (their explicit numba signatures convert to and from uint64).
_move_and_next = cast(Callable[[int, int, int, int], tuple[int, int, int]], bb.move_and_next)
_moves_and_after_pass = cast(Callable[[int, int, int], tuple[int, int]], bb.moves_and_after_pass)
"""A move is a square index 0-63 (a1 = 0) or :data:`PASS`."""


class Color(IntEnum):
    BLACK = 0
    WHITE = 1

    @property
    def other(self) -> Color:
        return Color(1 - self)

    @property
    def symbol(self) -> str:
        """'X' for black, 'O' for white, as in OBF."""
        return "XO"[self]


BLACK = Color.BLACK
WHITE = Color.WHITE
_OTHER = (WHITE, BLACK)
"""``_OTHER[c]`` is ``c.other`` without building an enum member (a hot path of ``push``)."""


class MoveError(ValueError):
    """A move the board refuses; the message names the position it was refused in.

    ``detail`` is the message without the position (what a person is shown), ``position`` the
    OBF of the position ("" when unknown).
    """

    def __init__(self, detail: str, position: str = "") -> None:
        super().__init__(f"{detail} (position {position})" if position else detail)
        self.detail = detail
        self.position = position


class InvalidMoveError(MoveError):
    """A move that is not a square of the board at all (e.g. 'z9' or 99)."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules forbid in this position."""


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game; empty squares go to the winner."""

    winner: Color | None
    black: int
    white: int

    @property
    def margin(self) -> int:
        """Black's discs minus white's."""
        return self.black - self.white

    def __str__(self) -> str:
        return f"{self.black}-{self.white}"


class LegalMoves:
    """A lazy view of the legal moves: supports ``in``, ``len``, iteration and ``bool``.

    When the side to move has no move but the game goes on, the only legal move is PASS.
    """

    def __init__(self, board: Board) -> None:
        self._board = board

    @property
    def mask(self) -> int:
        """Bitboard of the legal squares (no PASS)."""
        return self._board.legal_mask()

    def __iter__(self) -> Iterator[Move]:
        mask = self.mask
        if mask == 0:
            if not self._board.is_game_over():
                yield PASS
            return
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    def __len__(self) -> int:
        n = self.mask.bit_count()
        if n == 0 and not self._board.is_game_over():
            return 1
        return n

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, int) or isinstance(move, bool):
            return False
        if move == PASS:
            return self.mask == 0 and not self._board.is_game_over()
        return 0 <= move < 64 and bool(self.mask >> move & 1)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __repr__(self) -> str:
        g = self._board.geometry
        return f"<LegalMoves ({', '.join(g.square_name(m) for m in self)})>"


class Board:
    """An Othello position with its move stack.

    ``Board()`` is the 8x8 start, ``Board(size=6)`` the 6x6 one; ``Board("<cells> <side>")``
    reads an OBF board string (``X`` black, ``O`` white, ``-`` empty, a1...h8 row by row,
    then the side to move); its size follows from the number of cells (16, 36 or 64).

    ``push`` of a square index is one numba call that checks, flips and computes the next
    legal moves; the legal moves are kept with the position (and on the move stack, so ``pop``
    needs no call), so ``legal_moves`` costs nothing after a move.
    """

    _black: int
    _white: int
    _turn: Color
    _legal: int
    """Legal-move bitboard of the side to move; -1: not computed yet."""
    _after_pass: int
    """When ``_legal`` is 0: the opponent's legal moves (0: the game is over)."""
    _edited: bool
    """The sides were set directly: the caches on the stack may not fit what ``pop`` restores."""

    def __init__(self, obf: str | None = None, *, size: int = 8) -> None:
        self._stack: list[tuple[Move, int, int, int]] = []
        self._legal, self._after_pass, self._edited = -1, 0, False
        if obf is None:
            self.geometry: Geometry = geometry(size)
            self._black, self._white = self.geometry.start_position()
            self._turn = BLACK
            self._bits = self.geometry.mask
            self._mask = np.uint64(self._bits)
        else:
            self.set_obf(obf)

    # --- state -----------------------------------------------------------------------------

    @property
    def black(self) -> int:
        """Bitboard of the black discs."""
        return self._black

    @black.setter
    def black(self, bits: int) -> None:
        self._black = int(bits)
        self._legal, self._edited = -1, True

    @property
    def white(self) -> int:
        """Bitboard of the white discs."""
        return self._white

    @white.setter
    def white(self, bits: int) -> None:
        self._white = int(bits)
        self._legal, self._edited = -1, True

    @property
    def turn(self) -> Color:
        """The side to move."""
        return self._turn

    @turn.setter
    def turn(self, color: Color) -> None:
        self._turn = Color(color)
        self._legal, self._edited = -1, True

    @property
    def size(self) -> int:
        return self.geometry.size

    @property
    def move_stack(self) -> list[Move]:
        return [entry[0] for entry in self._stack]

    @property
    def empty(self) -> int:
        """The empty squares as a bit set."""
        return self._bits & ~(self._black | self._white)

    @property
    def empties(self) -> int:
        """How many squares are empty."""
        return self.empty.bit_count()

    @property
    def ply(self) -> int:
        return len(self._stack)

    def side_bitboards(self) -> tuple[int, int]:
        """(player, opponent): the discs of the side to move, then the other side's."""
        if self._turn is BLACK:
            return self._black, self._white
        return self._white, self._black

    def _set_sides(self, p: int, o: int) -> None:
        if self._turn is BLACK:
            self._black, self._white = p, o
        else:
            self._white, self._black = p, o

    def color_at(self, square: int) -> Color | None:
        if self.black >> square & 1:
            return BLACK
        if self.white >> square & 1:
            return WHITE
        return None

    def disc_count(self, color: Color) -> int:
        return (self.black if color == BLACK else self.white).bit_count()

    # --- moves -----------------------------------------------------------------------------

    def legal_mask(self) -> int:
        """Bitboard of the legal squares of the side to move (0: it must pass, or game over)."""
        if self._legal < 0:
            self._refresh()
        return self._legal

    def _refresh(self) -> None:
        p, o = self.side_bitboards()
        self._legal, self._after_pass = _moves_and_after_pass(p, o, self._bits)

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves

    def parse_move(self, move: Move | str) -> Move:
        """A move index from a square name ('d3', 'PA') or an index, checked to be on the board."""
        if isinstance(move, str):
            try:
                return self.geometry.parse_square(move)
            except ValueError as exc:
                raise InvalidMoveError(str(exc), self.obf()) from None
        if isinstance(move, int | np.integer) and not isinstance(move, bool):
            m = int(move)
            if m == PASS or self.geometry.contains(m):
                return m
        raise InvalidMoveError(
            f"{move!r} is not a move on a {self.size}x{self.size} board", self.obf()
        )

    def push(self, move: Move | str) -> None:
        """Play a move (a square index, a name such as 'f5', or PASS)."""
        m = move if type(move) is int else self.parse_move(move)
        if 0 <= m < 64 and self._bits >> m & 1:
            if self._turn is BLACK:
                p, o = self._black, self._white
            else:
                p, o = self._white, self._black
            if not (p | o) >> m & 1:
                # Legal exactly when it flips a disc: one call checks, flips and looks ahead.
                f, nxt, after = _move_and_next(p, o, m, self._bits)
                if f:
                    self._stack.append((m, f, self._legal, self._after_pass))
                    if self._turn is BLACK:
                        self._black, self._white, self._turn = p | f | (1 << m), o ^ f, WHITE
                    else:
                        self._white, self._black, self._turn = p | f | (1 << m), o ^ f, BLACK
                    self._legal, self._after_pass = nxt, after
                    return
        elif m == PASS and self.legal_mask() == 0 and self._after_pass:
            self._stack.append((PASS, 0, 0, self._after_pass))
            self._turn = _OTHER[self._turn]
            self._legal, self._after_pass = self._after_pass, 0
            return
        self._raise_illegal(self.parse_move(m))

    def _raise_illegal(self, m: Move) -> None:
        name = self.geometry.square_name(m)
        reason = "the game is over" if self.is_game_over() else self._illegal_reason(m)
        raise IllegalMoveError(
            f"illegal move {name} for {self.turn.name.lower()}: {reason}", self.obf()
        )

    def _illegal_reason(self, m: Move) -> str:
        if m == PASS:
            return "a side may pass only when it has no legal move"
        if (self.black | self.white) >> m & 1:
            return "the square is occupied"
        if self.legal_mask() == 0:
            return "the side to move has no legal move and must pass"
        return "it flips no disc"

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self._stack:
            raise IndexError("pop from a board with an empty move stack")
        m, f, legal, after = self._stack.pop()
        self._turn = _OTHER[self._turn]
        if m != PASS:
            if self._turn is BLACK:
                self._black, self._white = self._black ^ f ^ (1 << m), self._white ^ f
            else:
                self._white, self._black = self._white ^ f ^ (1 << m), self._black ^ f
        if self._edited:
            self._legal, self._edited = -1, bool(self._stack)
        else:
            self._legal, self._after_pass = legal, after
        return m

    def peek(self) -> Move:
        if not self._stack:
            raise IndexError("peek at a board with an empty move stack")
        return self._stack[-1][0]

    def last_flips(self) -> int:
        """Bitboard of the discs the last move flipped (0 after a pass or at the start)."""
        return self._stack[-1][1] if self._stack else 0

    # --- game end --------------------------------------------------------------------------

    def is_game_over(self) -> bool:
        return self.legal_mask() == 0 and self._after_pass == 0

    def outcome(self) -> Outcome | None:
        """The result if the game is over, else None."""
        if not self.is_game_over():
            return None
        return final_outcome(self.black.bit_count(), self.white.bit_count(), self.size)

    # --- copies and transforms -------------------------------------------------------------

    def copy(self, *, stack: bool = True) -> Board:
        b = Board.__new__(Board)
        b.geometry, b._mask, b._bits = self.geometry, self._mask, self._bits
        b._black, b._white, b._turn = self._black, self._white, self._turn
        b._legal, b._after_pass = self._legal, self._after_pass
        b._stack = list(self._stack) if stack else []
        b._edited = self._edited and stack
        return b

    def children(self) -> list[Board]:
        """The position after each legal move, in the order of ``legal_moves``; no stacks.

        One numba call makes them all (with their legal moves, so each child's
        ``legal_moves`` is free): the fast way to walk a tree from Python. A side that must
        pass has one child (after PASS); a finished game has none.
        """
        p, o = self.side_bitboards()
        kids = successors_list(p, o, self._bits)
        out = []
        new = Board.__new__
        turn = _OTHER[self._turn]
        black = turn is BLACK
        for _, cp, co, legal in kids:
            b = new(Board)
            b.geometry, b._mask, b._bits = self.geometry, self._mask, self._bits
            if black:
                b._black, b._white = cp, co
            else:
                b._white, b._black = cp, co
            b._turn, b._legal, b._after_pass = turn, legal if legal else -1, 0
            b._stack, b._edited = [], False
            out.append(b)
        return out

    def transform(self, sym: int) -> Board:
        """The position under symmetry ``sym`` (0-7, see :func:`bitboard.transform`); no stack."""
        b = self.copy(stack=False)
        b.black = int(bb.transform(np.uint64(self.black), sym, self.size))
        b.white = int(bb.transform(np.uint64(self.white), sym, self.size))
        b._edited = False
        return b

    # --- text ------------------------------------------------------------------------------

    def set_obf(self, text: str) -> None:
        """Set the position from an OBF board string; clears the move stack."""
        t = "".join(text.split())
        n = len(t) - 1
        sizes = {s * s: s for s in (4, 6, 8)}
        if n not in sizes:
            raise ValueError(
                f"an OBF board has 16, 36 or 64 cells and a side to move; got {len(t)} "
                f"characters in {text!r}"
            )
        geo = geometry(sizes[n])
        black = white = 0
        for i, ch in enumerate(t[:n]):
            sq = geo.squares[i]
            if ch in "Xx*":
                black |= 1 << sq
            elif ch in "Oo":
                white |= 1 << sq
            elif ch not in "-.":
                raise ValueError(f"bad cell {ch!r} at {geo.square_name(sq)} in OBF {text!r}")
        side = t[n]
        if side not in "XxOo*":
            raise ValueError(f"bad side to move {side!r} in OBF {text!r} (want X or O)")
        self.geometry, self._bits, self._mask = geo, geo.mask, np.uint64(geo.mask)
        self._black, self._white = black, white
        self._turn = BLACK if side in "Xx*" else WHITE
        self._stack, self._legal, self._after_pass, self._edited = [], -1, 0, False

    def board_string(self) -> str:
        """The cells a1...h8 (or the smaller board's) as X/O/-."""
        return "".join(
            "X" if self.black >> sq & 1 else "O" if self.white >> sq & 1 else "-"
            for sq in self.geometry.squares
        )

    def obf(self) -> str:
        """The OBF board string: cells, a space, the side to move."""
        return f"{self.board_string()} {self.turn.symbol}"

    def __str__(self) -> str:
        g = self.geometry
        legal = self.legal_mask()
        rows = ["  " + " ".join("abcdefgh"[: g.size])]
        for r in range(g.size):
            cells = []
            for c in range(g.size):
                sq = 8 * r + c
                cells.append(
                    "X"
                    if self.black >> sq & 1
                    else "O"
                    if self.white >> sq & 1
                    else "*"
                    if legal >> sq & 1
                    else "."
                )
            rows.append(f"{r + 1} " + " ".join(cells))
        rows.append(
            f"X {self.disc_count(BLACK)}  O {self.disc_count(WHITE)}  "
            f"{self.turn.name.lower()} to move"
        )
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Board({self.obf()!r})"

    def _repr_svg_(self) -> str:
        from bitflip.core.svg import board_svg  # here: svg imports Board

        return board_svg(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.size, self.black, self.white, self.turn) == (
            other.size,
            other.black,
            other.white,
            other.turn,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess's Board


def final_outcome(black: int, white: int, size: int = 8) -> Outcome:
    """The outcome from final disc counts: the empty squares go to the winner."""
    empties = size * size - black - white
    if black > white:
        return Outcome(BLACK, black + empties, white)
    if white > black:
        return Outcome(WHITE, black, white + empties)
    # A draw shares the empties equally (their number is even on every board size).
    return Outcome(None, black + empties // 2, white + empties // 2)
