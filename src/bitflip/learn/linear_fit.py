"""Least-squares calibration of the linear evaluations (``features``, ``firebrand``) on samples.

Both are linear in their weights once the phase factor is expanded: ``features`` interpolates
an opening and an ending weight per feature, ``(1 - t) * a_i + t * b_i``; FIREBRAND's
``w_i * (2t + W_i * (1 - 2t))`` is ``a_i * 2t + b_i * (1 - 2t)`` with ``a_i = w_i`` and
``b_i = w_i * W_i``. One ridge regression on ``[F * u, F * v]`` then gives both weight sets.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bitflip.core.bitboard import FULL
from bitflip.eval.features import NUM_FEATURES, feature_vector, game_progress
from bitflip.eval.firebrand import NUM_FIREBRAND, FirebrandWeights, firebrand_features


@njit(cache=True)
def _design(p: np.ndarray, o: np.ndarray, firebrand: bool) -> np.ndarray:
    n_f = NUM_FIREBRAND if firebrand else NUM_FEATURES
    x = np.zeros((p.shape[0], 2 * n_f), dtype=np.float64)
    for i in range(p.shape[0]):
        f = firebrand_features(p[i], o[i], FULL) if firebrand else feature_vector(p[i], o[i], FULL)
        t = game_progress(p[i], o[i], FULL)
        u, v = (2.0 * t, 1.0 - 2.0 * t) if firebrand else (1.0 - t, t)
        for k in range(n_f):
            x[i, k] = f[k] * u
            x[i, n_f + k] = f[k] * v
    return x


def _ridge(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    a = x.T @ x + ridge * len(y) * np.eye(x.shape[1])
    return np.linalg.solve(a, x.T @ y)


def fit_features(
    p: np.ndarray, o: np.ndarray, target: np.ndarray, ridge: float = 1e-4
) -> np.ndarray:
    """Opening and ending weights (the ``features`` weight vector) fitted to ``target`` (discs)."""
    return _ridge(_design(p, o, False), target.astype(np.float64), ridge)


def fit_firebrand(
    p: np.ndarray, o: np.ndarray, target: np.ndarray, ridge: float = 1e-4
) -> FirebrandWeights:
    """FIREBRAND ``w`` and ``W`` fitted to ``target`` (discs); ``W = b / w`` where ``w`` != 0."""
    coef = _ridge(_design(p, o, True), target.astype(np.float64), ridge)
    w = coef[:NUM_FIREBRAND]
    b = coef[NUM_FIREBRAND:]
    big_w = np.where(np.abs(w) > 1e-9, b / np.where(np.abs(w) > 1e-9, w, 1.0), 1.0)
    return FirebrandWeights(w, big_w)
