from __future__ import annotations

import numpy as np
import pytest

from bitflip.core.bitboard import transform
from bitflip.core.board import Board
from bitflip.core.geometry import board_mask
from bitflip.eval.features import (
    FEATURE_NAMES,
    corner_features,
    feature_vector,
    frontier,
    potential_mobility,
    stable_discs,
)

from ._positions import random_game, random_positions

MASK = board_mask(8)


def sides(obf: str) -> tuple[np.uint64, np.uint64, np.uint64]:
    b = Board(obf)
    p, o = b.side_bitboards()
    return np.uint64(p), np.uint64(o), np.uint64(b.geometry.mask)


def feat(obf: str) -> dict[str, float]:
    p, o, mask = sides(obf)
    return dict(zip(FEATURE_NAMES, feature_vector(p, o, mask), strict=True))


def bits(x: np.uint64) -> set[int]:
    return {s for s in range(64) if int(x) >> s & 1}


def board(rows: list[str], side: str = "X") -> str:
    return "".join(rows) + " " + side


EMPTY = "--------"


def test_start_position() -> None:
    f = feat(Board().obf())
    assert f["parity"] == -1.0  # 60 empties
    assert all(v == 0.0 for k, v in f.items() if k != "parity")
    assert feat(Board().obf())["mobility"] == 0.0


def test_corner_x_and_c_squares() -> None:
    # X on a1 (corner), X on g2 (X-square of empty h1), O on b1 (C-square of a1, which is taken).
    rows = ["XO------", "------X-", EMPTY, "---OX---", "---XO---", EMPTY, EMPTY, EMPTY]
    p, o, mask = sides(board(rows))
    assert corner_features(p, o, mask) == (1, 1, 0)
    # Once h1 is taken the X-square no longer counts; g1 (C of h1) does not either.
    rows[0] = "XO----OO"
    p, o, mask = sides(board(rows))
    assert corner_features(p, o, mask) == (0, 0, 0)


def test_stable_edge_run_and_full_board() -> None:
    rows = ["XXXO----", EMPTY, EMPTY, "---OX---", "---XO---", EMPTY, EMPTY, EMPTY]
    p, o, mask = sides(board(rows))
    sp, so = stable_discs(p, o, mask)
    assert bits(sp) == {0, 1, 2}
    assert bits(so) == set()
    full = Board("X" * 40 + "O" * 24 + " O")
    p, o = (np.uint64(x) for x in full.side_bitboards())
    sp, so = stable_discs(p, o, MASK)
    assert int(sp) | int(so) == (1 << 64) - 1


def test_stable_needs_own_neighbours() -> None:
    # O on b1 next to X's corner: the row b1-h1 has empties, so b1 can still be flipped.
    rows = ["XO------", EMPTY, EMPTY, "---OX---", "---XO---", EMPTY, EMPTY, EMPTY]
    p, o, mask = sides(board(rows))
    sp, so = stable_discs(p, o, mask)
    assert bits(sp) == {0} and bits(so) == set()


@pytest.mark.parametrize("size", [8, 6])
def test_stable_discs_never_flip(size: int) -> None:
    # Soundness: a disc called stable keeps its colour for the rest of the game.
    rng = np.random.default_rng(7)
    mask = board_mask(size)
    for _ in range(15):
        game = random_game(rng, size)
        # Track absolute colours: positions alternate views, so follow ownership per square.
        for i, (p, o) in enumerate(game):
            sp, so = stable_discs(p, o, mask)
            for q, r in game[i + 1 :]:
                # Each stable disc of p is still a disc of whichever side owns p's colour.
                still = (int(sp) & int(q)) == int(sp) or (int(sp) & int(r)) == int(sp)
                assert still
                assert (int(so) & int(q)) == int(so) or (int(so) & int(r)) == int(so)


def test_frontier_and_potential_mobility() -> None:
    p, o, mask = sides(Board().obf())
    # At the start every disc touches an empty square; 10 empties touch a white disc.
    assert bits(frontier(p, o, mask)) == bits(p)
    assert len(bits(potential_mobility(p, o, mask))) == 10


def test_parity_odd() -> None:
    b = Board()
    b.push("f5")
    assert feat(b.obf())["parity"] == 1.0


@pytest.mark.parametrize("size", [8, 6, 4])
def test_features_symmetric_and_antisymmetric(size: int) -> None:
    mask = board_mask(size)
    for p, o in random_positions(30, seed=size, size=size):
        f = feature_vector(p, o, mask)
        g = feature_vector(o, p, mask)
        # Colour swap negates every difference (parity depends only on empties).
        assert np.allclose(f[:8], -g[:8]) and np.isclose(f[9], -g[9])
        for sym in range(8):
            q = np.uint64(transform(p, sym, size))
            r = np.uint64(transform(o, sym, size))
            assert np.allclose(feature_vector(q, r, mask), f)
