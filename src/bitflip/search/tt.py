"""Transposition table on two preallocated numpy arrays, probed and filled from numba kernels.

An entry is a 64-bit key (:func:`bitflip.core.hashing.position_hash`) and one int64 word that
packs the score, the depth it was searched to, the kind of bound, the best move and the search
generation. Entries live in buckets of two: the probe looks at both, the store replaces the
entry of the same position, else the older or shallower one. Keys and words are interleaved
in one buffer (``keys`` and ``data`` are strided views of it), so a bucket is 32 bytes in one
cache line: a probe costs one cache miss, not two.

Several search threads share one table without locks (:class:`bitflip.search.driver.Searcher`):
the key slot holds ``key ^ word``, so an entry torn by two threads writing at once no longer
matches any position and reads as a miss, never as another position's score (Hyatt's
lockless hashing). One thread sees exactly what a plain key would give.

Scores are whatever unit the caller searches in (eval units in the midgame, discs in the
endgame solver, which keeps its own table).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bitflip.core.jit import kernel

LOWER = 1
"""The score is a lower bound (the search failed high)."""
UPPER = 2
"""The score is an upper bound (the search failed low)."""
EXACT = 3
NO_MOVE = 127

_SCORE_BITS = 20
_SCORE_OFFSET = 1 << (_SCORE_BITS - 1)
_SCORE_MASK = (1 << _SCORE_BITS) - 1
_DEPTH_SHIFT = 20
_BOUND_SHIFT = 28
_MOVE_SHIFT = 30
_GEN_SHIFT = 37

ENTRY_BYTES = 16


@kernel()
def bound_of(score: int, alpha: int, beta: int) -> int:
    """What a fail-soft score searched in the window (alpha, beta) tells: LOWER, UPPER or EXACT."""
    if score >= beta:
        return LOWER
    if score > alpha:
        return EXACT
    return UPPER


@kernel()
def tt_pack(score: int, depth: int, bound: int, move: int, gen: int) -> np.int64:
    """One int64 word holding an entry's fields."""
    s = min(max(score, -_SCORE_OFFSET + 1), _SCORE_OFFSET - 1) + _SCORE_OFFSET
    return np.int64(
        s
        | (min(depth, 255) << _DEPTH_SHIFT)
        | (bound << _BOUND_SHIFT)
        | (move << _MOVE_SHIFT)
        | ((gen & 255) << _GEN_SHIFT)
    )


@kernel()
def tt_probe(keys: np.ndarray, data: np.ndarray, key: np.uint64) -> tuple[bool, int, int, int, int]:
    """(found, score, depth, bound, move) of the entry for ``key``."""
    i = np.int64(key & np.uint64(keys.shape[0] - 1)) & ~np.int64(1)
    for j in range(i, i + 2):
        d = data[j]
        if keys[j] ^ np.uint64(d) == key:
            if d == 0:
                break
            score = np.int64(d & _SCORE_MASK) - _SCORE_OFFSET
            depth = np.int64((d >> _DEPTH_SHIFT) & 255)
            bound = np.int64((d >> _BOUND_SHIFT) & 3)
            move = np.int64((d >> _MOVE_SHIFT) & 127)
            return True, int(score), int(depth), int(bound), int(move)
    return False, 0, 0, 0, NO_MOVE


@kernel()
def tt_store(
    keys: np.ndarray,
    data: np.ndarray,
    key: np.uint64,
    score: int,
    depth: int,
    bound: int,
    move: int,
    gen: int,
) -> None:
    """Store an entry, replacing the same position, else the older then the shallower one."""
    i = np.int64(key & np.uint64(keys.shape[0] - 1)) & ~np.int64(1)
    k0 = keys[i] ^ np.uint64(data[i])
    k1 = keys[i + 1] ^ np.uint64(data[i + 1])
    if k0 == key or k1 == key:
        victim = i if k0 == key else i + 1
        # Same position: keep a deeper result of this search unless the new one is exact.
        old = data[victim]
        if (
            old != 0
            and ((old >> _GEN_SHIFT) & 255) == (gen & 255)
            and ((old >> _DEPTH_SHIFT) & 255) > depth
            and bound != EXACT
        ):
            return
    else:
        d0 = data[i]
        d1 = data[i + 1]
        g = gen & 255
        g0 = (d0 >> _GEN_SHIFT) & 255
        g1 = (d1 >> _GEN_SHIFT) & 255
        if d0 == 0:
            victim = i
        elif d1 == 0:
            victim = i + 1
        elif (g0 != g) != (g1 != g):
            victim = i if g0 != g else i + 1
        else:
            victim = i if ((d0 >> _DEPTH_SHIFT) & 255) <= ((d1 >> _DEPTH_SHIFT) & 255) else i + 1
    word = tt_pack(score, depth, bound, move, gen)
    keys[victim] = key ^ np.uint64(word)
    data[victim] = word


@dataclass
class TranspositionTable:
    """The arrays of one table and its generation counter (bumped once per search)."""

    keys: np.ndarray
    data: np.ndarray
    generation: int = 1

    @classmethod
    def allocate(cls, megabytes: float) -> TranspositionTable:
        """A table of the largest power-of-two entry count that fits in ``megabytes``."""
        n = max(2, int(megabytes * 2**20) // ENTRY_BYTES)
        n = 1 << (n.bit_length() - 1)
        # Aligned to a 64-byte cache line, a bucket never straddles two (numpy's buffers start
        # 16 bytes into a line: every other bucket did, and cost two cache misses).
        words = np.zeros(2 * n + 8, dtype=np.uint64)
        start = (-words.ctypes.data // 8) % 8
        buf = words[start : start + 2 * n].reshape(n, 2)
        return cls(buf[:, 0], buf[:, 1].view(np.int64))

    @property
    def entries(self) -> int:
        return int(self.keys.shape[0])

    def clear(self) -> None:
        self.keys[:] = 0
        self.data[:] = 0
        self.generation = 1

    def new_search(self) -> None:
        self.generation = self.generation % 255 + 1

    def best_move(self, key: int) -> int | None:
        found, _, _, _, move = tt_probe(self.keys, self.data, np.uint64(key))
        return int(move) if found and move != NO_MOVE else None
