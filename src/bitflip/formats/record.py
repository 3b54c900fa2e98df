"""The game record every format reads into and writes from."""

from __future__ import annotations

from dataclasses import dataclass, field

from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS


@dataclass
class GameRecord:
    """One game: its moves (PASS where a side passed) and what the file said about it.

    ``start`` is the OBF string of the start position when it is not the standard one
    (GGF's BO, a board-editor position). Fields a format does not carry stay at their defaults.
    WTHOR leaves passes out of ``moves``; :meth:`with_passes` and :meth:`board` put them back.
    """

    moves: list[Move] = field(default_factory=list)
    size: int = 8
    start: str | None = None
    black: str = ""
    white: str = ""
    event: str = ""
    date: str = ""
    black_score: int | None = None
    """Black's final disc count as the file states it (WTHOR, GGF RE)."""
    theoretical_score: int | None = None
    """WTHOR: black's disc count under perfect play from the stored depth on."""
    extra: dict[str, str] = field(default_factory=dict)
    """Format-specific fields kept for round trips (GGF tags such as TI, TY, PC)."""
    evals: list[float | None] = field(default_factory=list)
    """GGF: the evaluation written after each move (parallel to ``moves``; empty if none)."""
    times: list[float | None] = field(default_factory=list)
    """GGF: the seconds each move took (parallel to ``moves``; empty if none)."""

    def start_board(self) -> Board:
        return Board(self.start) if self.start else Board(size=self.size)

    def board(self) -> Board:
        """The final position, with the moves (and any passes left out) on its stack.

        Raises IllegalMoveError on a move the rules forbid.
        """
        b = self.start_board()
        for m in self.moves:
            if m != PASS and b.legal_mask() == 0 and not b.is_game_over():
                b.push(PASS)
            b.push(m)
        return b

    def with_passes(self) -> list[Move]:
        """The moves with passes written out, replaying from the start (WTHOR leaves them out)."""
        return list(self.board().move_stack)
