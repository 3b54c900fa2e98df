from __future__ import annotations

import numpy as np
import pytest

from bitflip.core.bitboard import transform
from bitflip.core.geometry import board_mask
from bitflip.eval.patterns import (
    FEATURES,
    INST_LEN,
    LAYOUT,
    ORIENT_LEN,
    PATTERNS,
    flat_vector,
    pattern_index,
    patterns_score,
    phase_map,
    raw_score,
)

from ._positions import random_positions

MASK = board_mask(8)


def test_layout_sizes() -> None:
    assert len(ORIENT_LEN) == 8 * len(PATTERNS)
    assert len(INST_LEN) == 46  # distinct square sets, as in Edax
    assert LAYOUT.raw_stride == 1 + sum(3 ** len(s) for _, s in PATTERNS) + sum(
        n for _, n in FEATURES
    )
    # All instances of a pattern share one folded table.
    assert LAYOUT.folded_stride == LAYOUT.raw_stride


def test_pattern_index_round_trip() -> None:
    for p, o in random_positions(20, seed=3):
        for name, squares in PATTERNS:
            sq = np.array(squares, dtype=np.int64)
            idx = pattern_index(p, o, sq, len(squares))
            assert 0 <= idx < 3 ** len(squares), name
            for k, s in enumerate(squares):
                digit = idx // 3**k % 3
                want = 1 if int(p) >> s & 1 else 2 if int(o) >> s & 1 else 0
                assert digit == want


def test_phase_map() -> None:
    m = phase_map(15)
    assert m[0] == 0 and m[60] == 14 and (np.diff(m) >= 0).all()
    with pytest.raises(ValueError):
        phase_map(0)


def test_folded_equals_raw_and_symmetric() -> None:
    rng = np.random.default_rng(0)
    raw = rng.normal(size=(4, LAYOUT.raw_stride))
    phases = phase_map(4)
    w = flat_vector(raw, phases)
    for p, o in random_positions(25, seed=5):
        e = 64 - bin(int(p) | int(o)).count("1")
        s = patterns_score(p, o, MASK, w)
        assert s == pytest.approx(raw_score(p, o, MASK, raw, int(phases[e])))
        for sym in range(1, 8):
            q, r = np.uint64(transform(p, sym, 8)), np.uint64(transform(o, sym, 8))
            assert patterns_score(q, r, MASK, w) == pytest.approx(s)


def test_gathered_indices_match_square_by_square_on_any_board() -> None:
    # Arbitrary disjoint bitboards (not only game positions) reach every run and diagonal.
    rng = np.random.default_rng(11)
    raw = rng.normal(size=(1, LAYOUT.raw_stride))
    w = flat_vector(raw, phase_map(1))
    for _ in range(300):
        cells = rng.integers(0, 3, size=64)
        p = np.uint64(sum(1 << s for s in range(64) if cells[s] == 1))
        o = np.uint64(sum(1 << s for s in range(64) if cells[s] == 2))
        assert patterns_score(p, o, MASK, w) == pytest.approx(raw_score(p, o, MASK, raw, 0))


def test_generated_pattern_kernel_is_up_to_date() -> None:
    from bitflip.eval import pattern_codegen

    assert pattern_codegen.TARGET.read_text() == pattern_codegen.formatted_source(), (
        "eval/_pattern_sum.py is stale: run python -m bitflip.eval.pattern_codegen"
    )


def test_segments_cover_every_pattern_square_once() -> None:
    from bitflip.eval.pattern_codegen import segments

    for name, squares in PATTERNS:
        covered = [s for mask, _, _, _ in segments(squares) for s in range(64) if mask >> s & 1]
        assert sorted(covered) == sorted(squares), name


def test_feature_values_count_by_hand() -> None:
    from bitflip.core.bitboard import FULL, legal_moves
    from bitflip.eval.patterns import feature_values

    # The start: 4 moves each; empties next to an opponent disc: 10 for each side; 60 empties.
    p, o = np.uint64(0x0000000810000000), np.uint64(0x0000001008000000)
    f = feature_values(p, o, FULL, legal_moves(p, o, FULL), legal_moves(o, p, FULL))
    assert f == (4, 4, 10, 10, 0)
    # One disc each in opposite corners, 62 empties: no moves, 3 empty neighbours each.
    a1, h8 = np.uint64(1), np.uint64(1 << 63)
    f = feature_values(a1, h8, FULL, legal_moves(a1, h8, FULL), legal_moves(h8, a1, FULL))
    assert f == (0, 0, 3, 3, 0)
    # Every table entry a value can reach exists.
    assert all(v < size for v, (_, size) in zip(f, FEATURES, strict=True))
