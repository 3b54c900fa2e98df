"""Exact solving of any position near its end: the yardstick for learned play (4x4, 6x6) and the
exact targets of learners on 8x8 (AlphaZero self-play, the pattern fit).

A thin use of the engine's endgame solver (:mod:`bitflip.search.endgame`), which solves any
board inside the 64-bit mask: there is no second exact solver. Scores are final disc margins
for the side to move, empties to the winner.
"""

from __future__ import annotations

import numpy as np

from bitflip.core.bitboard import legal_moves, lowest_square, play
from bitflip.eval.evaluator import load_evaluation
from bitflip.search.alphabeta import SearchContext
from bitflip.search.control import DISC_BOUND
from bitflip.search.driver import Searcher

_CONTEXTS: dict[int, SearchContext] = {}
"""One solver (table, buffers) per board mask: a table must not mix boards of two sizes."""

TT_MB = 4
"""Transposition table of each solver, in MB (raise it before the first solve for deep 6x6
searches, as ``benchmarks/az6_vs_exact.py`` does)."""

ILLEGAL = -1000
"""The :func:`solve_moves` entry of a square that is not a legal move."""


def _context(mask: int) -> SearchContext:
    if mask not in _CONTEXTS:
        size = {16: 4, 36: 6, 64: 8}[mask.bit_count()]
        # The evaluation only orders moves far from the end: the fitted patterns on 8x8 (WTHOR
        # positions at 18 empties: 33 ms against 43 with positional, benchmarks/exact_ordering.py),
        # positional elsewhere.
        evaluation = load_evaluation("default" if size == 8 else "positional", size)
        _CONTEXTS[mask] = Searcher(evaluation, tt_mb=TT_MB).ctx
    return _CONTEXTS[mask]


def solve(
    p: np.uint64 | int,
    o: np.uint64 | int,
    mask: np.uint64 | int,
    alpha: int = -DISC_BOUND,
    beta: int = DISC_BOUND,
) -> int:
    """Exact final margin of (p, o) for the side to move, within the window (alpha, beta)
    (fail-soft: a score at or beyond a bound is a bound)."""
    a, b = max(int(alpha), -DISC_BOUND), min(int(beta), DISC_BOUND)
    return _context(int(mask)).endgame(int(p), int(o), int(mask), a, b)


def solve_moves(p: np.uint64 | int, o: np.uint64 | int, mask: np.uint64 | int) -> np.ndarray:
    """Exact margin after each legal move (shape 64; ``ILLEGAL`` where illegal)."""
    up, uo, um = np.uint64(p), np.uint64(o), np.uint64(mask)
    out = np.full(64, ILLEGAL, np.int64)
    # A kernel returns a uint64 as a Python int; passed back to a kernel that already has an
    # int64 version (popcount of a small int, say), an int with bit 63 set (h8) cannot convert.
    moves = np.uint64(legal_moves(up, uo, um))
    while moves:
        sq = int(lowest_square(moves))
        moves &= moves - np.uint64(1)
        q, r = play(up, uo, sq)
        out[sq] = -solve(q, r, um)
    return out
