"""Many boards stepped at once in numba: a vectorised self-play environment.

Each of ``n`` boards is kept from its side to move's view. ``step(actions)`` plays one move on
every board (a square 0-63 in 8x8 numbering; boards whose mover has no move pass by
themselves, so a pass is never asked for), flips the view, and restarts finished boards. The
reward is for the side that just moved: +1 / 0 / -1 when its move ended the game, else 0.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from bitflip.core import parallel
from bitflip.core.arrays import legal_moves_inline as legal_moves
from bitflip.core.arrays import play_inline as play
from bitflip.core.arrays import random_moves
from bitflip.core.bitboard import U1, popcount
from bitflip.core.geometry import board_mask, geometry


def _step(
    p: np.ndarray, o: np.ndarray, actions: np.ndarray, mask: np.uint64, p0: np.uint64,
    o0: np.uint64, rewards: np.ndarray, dones: np.ndarray, illegal: np.ndarray,
    legal: np.ndarray
) -> None:  # fmt: skip
    """One step of every board; compiled serial and parallel (see :mod:`bitflip.core.parallel`)."""
    for i in prange(p.shape[0]):
        a = actions[i]
        rewards[i] = 0.0
        dones[i] = False
        illegal[i] = False
        if a < 0 or a > 63 or not (legal_moves(p[i], o[i], mask) >> np.uint64(a)) & U1:
            illegal[i] = True
            rewards[i] = -1.0
            dones[i] = True
            np_, no_ = p0, o0
        else:
            np_, no_ = play(p[i], o[i], a)
            if legal_moves(np_, no_, mask) == 0:
                if legal_moves(no_, np_, mask) == 0:
                    d = popcount(no_) - popcount(np_)  # the mover's discs are now no_
                    rewards[i] = 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
                    dones[i] = True
                    np_, no_ = p0, o0
                else:  # the next side must pass: the mover moves again
                    np_, no_ = no_, np_
        p[i] = np_
        o[i] = no_
        legal[i] = legal_moves(np_, no_, mask)


_step_serial, _step_parallel = parallel.serial_and_parallel(_step)

random_actions = random_moves
"""A uniformly random legal square per board (numba; :func:`bitflip.core.arrays.random_moves`)."""


class VectorOthello:
    """``n`` Othello boards stepped in one numba call.

    >>> env = VectorOthello(4, size=6)
    >>> p, o, legal = env.reset()
    >>> r, done = env.step(random_actions(legal, 0))
    >>> p.shape, bool(done.any())
    ((4,), False)
    """

    def __init__(self, n: int, size: int = 8) -> None:
        self.n = n
        self.size = size
        self.mask = board_mask(size)
        black, white = geometry(size).start_position()
        self.p0, self.o0 = np.uint64(black), np.uint64(white)
        self.p = np.full(n, self.p0, np.uint64)
        self.o = np.full(n, self.o0, np.uint64)
        self.legal = np.full(n, legal_moves(self.p0, self.o0, self.mask), np.uint64)
        self.rewards = np.zeros(n, np.float32)
        self.dones = np.zeros(n, np.bool_)
        self.illegal = np.zeros(n, np.bool_)

    def reset(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """All boards at the start: (player discs, opponent discs, legal moves), uint64 (n,)."""
        self.p[:] = self.p0
        self.o[:] = self.o0
        self.legal[:] = legal_moves(self.p0, self.o0, self.mask)
        return self.p, self.o, self.legal

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Play ``actions`` (n,) squares; returns (rewards for the movers, done flags).

        Boards update in place (``self.p``, ``self.o``, ``self.legal``); finished boards restart;
        an illegal action ends that board's game with reward -1 and sets ``self.illegal``.
        """
        parallel.call(_step_serial, _step_parallel, 4 * self.n, self.p, self.o,
                      np.asarray(actions, np.int64), self.mask, self.p0, self.o0, self.rewards,
                      self.dones, self.illegal, self.legal)  # fmt: skip
        return self.rewards, self.dones
