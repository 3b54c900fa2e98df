"""Random positions from random games, shared by the evaluation tests."""

from __future__ import annotations

import numpy as np

from bitflip.core.bitboard import legal_moves, play
from bitflip.core.geometry import board_mask, geometry


def random_game(rng: np.random.Generator, size: int = 8) -> list[tuple[np.uint64, np.uint64]]:
    """Every position (side to move's view) of one random game, the final one included."""
    mask = board_mask(size)
    black, white = geometry(size).start_position()
    p, o = np.uint64(black), np.uint64(white)
    out = [(p, o)]
    passes = 0
    while passes < 2:
        moves = int(legal_moves(p, o, mask))
        if moves == 0:
            p, o = o, p
            passes += 1
        else:
            squares = [s for s in range(64) if moves >> s & 1]
            sq = int(rng.choice(squares))
            p, o = play(p, o, sq)
            p, o = np.uint64(p), np.uint64(o)
            passes = 0
        out.append((p, o))
    return out


def random_positions(n: int, seed: int = 0, size: int = 8) -> list[tuple[np.uint64, np.uint64]]:
    """``n`` positions drawn from random games at every stage."""
    rng = np.random.default_rng(seed)
    out: list[tuple[np.uint64, np.uint64]] = []
    while len(out) < n:
        game = random_game(rng, size)
        picks = rng.choice(len(game), size=min(6, len(game)), replace=False)
        out.extend(game[int(i)] for i in picks)
    return out[:n]
