"""The eight features of the FIREBRAND report, with its time-dependent weights.

``value = sum_i w_i * F_i * (2t + W_i * (1 - 2t))`` in discs, ``t`` = game progress from 0 (start)
to 1 (full board): ``w_i`` is the weight at mid-game (t = 1/2), ``W_i`` scales it at the start,
and the factor moves linearly to ``2 - W_i`` at the end. Every ``F_i`` is a difference "side to
move minus opponent" and invariant under the board symmetries.

The features (:data:`FIREBRAND_FEATURES`):

0. ``corners``: corners held.
1. ``corner_neighbours``: discs on the X- and C-squares of still-empty corners.
2. ``edges``: discs on edge squares other than corners and C-squares.
3. ``rings``: discs on the 4 concentric rings, ring r (0 = the edge, 3 = the centre) counting
   r / 3: a centrality score (quiet, inner discs).
4. ``discs``: disc count.
5. ``mobility``: legal moves.
6. ``locked``: locked discs (no empty neighbour) minus edge discs with an empty neighbour.
7. ``edge_runs``: discs in runs along an edge anchored at an own corner.

:func:`firebrand_features` is public: the TD-learning code fits ``w`` and ``W`` over it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from bitflip.core.bitboard import NOT_A, NOT_H, legal_moves, popcount
from bitflip.core.jit import kernel
from bitflip.eval.features import (
    C_SQUARES,
    CORNER_NEIGHBOURS,
    CORNERS,
    board_size,
    game_progress,
    neighbours,
)
from bitflip.eval.fileformat import check_header

FIREBRAND_FEATURES: tuple[str, ...] = (
    "corners",
    "corner_neighbours",
    "edges",
    "rings",
    "discs",
    "mobility",
    "locked",
    "edge_runs",
)
NUM_FIREBRAND = len(FIREBRAND_FEATURES)
FIREBRAND_FORMAT = "bitflip-firebrand"
FIREBRAND_VERSION = 1

_S1 = np.uint64(1)
_S8 = np.uint64(8)


def _ring_masks() -> tuple[np.ndarray, np.ndarray]:
    # rings[size, r]: squares at distance r from the edge; edge[size]: the outer ring.
    rings = np.zeros((9, 4), dtype=np.uint64)
    edge = np.zeros(9, dtype=np.uint64)
    for s in (4, 6, 8):
        for r in range(s):
            for c in range(s):
                d = min(r, c, s - 1 - r, s - 1 - c)
                rings[s, d] |= np.uint64(1 << (8 * r + c))
        edge[s] = rings[s, 0]
    return rings, edge


RINGS, EDGES = _ring_masks()


@njit(cache=True)
def _edge_runs(p: np.uint64, edge: np.uint64, corners: np.uint64) -> np.uint64:
    # Grow p's corners along the edge through p's own discs.
    r = p & corners
    ep = p & edge
    for _ in range(7):
        grow = ((r << _S1) & NOT_A) | ((r >> _S1) & NOT_H) | (r << _S8) | (r >> _S8)
        r |= grow & ep
    return r


@njit(cache=True)
def _firebrand(
    p: np.uint64, o: np.uint64, mask: np.uint64
) -> tuple[float, float, float, float, float, float, float, float]:
    # The features as a tuple (no allocation inside search).
    size = board_size(mask)
    corners = CORNERS[size]
    edge = EDGES[size]
    empty = mask & ~(p | o)
    occ = p | o
    f0 = float(popcount(p & corners) - popcount(o & corners))
    f1 = 0.0
    for k in range(4):
        if CORNER_NEIGHBOURS[size, k, 0] & occ:
            continue
        near = CORNER_NEIGHBOURS[size, k, 1] | CORNER_NEIGHBOURS[size, k, 2]
        f1 += popcount(p & near) - popcount(o & near)
    plain_edge = edge & ~corners & ~C_SQUARES[size]
    f2 = float(popcount(p & plain_edge) - popcount(o & plain_edge))
    nrings = size // 2
    f3 = 0.0
    for r in range(1, nrings):
        f3 += (popcount(p & RINGS[size, r]) - popcount(o & RINGS[size, r])) * r / (nrings - 1)
    f4 = float(popcount(p) - popcount(o))
    f5 = float(popcount(legal_moves(p, o, mask)) - popcount(legal_moves(o, p, mask)))
    near_empty = neighbours(empty, mask)
    loose_edge = edge & ~corners & near_empty
    f6 = float(
        (popcount(p & ~near_empty) - popcount(o & ~near_empty))
        - (popcount(p & loose_edge) - popcount(o & loose_edge))
    )
    f7 = float(popcount(_edge_runs(p, edge, corners)) - popcount(_edge_runs(o, edge, corners)))
    return (f0, f1, f2, f3, f4, f5, f6, f7)


@njit(cache=True)
def firebrand_features(p: np.uint64, o: np.uint64, mask: np.uint64) -> np.ndarray:
    """The 8 FIREBRAND features of (p, o), side to move minus opponent, as float64[8].

    Public for learning code (TD(lambda) fits ``w`` and ``W`` over these values).
    """
    f = _firebrand(p, o, mask)
    out = np.empty(NUM_FIREBRAND, dtype=np.float64)
    for i in range(NUM_FIREBRAND):
        out[i] = f[i]
    return out


@kernel()
def firebrand_score(p: np.uint64, o: np.uint64, mask: np.uint64, w: np.ndarray) -> float:
    """The FIREBRAND value in discs; ``w[:8]`` are the w_i, ``w[8:16]`` the W_i."""
    f = _firebrand(p, o, mask)
    t = game_progress(p, o, mask)
    s = 0.0
    for i in range(NUM_FIREBRAND):
        s += w[i] * f[i] * (2.0 * t + w[NUM_FIREBRAND + i] * (1.0 - 2.0 * t))
    return s


@dataclass
class FirebrandWeights:
    """FIREBRAND weights: ``w`` (mid-game weight) and ``W`` (start-of-game factor) per feature."""

    w: np.ndarray
    W: np.ndarray
    lineage: dict[str, str] = field(default_factory=dict)
    """How the weights were made (free text: source, data, date)."""

    def vector(self) -> np.ndarray:
        """The flat vector ``evaluate`` takes: w then W."""
        return np.concatenate([self.w, self.W]).astype(np.float64)

    def save(self, path: str | Path) -> None:
        doc = {
            "format": FIREBRAND_FORMAT,
            "version": FIREBRAND_VERSION,
            "features": list(FIREBRAND_FEATURES),
            "w": [float(x) for x in self.w],
            "W": [float(x) for x in self.W],
            "lineage": self.lineage,
        }
        Path(path).write_text(json.dumps(doc, indent=2) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> FirebrandWeights:
        """Read a weights file; raises ValueError naming the file and what is wrong."""
        try:
            doc = json.loads(Path(path).read_text())
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: not a FIREBRAND weights file (bad JSON: {exc})") from exc
        return cls.from_dict(doc, str(path))

    @classmethod
    def from_dict(cls, doc: object, where: str = "<dict>") -> FirebrandWeights:
        doc = check_header(doc, where, "FIREBRAND weights", FIREBRAND_FORMAT, FIREBRAND_VERSION)
        if tuple(doc.get("features", ())) != FIREBRAND_FEATURES:
            raise ValueError(
                f"{where}: feature list {doc.get('features')!r} does not match "
                f"{list(FIREBRAND_FEATURES)}"
            )
        try:
            w = np.array(doc["w"], dtype=np.float64)
            big_w = np.array(doc["W"], dtype=np.float64)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{where}: bad or missing 'w'/'W' arrays ({exc})") from exc
        if w.shape != (NUM_FIREBRAND,) or big_w.shape != (NUM_FIREBRAND,):
            raise ValueError(f"{where}: 'w' and 'W' must each hold {NUM_FIREBRAND} numbers")
        if not (np.isfinite(w).all() and np.isfinite(big_w).all()):
            raise ValueError(f"{where}: weights must be finite numbers")
        lineage = doc.get("lineage", {})
        return cls(w, big_w, {str(k): str(v) for k, v in dict(lineage).items()})


def hand_firebrand_weights() -> FirebrandWeights:
    """Hand-set weights in discs, in the spirit of the report (used when no file is shipped)."""
    w = np.array([7.0, -2.5, 0.5, 0.3, 0.3, 1.0, 0.4, 1.2])
    big_w = np.array([1.2, 1.4, 1.0, 1.8, -0.6, 1.5, 1.0, 1.0])
    return FirebrandWeights(w, big_w, {"source": "hand-set in bitflip.eval.firebrand"})
