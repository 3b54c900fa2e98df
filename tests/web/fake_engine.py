"""A stand-in for the engine (:class:`bitflip.web.engine_bridge.WebEngine`), to test the wiring.

Its "search" is one ply of disc counting, so results are known; ``go`` at level 20 thinks until
``stop()`` (to test "move now"), at other levels it answers at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import ClassVar

import numpy as np

from bitflip.core import bitboard as bb
from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.search.limits import Limit, MoveScore, SearchInfo, SearchResult


def one_ply(board: Board) -> list[MoveScore]:
    """Disc difference after each move, mover's view, best first."""
    out = []
    p, o = board.side_bitboards()
    for m in board.legal_moves:
        if m == PASS:
            out.append(MoveScore(PASS, float(p.bit_count() - o.bit_count()), 1))
            continue
        f = int(bb.flips(np.uint64(p), np.uint64(o), m))
        diff = (p.bit_count() + f.bit_count() + 1) - (o.bit_count() - f.bit_count())
        out.append(MoveScore(m, float(diff), 1, exact=board.empty.bit_count() <= 1))
    return sorted(out, key=lambda s: (-s.score, s.move))


class Engine:
    instances: ClassVar[list[Engine]] = []

    def __init__(
        self,
        level: int = 5,
        *,
        evaluation: str = "default",
        tt_mb: int = 64,
        size: int = 8,
        book: object = None,
        book_randomness: float = 0.0,
        seed: int | None = None,
    ) -> None:
        self.level = level
        self.book = book
        """The book it was asked to play from (it plays none: its moves are known answers)."""
        self.board = Board(size=size)
        self._stop = threading.Event()
        self.pondered: list[str] = []
        self.pondering = False
        self.limits: list[Limit | None] = []
        """The limit of every ``go``."""
        self._lock = threading.Lock()
        Engine.instances.append(self)

    def new_game(self) -> None:
        self._stop.clear()

    def set_position(self, board: Board) -> None:
        self._stop.set()  # ends pondering
        self.board = board.copy()

    def go(
        self, limit: Limit | None = None, on_info: Callable[[SearchInfo], None] | None = None
    ) -> SearchResult:
        if self.board.is_game_over():
            raise ValueError("the game is over")
        self._stop.clear()
        self.limits.append(limit)
        best = one_ply(self.board)[0]
        if on_info is not None:
            on_info(SearchInfo(1, best.score, [best.move], 10, 0.01))
        if self.level == 20 and limit is None:
            self._stop.wait(30)
        return SearchResult(best.move, best.score, [best.move], 1, len(one_ply(self.board)))

    def hint(
        self,
        n: int = 64,
        limit: Limit | None = None,
        on_info: Callable[[SearchInfo], None] | None = None,
    ) -> list[MoveScore]:
        return one_ply(self.board)[:n]

    def stop(self) -> None:
        self._stop.set()

    def ponder(self) -> None:
        self._stop.clear()
        self.pondered.append(self.board.obf())
        self.pondering = True

        def run() -> None:
            self._stop.wait(30)
            self.pondering = False

        threading.Thread(target=run, daemon=True).start()
