"""Position keys: a fast 64-bit hash and a canonical (symmetry-reduced) key."""

from __future__ import annotations

import numpy as np
from numba import njit

from bitflip.core.bitboard import NUM_SYMMETRIES, transform

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLD = np.uint64(0x9E3779B97F4A7C15)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)


@njit(cache=True)
def _mix(z: np.uint64) -> np.uint64:
    # splitmix64's finaliser: every input bit affects every output bit.
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def position_hash(p: np.uint64, o: np.uint64) -> np.uint64:
    """A 64-bit key of a side-relative position (for transposition tables)."""
    return _mix(p ^ _mix(o + _GOLD))


@njit(cache=True)
def canonical(p: np.uint64, o: np.uint64, size: int) -> tuple[np.uint64, np.uint64, int]:
    """The least (p, o) over the 8 symmetries, and the symmetry that produces it."""
    best_p, best_o, best_s = p, o, 0
    for s in range(1, NUM_SYMMETRIES):
        tp = transform(p, s, size)
        to = transform(o, s, size)
        if tp < best_p or (tp == best_p and to < best_o):
            best_p, best_o, best_s = tp, to, s
    return best_p, best_o, best_s
