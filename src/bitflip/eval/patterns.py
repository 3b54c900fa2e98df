"""Pattern-table evaluation, as in Logistello and Edax (8x8 only).

A pattern is an ordered list of squares; the contents of its squares (0 empty, 1 side to move,
2 opponent) read as a base-3 number index a table of values in discs. Each pattern is used in
all 8 symmetric orientations, and all of them share one table, so the evaluation is exactly
invariant under the board symmetries. One set of tables per game phase (phase = a function of
the number of empties), plus a bias and small tables of whole-board features per phase
(:data:`FEATURES`: each side's mobility and potential mobility, the parity of the empties),
which NTest and Logistello have and a linear weight cannot express: having 1 move is a crisis,
having 12 instead of 11 hardly matters.

Two layouts of the same weights:

* **raw** (what fitting learns and files store): per phase ``[bias, table_0, ..., feature
  tables]`` with one table per pattern; a position reads every table through all 8
  orientations, and one entry of each feature table.
* **folded** (what :func:`patterns_score` reads): orientations that cover the same set of squares
  are merged into one lookup of a table that sums their raw values, leaving 46 lookups per
  position. :func:`fold_weights` builds it; :func:`flat_vector` adds the header below.

The flat vector passed to ``evaluate`` is ``[phase of e empties for e = 0..60, stride,
number of phases, 0]`` (64 header values) then the folded blocks, ``stride`` values per phase.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from bitflip.core.bitboard import SYMMETRY_INVERSE, legal_moves, popcount, transform
from bitflip.core.jit import kernel
from bitflip.eval._pattern_sum import instances_sum
from bitflip.eval.features import neighbours

# Squares are 8 * row + col, a1 = 0 (row 1 at the top).
PATTERNS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("edge2x", (0, 1, 2, 3, 4, 5, 6, 7, 9, 14)),
    ("corner3x3", (0, 1, 2, 8, 9, 10, 16, 17, 18)),
    ("corner2x5", (0, 1, 2, 3, 4, 8, 9, 10, 11, 12)),
    ("row2", (8, 9, 10, 11, 12, 13, 14, 15)),
    ("row3", (16, 17, 18, 19, 20, 21, 22, 23)),
    ("row4", (24, 25, 26, 27, 28, 29, 30, 31)),
    ("diag8", (0, 9, 18, 27, 36, 45, 54, 63)),
    ("diag7", (1, 10, 19, 28, 37, 46, 55)),
    ("diag6", (2, 11, 20, 29, 38, 47)),
    ("diag5", (3, 12, 21, 30, 39)),
    ("diag4", (4, 13, 22, 31)),
)
"""(name, squares of one orientation) of every pattern; the pattern set of format version 1."""

PATTERN_SET = "edax-like-v1"
"""Name of :data:`PATTERNS`, stored in weights files."""

FEATURES: tuple[tuple[str, int], ...] = (
    ("mobility", 32),
    ("opponent_mobility", 32),
    ("potential_mobility", 48),
    ("opponent_potential_mobility", 48),
    ("parity", 2),
)
"""(name, table size) of the whole-board features, in the order :func:`feature_values` gives
them: legal moves of the side to move and of the opponent, empty squares next to an opponent
disc and next to one's own (where moves may come later), each capped at its table's last entry;
and the number of empties modulo 2 (who gets the last move of a region)."""

HEADER = 64
"""Values before the first phase block in the flat vector."""
MAX_EMPTIES = 60
EXTRA = 1
"""Values before the tables in a phase block: the bias."""
MAX_LEN = 10


def _transform_square(sq: int, sym: int) -> int:
    x = int(transform(np.uint64(1 << sq), sym, 8))
    return x.bit_length() - 1


def _digit_remap(n: int, perm: list[int]) -> np.ndarray:
    # For idx with digits d_m (base 3, digit m = square m of the kept ordering), the index read
    # along another ordering whose k-th square is the kept ordering's square perm[k].
    idx = np.arange(3**n, dtype=np.int64)
    digits = np.stack([(idx // 3**m) % 3 for m in range(n)])
    out = np.zeros_like(idx)
    for k in range(n):
        out += digits[perm[k]] * 3**k
    return out


@dataclass(frozen=True)
class PatternLayout:
    """Index arithmetic shared by evaluation, folding and fitting."""

    raw_offsets: np.ndarray
    """Offset of each pattern's table inside a raw phase block (after the EXTRA values)."""
    raw_stride: int
    orient_squares: np.ndarray
    """int64[n_orient, MAX_LEN]: squares of every orientation of every pattern (raw lookups)."""
    orient_len: np.ndarray
    orient_offset: np.ndarray
    """Raw table offset (within a phase block) of each orientation's pattern."""
    inst_squares: np.ndarray
    """int64[n_inst, MAX_LEN]: squares of the kept orientation of each distinct square set."""
    inst_len: np.ndarray
    inst_offset: np.ndarray
    """Folded table offset (within a phase block) of each kept instance."""
    inst_pattern: np.ndarray
    """Pattern of each kept instance."""
    inst_sym: np.ndarray
    """Symmetry that maps the pattern's listed squares onto the kept instance's squares."""
    feature_offsets: np.ndarray
    """Offset of each feature table in a phase block; the same in both layouts' tails (the
    feature tables follow the pattern tables unfolded)."""
    raw_features: int
    """Offset of the first feature table inside a raw phase block."""
    folded_stride: int
    fold_plan: tuple[tuple[int, int, int, tuple[np.ndarray, ...]], ...]
    """(pattern, raw offset, folded offset, remaps): folded = sum of raw[remap] over remaps."""


