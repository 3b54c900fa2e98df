"""The search kernels' named state: one value that carries everything a kernel reads or writes
besides the position, as Edax passes one ``Search*`` and Stockfish one ``Worker``.

:class:`KernelState` is a ``NamedTuple`` of an evaluation, the control array and the arrays of
one searching thread (transposition tables, per-ply move lists, pattern rows, the ProbCut table,
the table of positions other threads are searching). numba reads its fields by name inside the
kernels; :data:`KERNEL_STATE` is its numba type, used in the kernels' explicit signatures. Adding
a buffer means adding a field here and where :class:`~bitflip.search.alphabeta.SearchContext`
builds the state, nothing else.

The deferral helpers (:func:`defer_or_claim`, :func:`is_claimed`, :func:`claim`,
:func:`release`) are the one place the ``busy`` table is read and written: by the midgame
kernel, the solver and the root search.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types

from bitflip.core.jit import kernel


class KernelState(NamedTuple):
    """Everything a search kernel needs besides the position (arrays are shared, not copied)."""

    kind: int
    """The evaluation's kind (:mod:`bitflip.eval.evaluator`)."""
    weights: np.ndarray
    """The evaluation's weights, ``float32[::1]`` (:class:`~bitflip.eval.evaluator.Evaluation`)."""
    ctl: np.ndarray
    """The control array: node count, stop flag, settings (:mod:`bitflip.search.control`)."""
    tt_keys: np.ndarray
    tt_data: np.ndarray
    """The midgame transposition table (:class:`bitflip.search.tt.TranspositionTable`)."""
    moves: np.ndarray
    scores: np.ndarray
    """The midgame kernel's move list and ordering scores of each ply, ``int64[ply, 64]``."""
    rows: np.ndarray
    """Each ply's pattern indices (:mod:`bitflip.eval.pattern_indices`)."""
    mpc: np.ndarray
    """The Multi-ProbCut table, a row per depth (:mod:`bitflip.search.probcut`)."""
    eg_keys: np.ndarray
    eg_data: np.ndarray
    """The endgame solver's transposition table."""
    eg_moves: np.ndarray
    eg_scores: np.ndarray
    """The solver's move list and ordering scores by number of empties, ``int64[65, 64]``."""
    busy: np.ndarray
    """Positions other threads are searching (:func:`busy_table`), shared by all threads."""


_TABLE_KEYS = types.Array(types.uint64, 1, "A")
_TABLE_DATA = types.Array(types.int64, 1, "A")
_PER_PLY = types.Array(types.int64, 2, "C")
_FIELD_TYPES = {
    "kind": types.int64,
    "weights": types.Array(types.float32, 1, "C"),
    "ctl": types.Array(types.int64, 1, "C"),
    "tt_keys": _TABLE_KEYS,
    "tt_data": _TABLE_DATA,
    "moves": _PER_PLY,
    "scores": _PER_PLY,
    "rows": types.Array(types.uint16, 2, "C"),
    "mpc": types.Array(types.float64, 2, "C"),
    "eg_keys": _TABLE_KEYS,
    "eg_data": _TABLE_DATA,
    "eg_moves": _PER_PLY,
    "eg_scores": _PER_PLY,
    "busy": types.Array(types.uint64, 1, "C"),
}
KERNEL_STATE = types.NamedTuple(  # type: ignore[no-untyped-call]
    tuple(_FIELD_TYPES[name] for name in KernelState._fields), KernelState
)
"""numba's type of :class:`KernelState`. Table keys and data are strided views of one buffer
(:meth:`bitflip.search.tt.TranspositionTable.allocate`)."""


def busy_table(threads: int) -> np.ndarray:
    """The ``busy`` table of a search with ``threads`` threads sharing its tables.

    One slot (never read) when alone; else a small hash table of the positions being searched.
    """
    return np.zeros(1 if threads <= 1 else 1 << 12, dtype=np.uint64)


# Inlined into the hot loops: a call there would cost what deferring saves.


@kernel(inline=True)
def is_claimed(busy: np.ndarray, key: np.uint64) -> bool:
    """Whether another thread claimed the position ``key`` (it is searching it)."""
    return bool(busy[np.int64(key & np.uint64(busy.shape[0] - 1))] == key)


@kernel(inline=True)
def claim(busy: np.ndarray, key: np.uint64) -> None:
    """Tell the other threads that this one is searching the position ``key``."""
    busy[np.int64(key & np.uint64(busy.shape[0] - 1))] = key


@kernel(inline=True)
def release(busy: np.ndarray, key: np.uint64) -> None:
    """Clear this thread's claim on ``key``, unless another thread has claimed its slot since."""
    slot = np.int64(key & np.uint64(busy.shape[0] - 1))
    if busy[slot] == key:
        busy[slot] = np.uint64(0)


@kernel(inline=True)
def defer_or_claim(
    busy: np.ndarray, key: np.uint64, may_defer: bool, moves: np.ndarray, count: int, sq: int
) -> bool:
    """Whether this thread puts the child ``key`` (move ``sq``) off: when ``may_defer`` and
    another thread is searching it, ``sq`` goes to ``moves[count]`` (room permitting) for the
    caller to come back to last; otherwise this thread claims the child."""
    if may_defer and is_claimed(busy, key) and count < moves.shape[0]:
        moves[count] = sq
        return True
    claim(busy, key)
    return False
