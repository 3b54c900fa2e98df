"""Random-rollout evaluation: plain MCTS without a network (agent ``mcts:sims=N``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from bitflip.core.bitboard import legal_moves, play, popcount, random_square
from bitflip.core.geometry import board_mask


@njit(cache=True)
def random_playout(p: np.uint64, o: np.uint64, mask: np.uint64) -> float:
    """Play uniformly random moves to the end; +1 / 0 / -1 for the side to move at the start."""
    sign = 1.0
    passes = 0
    while passes < 2:
        moves = legal_moves(p, o, mask)
        if moves == 0:
            passes += 1
            p, o = o, p
        else:
            passes = 0
            p, o = play(p, o, random_square(moves))
        sign = -sign
    diff = popcount(p) - popcount(o)
    if diff == 0:
        return 0.0
    return sign if diff > 0 else -sign


@njit(cache=True)
def rollout_values(
    p: np.ndarray, o: np.ndarray, mask: np.uint64, rollouts: int, seed: int
) -> np.ndarray:
    """Mean result of ``rollouts`` random playouts from each position."""
    np.random.seed(seed)
    out = np.empty(p.shape[0], np.float32)
    for i in range(p.shape[0]):
        total = 0.0
        for _ in range(rollouts):
            total += random_playout(p[i], o[i], mask)
        out[i] = total / rollouts
    return out


class RolloutPolicyValue:
    """Uniform priors and the mean of random playouts as the value."""

    def __init__(self, size: int = 8, rollouts: int = 1, seed: int | None = None) -> None:
        if rollouts < 1:
            raise ValueError(f"rollouts must be >= 1, not {rollouts}")
        self.size = size
        self.rollouts = rollouts
        self.mask = board_mask(size)
        self.rng = np.random.default_rng(seed)

    def evaluate(self, p: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        policy = np.ones((p.shape[0], 65), np.float32)
        seed = int(self.rng.integers(2**31))
        values = rollout_values(
            np.ascontiguousarray(p, np.uint64),
            np.ascontiguousarray(o, np.uint64),
            self.mask,
            self.rollouts,
            seed,
        )
        return policy, values
