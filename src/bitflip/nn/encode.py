"""Input planes for the networks, and the 8 board symmetries applied to them.

Positions arrive as packed bitboards (see :mod:`bitflip.learn.shards`) and are turned into
8x8 planes on the device that trains, so a GPU never waits on the CPU for decoding. The
planes a network sees are named in its config:

=================== ===================================================================
plane               value on each square
=================== ===================================================================
``own``             1 where the side to move has a disc
``opponent``        1 where the other side has a disc
``empty``           1 on empty squares
``border``          1 on the outer ring of squares (HKU report's border plane)
``corner_xc``       4 on corners, -1 on X squares, 1 on C squares, 0 elsewhere (HKU)
``legal``           1 on the legal moves of the side to move
``opponent_legal``  1 on the moves the other side would have (HKU "freemove" planes)
=================== ===================================================================

The HKU value-network inputs are the :data:`FEATURE_SETS` ``raw``, ``border``, ``cxc`` and
``freemove``; the Liskowski policy network uses ``policy`` (own, opponent, legal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from bitflip.core.arrays import legal_moves_many, symmetry_square_table
from bitflip.core.bitboard import FULL
from bitflip.core.board import Board
from bitflip.core.geometry import PASS

PLANES = ("own", "opponent", "empty", "border", "corner_xc", "legal", "opponent_legal")

FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "raw": ("own", "opponent", "empty"),
    "border": ("own", "opponent", "empty", "border"),
    "cxc": ("own", "opponent", "empty", "border", "corner_xc"),
    "freemove": ("own", "opponent", "empty", "border", "corner_xc", "legal", "opponent_legal"),
    "policy": ("own", "opponent", "legal"),
}
"""Named input sets: the HKU report's ablation (raw, +border, +corner/X/C, +freemove) and the
policy network's three planes."""

_SHIFTS = torch.arange(64, dtype=torch.int64)


def _static_planes() -> dict[str, np.ndarray]:
    border = np.zeros((8, 8), dtype=np.float32)
    border[0, :] = border[-1, :] = border[:, 0] = border[:, -1] = 1
    cxc = np.zeros((8, 8), dtype=np.float32)
    for r, c in ((0, 0), (0, 7), (7, 0), (7, 7)):
        cxc[r, c] = 4
        dr = 1 if r == 0 else -1
        dc = 1 if c == 0 else -1
        cxc[r + dr, c + dc] = -1  # X square
        cxc[r + dr, c] = 1  # C squares
        cxc[r, c + dc] = 1
    return {"border": border, "corner_xc": cxc}


STATIC_PLANES = _static_planes()


def resolve_features(features: str | Sequence[str]) -> tuple[str, ...]:
    """A feature-set name or a list of plane names -> the checked tuple of plane names."""
    if isinstance(features, str):
        if features not in FEATURE_SETS:
            raise ValueError(f"unknown feature set {features!r}; known: {', '.join(FEATURE_SETS)}")
        return FEATURE_SETS[features]
    planes = tuple(features)
    unknown = [p for p in planes if p not in PLANES]
    if unknown or not planes:
        raise ValueError(f"unknown input planes {unknown}; known: {', '.join(PLANES)}")
    return planes


@dataclass
class BitBatch:
    """Packed positions as int64 tensors (uint64 bits reinterpreted), all on one device."""

    player: torch.Tensor
    opponent: torch.Tensor
    legal: torch.Tensor
    opponent_legal: torch.Tensor

    def __len__(self) -> int:
        return int(self.player.shape[0])

    def index(self, idx: torch.Tensor) -> BitBatch:
        return BitBatch(
            self.player[idx], self.opponent[idx], self.legal[idx], self.opponent_legal[idx]
        )

    def to(self, device: torch.device | str) -> BitBatch:
        return BitBatch(
            self.player.to(device),
            self.opponent.to(device),
            self.legal.to(device),
            self.opponent_legal.to(device),
        )


def as_int64(x: np.ndarray) -> torch.Tensor:
    """uint64 bitboards as an int64 tensor with the same bits (torch has no uint64 maths)."""
    return torch.from_numpy(np.ascontiguousarray(x, dtype=np.uint64).view(np.int64))


def bit_batch(
    player: np.ndarray, opponent: np.ndarray, legal: np.ndarray | None = None
) -> BitBatch:
    """Packed uint64 arrays -> a BitBatch on the CPU (legal moves computed when not given)."""
    player = np.asarray(player, dtype=np.uint64)
    opponent = np.asarray(opponent, dtype=np.uint64)
    if legal is None:
        legal = legal_moves_many(player, opponent, FULL)
    return BitBatch(
        as_int64(player),
        as_int64(opponent),
        as_int64(np.asarray(legal, dtype=np.uint64)),
        as_int64(legal_moves_many(opponent, player, FULL)),
    )