def _build_layout() -> PatternLayout:
    raw_offsets = []
    off = 0
    for _, sqs in PATTERNS:
        raw_offsets.append(off)
        off += 3 ** len(sqs)
    feature_offsets = np.cumsum([0] + [size for _, size in FEATURES])
    raw_stride = EXTRA + off + int(feature_offsets[-1])

    o_sq: list[list[int]] = []
    o_len: list[int] = []
    o_off: list[int] = []
    i_sq: list[list[int]] = []
    i_len: list[int] = []
    i_off: list[int] = []
    i_pat: list[int] = []
    i_sym: list[int] = []
    plan: list[tuple[int, int, int, tuple[np.ndarray, ...]]] = []
    folded = 0
    for pi, (_, sqs) in enumerate(PATTERNS):
        n = len(sqs)
        orders = [[_transform_square(s, sym) for s in sqs] for sym in range(8)]
        for order in orders:
            o_sq.append(order + [0] * (MAX_LEN - n))
            o_len.append(n)
            o_off.append(EXTRA + raw_offsets[pi])
        groups: dict[frozenset[int], list[list[int]]] = {}
        first_sym: dict[frozenset[int], int] = {}
        for sym, order in enumerate(orders):
            groups.setdefault(frozenset(order), []).append(order)
            first_sym.setdefault(frozenset(order), sym)
        tables: dict[tuple[tuple[int, ...], ...], int] = {}
        for square_set, members in groups.items():
            kept = members[0]
            i_pat.append(pi)
            i_sym.append(first_sym[square_set])
            perms = tuple(sorted(tuple(kept.index(s) for s in m) for m in members))
            if perms not in tables:
                tables[perms] = EXTRA + folded
                remaps = tuple(_digit_remap(n, list(p)) for p in perms)
                plan.append((pi, EXTRA + raw_offsets[pi], EXTRA + folded, remaps))
                folded += 3**n
            i_sq.append(kept + [0] * (MAX_LEN - n))
            i_len.append(n)
            i_off.append(tables[perms])
    return PatternLayout(
        np.array(raw_offsets, dtype=np.int64),
        raw_stride,
        np.array(o_sq, dtype=np.int64),
        np.array(o_len, dtype=np.int64),
        np.array(o_off, dtype=np.int64),
        np.array(i_sq, dtype=np.int64),
        np.array(i_len, dtype=np.int64),
        np.array(i_off, dtype=np.int64),
        np.array(i_pat, dtype=np.int64),
        np.array(i_sym, dtype=np.int64),
        feature_offsets[:-1].astype(np.int64),
        EXTRA + off,
        EXTRA + folded + int(feature_offsets[-1]),
        tuple(plan),
    )


LAYOUT = _build_layout()
ORIENT_SQUARES = LAYOUT.orient_squares
ORIENT_LEN = LAYOUT.orient_len
ORIENT_OFFSET = LAYOUT.orient_offset
INST_SQUARES = LAYOUT.inst_squares
INST_LEN = LAYOUT.inst_len
INST_OFFSET = LAYOUT.inst_offset
FEATURE_OFFSETS = LAYOUT.feature_offsets
RAW_FEATURES = LAYOUT.raw_features
FOLDED_FEATURES = LAYOUT.folded_stride - int(sum(size for _, size in FEATURES))
"""Offset of the first feature table inside a folded phase block."""
SUM_ORDER = np.array(
    sorted(range(len(INST_LEN)), key=lambda i: SYMMETRY_INVERSE[int(LAYOUT.inst_sym[i])]),
    dtype=np.int64,
)
"""The order instances are summed in: grouped by the symmetry they are read through. Every
reader sums in this order, so all of them give the same float."""


