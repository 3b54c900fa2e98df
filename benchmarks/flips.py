"""Nanoseconds a call of ``flips`` (and of the solver's last-empty count) on random positions.

    PYTHONPATH=src python benchmarks/flips.py

Random discs and a random empty square: the outflanks are unpredictable, as in a search, so
branches would mispredict. Results are in RESULTS-search.md.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from bitflip.core.bitboard import flips
from bitflip.search.endgame_small import _last1

N = 1 << 16
REPS = 50


def positions(full: bool, seed: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(p, o, square) arrays; ``full``: every other square taken (the last empty)."""
    rng = np.random.default_rng(seed)
    p = np.zeros(N, np.uint64)
    o = np.zeros(N, np.uint64)
    sq = rng.integers(0, 64, N)
    for i in range(N):
        kinds = rng.integers(1 if full else 0, 3, 64)
        kinds[sq[i]] = 0
        p[i] = np.uint64(sum(1 << k for k in range(64) if kinds[k] == 1))
        o[i] = np.uint64(sum(1 << k for k in range(64) if kinds[k] == 2))
    return p, o, sq


@njit
def _time_flips(p: np.ndarray, o: np.ndarray, sq: np.ndarray, reps: int) -> np.uint64:
    acc = np.uint64(0)
    for _ in range(reps):
        for i in range(p.shape[0]):
            acc ^= flips(p[i], o[i], sq[i])
    return acc


@njit
def _time_last1(p: np.ndarray, o: np.ndarray, sq: np.ndarray, reps: int) -> int:
    acc = 0
    for _ in range(reps):
        for i in range(p.shape[0]):
            acc += _last1(p[i], o[i], sq[i])
    return acc


def main() -> None:
    for name, kernel, full in (
        ("flips, random boards", _time_flips, False),
        ("flips, full boards", _time_flips, True),
        ("last empty score, full boards", _time_last1, True),
    ):
        p, o, sq = positions(full)
        kernel(p, o, sq, 1)
        t = time.perf_counter()
        kernel(p, o, sq, REPS)
        ns = (time.perf_counter() - t) / (REPS * N) * 1e9
        print(f"{name}: {ns:.1f} ns a call")


if __name__ == "__main__":
    main()