def boards_batch(boards: Sequence[Board]) -> BitBatch:
    """A BitBatch of 8x8 boards, each seen from its side to move."""
    sides = [b.side_bitboards() for b in boards]
    if any(b.size != 8 for b in boards):
        raise ValueError("the networks read 8x8 boards only")
    p = np.array([s[0] for s in sides], dtype=np.uint64)
    o = np.array([s[1] for s in sides], dtype=np.uint64)
    return bit_batch(p, o)


def unpack_bits(x: torch.Tensor) -> torch.Tensor:
    """int64 bitboards (N,) -> float planes (N, 8, 8), square ``8 * row + col`` at [row, col]."""
    shifts = _SHIFTS.to(x.device)
    return ((x.unsqueeze(1) >> shifts) & 1).to(torch.float32).view(-1, 8, 8)


def encode(batch: BitBatch, features: Sequence[str]) -> torch.Tensor:
    """The input planes (N, C, 8, 8) named by ``features`` (see the module docstring)."""
    n = len(batch)
    device = batch.player.device
    out = []
    own = opp = None
    for name in features:
        if name == "own":
            own = unpack_bits(batch.player) if own is None else own
            out.append(own)
        elif name == "opponent":
            opp = unpack_bits(batch.opponent) if opp is None else opp
            out.append(opp)
        elif name == "empty":
            own = unpack_bits(batch.player) if own is None else own
            opp = unpack_bits(batch.opponent) if opp is None else opp
            out.append(1.0 - own - opp)
        elif name == "legal":
            out.append(unpack_bits(batch.legal))
        elif name == "opponent_legal":
            out.append(unpack_bits(batch.opponent_legal))
        elif name in STATIC_PLANES:
            plane = torch.from_numpy(STATIC_PLANES[name]).to(device)
            out.append(plane.expand(n, 8, 8))
        else:
            raise ValueError(f"unknown input plane {name!r}")
    return torch.stack(out, dim=1)


def legal_mask(batch: BitBatch) -> torch.Tensor:
    """Boolean (N, 64) mask of the mover's legal moves."""
    shifts = _SHIFTS.to(batch.legal.device)
    return ((batch.legal.unsqueeze(1) >> shifts) & 1).bool()


# --- symmetries -------------------------------------------------------------------------------


def apply_symmetry(planes: torch.Tensor, sym: int) -> torch.Tensor:
    """Symmetry ``sym`` (as :func:`bitflip.core.bitboard.transform`) on (..., 8, 8) planes."""
    if sym & 4:
        planes = planes.transpose(-1, -2)
    if sym & 2:
        planes = planes.flip(-2)
    if sym & 1:
        planes = planes.flip(-1)
    return planes


SQUARE_TABLE = torch.from_numpy(
    np.concatenate([symmetry_square_table(), np.full((8, 1), PASS, np.int64)], axis=1)
)
"""``SQUARE_TABLE[s, sq]``: where symmetry s sends square sq (PASS stays PASS)."""


def random_symmetries(
    planes: torch.Tensor,
    moves: torch.Tensor | None = None,
    generator: torch.Generator | None = None,
) -> tuple[torch.Tensor, torch.Tensor | None]:
    """Every position under one of the 8 symmetries; moves follow their board.

    The batch is cut into 8 near-equal runs and each run gets its own symmetry (which one is
    drawn with ``generator``); batches are drawn in random order, so every position meets
    every symmetry, and nothing waits on the GPU. ``planes`` is (N, C, 8, 8), ``moves`` (N,)
    squares 0..63 or None. Returns new tensors.
    """
    n = planes.shape[0]
    offset = int(torch.randint(0, 8, (1,), generator=generator))
    bounds = [round(k * n / 8) for k in range(9)]
    table = SQUARE_TABLE.to(planes.device)
    parts, move_parts = [], []
    for k in range(8):
        a, b = bounds[k], bounds[k + 1]
        if a == b:
            continue
        s = (k + offset) % 8
        parts.append(apply_symmetry(planes[a:b], s))
        if moves is not None:
            move_parts.append(table[s][moves[a:b]])
    out = torch.cat(parts).contiguous()
    return out, (torch.cat(move_parts) if moves is not None else None)