def phase_map(n_phases: int) -> np.ndarray:
    """Phase of each number of empties 0..60: equal-width bins, phase 0 = the fewest empties."""
    if not 1 <= n_phases <= MAX_EMPTIES + 1:
        raise ValueError(f"number of phases must be in 1..{MAX_EMPTIES + 1}, not {n_phases}")
    e = np.arange(MAX_EMPTIES + 1)
    return np.minimum(e * n_phases // (MAX_EMPTIES + 1), n_phases - 1).astype(np.int64)


@njit(cache=True)
def pattern_index(p: np.uint64, o: np.uint64, squares: np.ndarray, n: int) -> int:
    """Base-3 index of ``squares[:n]``: digit k is 0 empty, 1 side to move, 2 opponent."""
    idx = 0
    for k in range(n - 1, -1, -1):
        s = np.uint64(squares[k])
        idx = 3 * idx + int((p >> s) & np.uint64(1)) + 2 * int((o >> s) & np.uint64(1))
    return idx


@njit(cache=True)
def orientation_indices(p: np.uint64, o: np.uint64, out: np.ndarray) -> None:
    """Raw-table positions (within a phase block) of every orientation, into ``out``."""
    for j in range(ORIENT_LEN.shape[0]):
        out[j] = ORIENT_OFFSET[j] + pattern_index(p, o, ORIENT_SQUARES[j], ORIENT_LEN[j])


@njit(cache=True)
def feature_values(
    p: np.uint64, o: np.uint64, mask: np.uint64, moves_p: np.uint64, moves_o: np.uint64
) -> tuple[int, int, int, int, int]:
    """The entry each feature table is read at (see :data:`FEATURES`), given both sides'
    legal moves."""
    empty = mask & ~(p | o)
    return (
        min(popcount(moves_p), 31),
        min(popcount(moves_o), 31),
        min(popcount(empty & neighbours(o, mask)), 47),
        min(popcount(empty & neighbours(p, mask)), 47),
        popcount(empty) & 1,
    )


@njit(cache=True)
def features_sum(
    p: np.uint64,
    o: np.uint64,
    mask: np.uint64,
    moves_p: np.uint64,
    w: np.ndarray,
    start: int,
) -> float:
    """Sum of the feature tables' entries of (p, o); the tables begin at ``w[start]``."""
    f = feature_values(p, o, mask, moves_p, legal_moves(o, p, mask))
    # Summed in float64 whatever the weights' type (float32 in searches).
    s = 0.0
    for i in range(len(FEATURE_OFFSETS)):
        s += w[start + FEATURE_OFFSETS[i] + f[i]]
    return s


@kernel()
def patterns_score(p: np.uint64, o: np.uint64, mask: np.uint64, w: np.ndarray) -> float:
    """The pattern evaluation in discs, from the flat vector ``w`` (see the module doc)."""
    empties = popcount(mask & ~(p | o))
    phase = int(w[empties])
    stride = int(w[MAX_EMPTIES + 1])
    base = HEADER + phase * stride
    feats = features_sum(p, o, mask, legal_moves(p, o, mask), w, base + FOLDED_FEATURES)
    return float(w[base] + instances_sum(p, o, w, base) + feats)


def fold_weights(raw: np.ndarray) -> np.ndarray:
    """Folded blocks ``float64[n_phases, folded_stride]`` from raw ``[n_phases, raw_stride]``."""
    if raw.ndim != 2 or raw.shape[1] != LAYOUT.raw_stride:
        raise ValueError(
            f"raw pattern weights must have shape (phases, {LAYOUT.raw_stride}), not {raw.shape}"
        )
    out = np.zeros((raw.shape[0], LAYOUT.folded_stride), dtype=np.float64)
    out[:, :EXTRA] = raw[:, :EXTRA]
    out[:, FOLDED_FEATURES:] = raw[:, RAW_FEATURES:]
    for pi, roff, foff, remaps in LAYOUT.fold_plan:
        size = 3 ** len(PATTERNS[pi][1])
        table = raw[:, roff : roff + size].astype(np.float64)
        acc = np.zeros_like(table)
        for remap in remaps:
            acc += table[:, remap]
        out[:, foff : foff + size] = acc
    return out


def flat_vector(raw: np.ndarray, phases: np.ndarray) -> np.ndarray:
    """The vector ``evaluate`` takes: the header then the folded blocks."""
    folded = fold_weights(raw)
    head = np.zeros(HEADER, dtype=np.float64)
    head[: MAX_EMPTIES + 1] = phases
    head[MAX_EMPTIES + 1] = LAYOUT.folded_stride
    head[MAX_EMPTIES + 2] = raw.shape[0]
    return np.concatenate([head, folded.ravel()])


@njit(cache=True)
def raw_score(p: np.uint64, o: np.uint64, mask: np.uint64, raw: np.ndarray, phase: int) -> float:
    """The same value as :func:`patterns_score`, read from raw weights (slow; for tests/fits)."""
    block = raw[phase]
    s = block[0] + features_sum(p, o, mask, legal_moves(p, o, mask), block, RAW_FEATURES)
    for j in range(ORIENT_LEN.shape[0]):
        s += block[ORIENT_OFFSET[j] + pattern_index(p, o, ORIENT_SQUARES[j], ORIENT_LEN[j])]
    return float(s)
