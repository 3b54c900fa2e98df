"""The root of a search: principal variation search over the root moves, aspiration windows
that widen until the best score is inside, and the two-thread deferral of root moves another
thread is searching (as the kernels defer children, :mod:`bitflip.search.state`).

The driver (:mod:`bitflip.search.driver`) runs one :class:`RootSearch` per iteration: with the
midgame kernel (eval units) or with the endgame solver (discs, widened by :func:`disc_widen`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bitflip.core.bitboard import child
from bitflip.core.hashing import position_hash
from bitflip.search.control import DISC_BOUND, STOP
from bitflip.search.state import claim, is_claimed, release
from bitflip.search.tt import bound_of


@dataclass(frozen=True)
class RootScore:
    move: int
    score: int
    bound: int


Widen = Callable[[int, int, int], tuple[int, int] | None]
"""Given a root search's best score and its window: the next window, or None if it is inside."""


@dataclass(frozen=True)
class RootSearch:
    """The root moves of (p, o), each child valued by ``search(p, o, alpha, beta)``."""

    p: int
    o: int
    all_moves: bool
    """Score every move exactly (multi-PV), not only the best."""
    search: Callable[[int, int, int, int], int]
    ctl: np.ndarray
    busy: np.ndarray
    """The threads' table of positions being searched (:func:`busy_table`)."""

    def pvs(self, moves: list[int], alpha: int, beta: int) -> list[RootScore]:
        """PVS over the root moves in the given order; with other threads, the moves one of
        them is searching come last (as the kernels defer such children)."""
        out: list[RootScore] = []
        a = alpha
        order = list(moves)
        busy = self.busy
        shared = busy.shape[0] > 1
        deferrable = len(order) if shared and not self.all_moves else 0
        i = 0
        while i < len(order):
            sq = order[i]
            np_, no = child(self.p, self.o, sq)
            if not shared:
                v, lo = self._value(i, np_, no, a, alpha, beta)
            else:
                key = np.uint64(position_hash(np.uint64(np_), np.uint64(no)))
                if 0 < i < deferrable and is_claimed(busy, key):
                    order.append(sq)
                    i += 1
                    continue
                claim(busy, key)
                v, lo = self._value(i, np_, no, a, alpha, beta)
                release(busy, key)
            i += 1
            if self.ctl[STOP]:
                break
            bound = bound_of(v, lo, beta)
            out.append(RootScore(sq, v, bound))
            if v > a:
                a = v
                if a >= beta and not self.all_moves:
                    break
        return out

    def _value(self, i: int, np_: int, no: int, a: int, alpha: int, beta: int) -> tuple[int, int]:
        """The score of the ``i``-th root child and the lower end of its final window."""
        if i == 0 or self.all_moves:
            lo = alpha if self.all_moves else a
            return -self.search(np_, no, -beta, -lo), lo
        lo = a
        v = -self.search(np_, no, -a - 1, -a)
        if a < v < beta:
            lo = v - 1
            v = -self.search(np_, no, -beta, -lo)
        return v, lo

    def aspiration(
        self, moves: list[int], alpha: int, beta: int, widen: Widen
    ) -> list[RootScore] | None:
        """PVS in (alpha, beta), widened by ``widen`` until the best score is inside; the
        move that failed high goes first. None when stopped."""
        while True:
            res = self.pvs(moves, alpha, beta)
            if self.ctl[STOP] or not res:
                return None
            best = max(res, key=lambda r: r.score)
            window = widen(best.score, alpha, beta)
            if window is None:
                return res
            if best.score >= beta:
                moves = [best.move] + [m for m in moves if m != best.move]
            alpha, beta = window


def disc_widen(wld: bool = False) -> Widen:
    """How an endgame pass widens its window (discs): from the failed score 4 discs on, then
    8, 16...; once it has failed both ways, the whole scale. A win/loss/draw pass never
    widens: (-1, 1) already tells a win (>= 1), a draw and a loss (<= -1).

    A narrow step costs far less than the rest of the scale: FFO #57 (-10) failed its exact
    window low at -8, and (-65, -7) took 143 s where (-12, -7) takes 48 s (2 discs: 92 s in
    two steps; 8: 110 s). Where the guess holds nothing changes (FFO #45-#54).

    A fail-soft failed score is itself a bound, so the next window starts there. But the
    table of a selective pass holds ProbCut's guesses beside proven bounds, and those
    disagree: a pass can fail high at 10 and then low at 9, and two windows that start at
    each other's failed score would alternate for ever (it happened in a game: an NBoard
    move that never came). The whole scale always holds the score.
    """
    failed_low = failed_high = False
    width = 2
    whole = (-DISC_BOUND, DISC_BOUND)

    def widen(score: int, alpha: int, beta: int) -> tuple[int, int] | None:
        nonlocal failed_low, failed_high, width
        if wld:
            return None
        if score <= alpha and alpha > -DISC_BOUND:
            failed_low = True
            width *= 2
            return whole if failed_high else (max(-DISC_BOUND, score - width), score + 1)
        if score >= beta and beta < DISC_BOUND:
            failed_high = True
            width *= 2
            return whole if failed_low else (score - 1, min(DISC_BOUND, score + width))
        return None

    return widen
