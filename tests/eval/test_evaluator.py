from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numba import njit

from bitflip.core.bitboard import transform
from bitflip.core.geometry import board_mask
from bitflip.eval.evaluator import (
    KIND_FEATURES,
    KIND_PATTERNS,
    KINDS,
    evaluate,
    load_evaluation,
)
from bitflip.eval.firebrand import hand_firebrand_weights
from bitflip.eval.patterns import LAYOUT, patterns_score, phase_map
from bitflip.eval.weights import PatternWeights, shipped_pattern_file

from ._positions import random_positions


@pytest.mark.parametrize("name", [*KINDS, "default"])
@pytest.mark.parametrize("size", [8, 6])
def test_every_evaluation_is_symmetric(name: str, size: int, tmp_path: Path) -> None:
    if name == "patterns" and size == 8 and shipped_pattern_file() is None:
        rng = np.random.default_rng(2)
        raw = rng.normal(size=(3, LAYOUT.raw_stride)).astype(np.float32)
        name = str(PatternWeights(raw, phase_map(3)).save(tmp_path))
    ev = load_evaluation(name, size)
    mask = board_mask(size)
    for p, o in random_positions(12, seed=11, size=size):
        s = evaluate(p, o, mask, ev.kind, ev.weights)
        assert isinstance(s, int)
        for sym in range(1, 8):
            q, r = np.uint64(transform(p, sym, size)), np.uint64(transform(o, sym, size))
            assert evaluate(q, r, mask, ev.kind, ev.weights) == s, (name, sym)


def test_dispatch_by_kind() -> None:
    for name, kind in KINDS.items():
        if name == "patterns" and shipped_pattern_file() is None:
            continue
        ev = load_evaluation(name)
        assert ev.kind == kind and ev.name == name


def test_patterns_fall_back_on_small_boards() -> None:
    assert load_evaluation("patterns", size=6).kind == KIND_FEATURES


def test_default_is_patterns_when_shipped() -> None:
    want = KIND_PATTERNS if shipped_pattern_file() is not None else KIND_FEATURES
    assert load_evaluation("default").kind == want


def test_load_by_path(tmp_path: Path) -> None:
    fb = tmp_path / "fb.json"
    hand_firebrand_weights().save(fb)
    ev = load_evaluation(str(fb))
    assert ev.name == "firebrand" and np.array_equal(
        ev.weights, hand_firebrand_weights().vector().astype(np.float32)
    )
    raw = np.zeros((2, LAYOUT.raw_stride), dtype=np.float32)
    raw[:, 0] = 3.0  # bias of 3 discs
    path = PatternWeights(raw, phase_map(2)).save(tmp_path)
    ev = load_evaluation(str(path))
    assert ev.kind == KIND_PATTERNS
    p, o = random_positions(1, seed=1)[0]
    assert evaluate(p, o, board_mask(8), ev.kind, ev.weights) == 300


def test_unknown_names_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown evaluation"):
        load_evaluation("nonsense")
    with pytest.raises(OSError, match="does not exist"):
        load_evaluation(str(tmp_path / "none.npz"))
    bad = tmp_path / "w.json"
    bad.write_text('{"format": "other"}')
    with pytest.raises(ValueError, match="unknown weights format"):
        load_evaluation(str(bad))


@njit(cache=True)
def _sum_in_kernel(p: np.ndarray, o: np.ndarray, kind: int, w: np.ndarray) -> int:
    total = 0
    for i in range(p.shape[0]):
        total += evaluate(p[i], o[i], np.uint64(0xFFFFFFFFFFFFFFFF), kind, w)
    return total


@pytest.mark.parametrize("name", [*KINDS, "default"])
def test_callable_from_a_search_kernel(name: str) -> None:
    # Search kernels pass (kind, weights) through: one compiled caller serves every kind.
    if name == "patterns" and shipped_pattern_file() is None:
        pytest.skip("no shipped pattern weights")
    ev = load_evaluation(name)
    pos = random_positions(20, seed=21)
    p = np.array([a for a, _ in pos], dtype=np.uint64)
    o = np.array([b for _, b in pos], dtype=np.uint64)
    want = sum(int(evaluate(a, b, board_mask(8), ev.kind, ev.weights)) for a, b in pos)
    assert _sum_in_kernel(p, o, ev.kind, ev.weights) == want


@pytest.mark.parametrize("name", [*KINDS, "default"])
def test_weights_are_float32_and_summed_in_float64(name: str) -> None:
    # float32 keeps a phase of the pattern tables in a 1 MB L2 cache; the sums must still be
    # float64, or the scores would depend on the weights' type and not only on their values.
    ev = load_evaluation(name)
    assert ev.weights.dtype == np.float32 and ev.weights.flags.c_contiguous
    mask = board_mask(8)
    wide = ev.weights.astype(np.float64)  # the same values, read as float64
    for p, o in random_positions(300, seed=5):
        assert evaluate(p, o, mask, ev.kind, ev.weights) == evaluate(p, o, mask, ev.kind, wide)
    if ev.kind == KIND_PATTERNS:
        for p, o in random_positions(300, seed=6):
            assert patterns_score(p, o, mask, ev.weights) == patterns_score(p, o, mask, wide)
