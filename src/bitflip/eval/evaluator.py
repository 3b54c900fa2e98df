"""One entry point for every static evaluation, callable from numba search kernels.

Search kernels call ``evaluate(p, o, mask, kind, weights)``: ``kind`` picks the evaluation and
``weights`` is its flat float64 parameter vector, so one compiled search serves every
evaluation. Scores are integers in eval units (``EVAL_SCALE`` per disc), from the side to
move's view.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from bitflip.core.bitboard import legal_moves, popcount
from bitflip.eval.positional import TABLES, disc_square_score

EVAL_SCALE = 100
"""Eval units per disc of final disc difference."""

KIND_POSITIONAL = 0


@dataclass(frozen=True)
class Evaluation:
    """A loaded evaluation: what ``evaluate`` needs, plus a name for logs and files."""

    name: str
    kind: int
    weights: np.ndarray
    size: int = 8


@njit(cache=True)
def _positional(p: np.uint64, o: np.uint64, mask: np.uint64, w: np.ndarray) -> int:
    # w[0:64]: disc-square table; w[64]: weight of one move of mobility; w[65]: overall scale.
    table = w[:64].astype(np.int64)
    mob = popcount(legal_moves(p, o, mask)) - popcount(legal_moves(o, p, mask))
    return int((disc_square_score(p, o, table) + w[64] * mob) * w[65])


@njit(cache=True)
def evaluate(p: np.uint64, o: np.uint64, mask: np.uint64, kind: int, weights: np.ndarray) -> int:
    """Static score of (p, o) in eval units, side to move's view."""
    if kind == KIND_POSITIONAL:
        return _positional(p, o, mask, weights)
    return 0


def positional_evaluation(size: int = 8) -> Evaluation:
    w = np.zeros(66, dtype=np.float64)
    w[:64] = TABLES[size]
    w[64] = 5.0
    w[65] = 0.1  # a corner (100) is worth about 10 discs
    return Evaluation("positional", KIND_POSITIONAL, w, size)


def load_evaluation(name: str = "positional", size: int = 8) -> Evaluation:
    """An evaluation by name."""
    if name == "positional":
        return positional_evaluation(size)
    raise ValueError(f"unknown evaluation {name!r}; known: positional")
