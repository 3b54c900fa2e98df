"""Input planes and symmetries agree with the bitboard kernels."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from bitflip.core import bitboard as bb  # noqa: E402
from bitflip.core.board import Board  # noqa: E402
from bitflip.nn.encode import (  # noqa: E402
    FEATURE_SETS,
    SQUARE_TABLE,
    apply_symmetry,
    bit_batch,
    boards_batch,
    encode,
    legal_mask,
    random_symmetries,
    resolve_features,
)


def test_start_position_planes() -> None:
    batch = boards_batch([Board()])
    x = encode(batch, FEATURE_SETS["freemove"])
    assert x.shape == (1, 7, 8, 8)
    own, opp, empty, border, cxc, legal, opp_legal = x[0]
    # black to move: d5 (row 4, col 3) and e4 (row 3, col 4) are black
    assert own[4, 3] == 1 and own[3, 4] == 1 and own.sum() == 2
    assert opp[3, 3] == 1 and opp[4, 4] == 1 and opp.sum() == 2
    assert empty.sum() == 60
    assert border.sum() == 28
    assert (cxc == 4).sum() == 4 and (cxc == -1).sum() == 4 and (cxc == 1).sum() == 8
    assert cxc[0, 0] == 4 and cxc[1, 1] == -1 and cxc[0, 1] == 1 and cxc[6, 7] == 1
    assert legal.sum() == 4 and legal[2, 3] == 1  # d3
    assert opp_legal.sum() == 4
    assert legal_mask(batch)[0].sum() == 4


def test_high_bit_positions_decode() -> None:
    p = np.array([np.uint64(1) << np.uint64(63)], dtype=np.uint64)
    o = np.array([np.uint64(1)], dtype=np.uint64)
    x = encode(bit_batch(p, o), ("own", "opponent"))
    assert x[0, 0, 7, 7] == 1 and x[0, 0].sum() == 1
    assert x[0, 1, 0, 0] == 1 and x[0, 1].sum() == 1


@pytest.mark.parametrize("sym", range(8))
def test_plane_symmetry_matches_bitboard_transform(sym: int) -> None:
    cells = np.random.default_rng(sym).integers(0, 3, size=(20, 64))  # any discs, legal or not
    weights = np.uint64(1) << np.arange(64, dtype=np.uint64)
    p = ((cells == 1) * weights).sum(axis=1, dtype=np.uint64)
    o = ((cells == 2) * weights).sum(axis=1, dtype=np.uint64)
    planes = encode(bit_batch(p, o), ("own", "opponent"))
    tp = np.array([bb.transform(x, sym, 8) for x in p], dtype=np.uint64)
    to = np.array([bb.transform(x, sym, 8) for x in o], dtype=np.uint64)
    expected = encode(bit_batch(tp, to), ("own", "opponent"))
    assert torch.equal(apply_symmetry(planes, sym), expected)
    for sq in range(64):
        target = int(bb.transform(np.uint64(1 << sq), sym, 8)).bit_length() - 1
        assert int(SQUARE_TABLE[sym, sq]) == target


def test_random_symmetries_keep_moves_on_their_legal_squares() -> None:
    boards = []
    rng = np.random.default_rng(1)
    b = Board()
    for _ in range(30):
        boards.append(b.copy(stack=False))
        moves = list(b.legal_moves)
        b.push(moves[int(rng.integers(len(moves)))])
    batch = boards_batch(boards)
    planes = encode(batch, FEATURE_SETS["policy"])
    moves = torch.tensor([int(legal_mask(batch)[i].nonzero()[0, 0]) for i in range(len(boards))])
    out, new_moves = random_symmetries(planes, moves, torch.Generator().manual_seed(0))
    assert new_moves is not None
    legal = out[:, 2].flatten(1)
    assert bool((legal[torch.arange(len(boards)), new_moves] == 1).all())
    assert torch.equal(out[:, 0].sum((1, 2)), planes[:, 0].sum((1, 2)))
    assert not torch.equal(out, planes)  # 7 of the 8 runs are moved


def test_feature_names_are_checked() -> None:
    assert resolve_features("raw") == ("own", "opponent", "empty")
    assert resolve_features(["own", "legal"]) == ("own", "legal")
    with pytest.raises(ValueError, match="unknown feature set"):
        resolve_features("rawr")
    with pytest.raises(ValueError, match="unknown input planes"):
        resolve_features(["own", "sparkle"])
    with pytest.raises(ValueError, match="8x8"):
        boards_batch([Board(size=6)])
