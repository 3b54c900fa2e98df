"""The bitboard kernels over arrays of positions: one numba call for a whole batch.

Training data, networks, environments and self-play hold positions as parallel uint64 arrays
(side to move, other side); these are the batched forms of :mod:`bitflip.core.bitboard` they
share. Each is an ordinary ``@njit`` function, so user code can call them from Python or from
its own numba kernels.

The ``*_inline`` names are the scalar kernels of :mod:`bitflip.core.bitboard` compiled with
``inline="always"``: numba then inlines them into the calling loop before LLVM sees it, and
LLVM vectorises the loop (AVX2/AVX-512 where the CPU has it). Called as ordinary functions, the
same kernels stay out-of-line and the loop runs one board at a time, about 8x slower for legal
moves. Use them in your own batch loops; the scalar names in ``bitboard`` are the ones to call
per position.

:func:`successors_list` is the one function here for Python callers only: one board's children
as Python ints, called without numba's dispatcher.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitflip.core import bitboard as bb
from bitflip.core.bitboard import U1, lowest_square, popcount, random_square, transform
from bitflip.core.geometry import PASS

legal_moves_inline = njit(cache=True, inline="always")(bb.legal_moves.py_func)
""":func:`bitboard.legal_moves`, inlined into numba callers (see the module docstring)."""
flips_inline = njit(cache=True, inline="always")(bb.flips.py_func)
""":func:`bitboard.flips`, inlined into numba callers."""


@njit(cache=True, inline="always")
def play_inline(p: np.uint64, o: np.uint64, sq: int) -> tuple[np.uint64, np.uint64]:
    """:func:`bitboard.play`, inlined into numba callers."""
    return bb.apply_flips(p, o, sq, flips_inline(p, o, sq))


@njit(cache=True)
def legal_moves_many(p: np.ndarray, o: np.ndarray, mask: np.uint64) -> np.ndarray:
    """``legal_moves(p[i], o[i], mask)`` for every i (uint64)."""
    out = np.empty_like(p)
    for i in range(p.shape[0]):
        out[i] = legal_moves_inline(p[i], o[i], mask)
    return out


@njit(cache=True)
def game_over_many(p: np.ndarray, o: np.ndarray, mask: np.uint64) -> np.ndarray:
    """``game_over(p[i], o[i], mask)`` for every i (bool): neither side has a legal move."""
    out = np.empty(p.shape[0], np.bool_)
    for i in range(p.shape[0]):
        out[i] = bb.game_over(p[i], o[i], mask)
    return out


@njit(cache=True)
def flips_many(p: np.ndarray, o: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """``flips(p[i], o[i], moves[i])`` for every i: the discs each move turns (0 for PASS)."""
    out = np.zeros_like(p)
    for i in range(p.shape[0]):
        if moves[i] != PASS:
            out[i] = flips_inline(p[i], o[i], moves[i])
    return out


@njit(cache=True)
def empties_many(p: np.ndarray, o: np.ndarray, mask: np.uint64) -> np.ndarray:
    """Empty squares of the board ``mask`` in every position (int64)."""
    out = np.zeros(p.shape[0], dtype=np.int64)
    for i in range(p.shape[0]):
        out[i] = popcount(mask & ~(p[i] | o[i]))
    return out


@njit(cache=True)
def transform_many(x: np.ndarray, syms: np.ndarray, size: int = 8) -> np.ndarray:
    """``transform(x[i], syms[i], size)`` for every i."""
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = transform(x[i], syms[i], size)
    return out


def symmetry_square_table(size: int = 8) -> np.ndarray:
    """``table[s, sq]``: where symmetry s sends square sq, shape (8, 64), int64.

    Only the entries of squares on the ``size`` board are meaningful.
    """
    table = np.zeros((8, 64), dtype=np.int64)
    for s in range(8):
        for sq in range(64):
            t = int(transform(np.uint64(1 << sq), s, size))
            table[s, sq] = t.bit_length() - 1
    return table


@njit(cache=True)
def random_moves(legal: np.ndarray, seed: int) -> np.ndarray:
    """A uniformly random move of every position's legal-move set (PASS where it is 0).

    Seeds numba's ``np.random`` with ``seed`` first, so a seed gives the same moves everywhere.
    """
    np.random.seed(seed)
    out = np.empty(legal.shape[0], np.int64)
    for i in range(legal.shape[0]):
        out[i] = PASS if legal[i] == 0 else random_square(legal[i])
    return out


@njit(cache=True)
def play_many(p: np.ndarray, o: np.ndarray, moves: np.ndarray, which: np.ndarray) -> None:
    """Play ``moves[i]`` (a square or PASS) in place on every position where ``which[i]``.

    Each played position is left seen from its new side to move, like :func:`bitboard.play`.
    """
    for i in range(p.shape[0]):
        if not which[i]:
            continue
        if moves[i] == PASS:
            p[i], o[i] = o[i], p[i]
        else:
            p[i], o[i] = play_inline(p[i], o[i], moves[i])


SUCC_MOVE, SUCC_PLAYER, SUCC_OPPONENT, SUCC_LEGAL = 0, 1, 2, 3
"""Columns of :func:`successors`: the move, the child (side to move, other), its legal moves."""


@njit("uint64[:, ::1](uint64, uint64, uint64)", cache=True)
def successors(p: np.uint64, o: np.uint64, mask: np.uint64) -> np.ndarray:
    """Every child of ``(p, o)`` in one call: a (k, 4) uint64 array, one row a legal move.

    Columns (:data:`SUCC_MOVE` ...): the move (a square, or PASS when the side to move has
    none), the child seen from its side to move, and that side's legal-move bitboard. No rows
    when the game is over. Squares come in increasing order, like ``Board.legal_moves``.
    Takes Python ints as well as ``np.uint64`` (an explicit signature converts them).
    """
    moves = legal_moves_inline(p, o, mask)
    if moves == 0:
        if legal_moves_inline(o, p, mask) == 0:
            return np.empty((0, 4), np.uint64)
        out = np.empty((1, 4), np.uint64)
        out[0, 0] = PASS
        out[0, 1] = o
        out[0, 2] = p
        out[0, 3] = legal_moves_inline(o, p, mask)
        return out
    out = np.empty((popcount(moves), 4), np.uint64)
    k = 0
    while moves:
        sq = lowest_square(moves)
        moves &= moves - U1
        cp, co = play_inline(p, o, sq)
        out[k, 0] = sq
        out[k, 1] = cp
        out[k, 2] = co
        out[k, 3] = legal_moves_inline(cp, co, mask)
        k += 1
    return out


Child = tuple[int, int, int, int]
"""One child from :func:`successors_list`: (move, child_p, child_o, child_legal), Python ints."""


@njit("List(Tuple((int64, uint64, uint64, uint64)))(uint64, uint64, uint64)", cache=True)
def _successors_list(p: np.uint64, o: np.uint64, mask: np.uint64) -> list[Child]:
    out = []
    moves = legal_moves_inline(p, o, mask)
    if moves == 0:
        other = legal_moves_inline(o, p, mask)
        if other:
            out.append((PASS, o, p, other))
    while moves:
        sq = lowest_square(moves)
        moves &= moves - U1
        cp, co = play_inline(p, o, sq)
        out.append((sq, cp, co, legal_moves_inline(cp, co, mask)))
    return out  # type: ignore[return-value]  # uint64 inside numba, ints to Python callers


# The compiled wrapper of the one signature: numba's dispatcher (finding the overload for the
# arguments' types) cost 150-300 ns of a 0.8 us call.
_SIG = _successors_list.signatures[0]
_successors_list_compiled = _successors_list.overloads[_SIG].entry_point  # type: ignore[attr-defined]


def successors_list(p: int, o: int, mask: int) -> list[Child]:
    """:func:`successors` for Python callers: a list of ``(move, child_p, child_o, child_legal)``.

    The fastest way to walk one board's children from Python (``Board.children()`` uses it):
    the tuples arrive as Python ints, with no array to allocate and convert (``.tolist()``)
    and no dispatch by argument types (issue 19: 0.65 us a call against 1.4 us for
    ``successors(...).tolist()``). Numba code calls :func:`successors` instead.

    Raises:
        OverflowError: a bitboard below 0 or at or above 2**64.
    """
    return _successors_list_compiled(p, o, mask)  # type: ignore[no-any-return]


@njit(cache=True)
def successors_many(
    p: np.ndarray, o: np.ndarray, mask: np.uint64
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every child of every position in one call: a tree's next level, breadth first.

    Returns ``(parent, move, child_p, child_o)``, one entry per child: the index of its
    position in ``p``/``o`` (int64, increasing), the move (a square or PASS, int64), and the
    child seen from its side to move (uint64). A finished game has no children, a side that
    must pass one (PASS); the rest are its legal moves in increasing order, as in
    :func:`successors`.
    """
    n = p.shape[0]
    legal = np.empty(n, np.uint64)
    total = 0
    for i in range(n):
        m = legal_moves_inline(p[i], o[i], mask)
        legal[i] = m
        if m:
            total += popcount(m)
        elif legal_moves_inline(o[i], p[i], mask):
            total += 1
    parent = np.empty(total, np.int64)
    move = np.empty(total, np.int64)
    cp = np.empty(total, np.uint64)
    co = np.empty(total, np.uint64)
    k = 0
    for i in range(n):
        m = legal[i]
        if m == 0:
            if legal_moves_inline(o[i], p[i], mask):
                parent[k], move[k], cp[k], co[k] = i, PASS, o[i], p[i]
                k += 1
            continue
        while m:
            sq = lowest_square(m)
            m &= m - U1
            parent[k], move[k] = i, sq
            cp[k], co[k] = play_inline(p[i], o[i], sq)
            k += 1
    return parent, move, cp, co
