from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bitflip.eval.patterns import LAYOUT, phase_map
from bitflip.eval.weights import PatternWeights


def small_weights() -> PatternWeights:
    rng = np.random.default_rng(1)
    raw = rng.normal(size=(3, LAYOUT.raw_stride)) * (rng.random((3, LAYOUT.raw_stride)) < 0.01)
    return PatternWeights(raw.astype(np.float32), phase_map(3), {"created": "test"}, {"mae": 1.5})


def test_round_trip(tmp_path: Path) -> None:
    w = small_weights()
    path = w.save(tmp_path)
    assert path.name == f"patterns-{w.content_hash()[:12]}.npz"
    back = PatternWeights.load(path)
    assert np.array_equal(back.raw, w.raw)
    assert np.array_equal(back.phases, w.phases)
    assert back.lineage == {"created": "test"} and back.metrics == {"mae": 1.5}
    assert np.array_equal(back.vector(), w.vector())


def test_truncated_file_is_a_clear_error(tmp_path: Path) -> None:
    path = small_weights().save(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=path.name):
        PatternWeights.load(path)


def test_changed_weights_fail_the_hash(tmp_path: Path) -> None:
    w = small_weights()
    path = w.save(tmp_path)
    with np.load(path) as z:
        meta, raw = z["meta"], z["raw"].copy()
    raw[0, 5] += 1.0
    np.savez_compressed(path, meta=meta, raw=raw)
    with pytest.raises(ValueError, match="hash mismatch"):
        PatternWeights.load(path)


def test_not_a_weights_file(tmp_path: Path) -> None:
    path = tmp_path / "x.npz"
    np.savez(path, something=np.zeros(3))
    with pytest.raises(ValueError, match="x.npz"):
        PatternWeights.load(path)


def test_version_1_files_load_and_score_as_before(tmp_path: Path) -> None:
    # A version 1 file: per phase a bias, one linear weight on the mobility difference, then the
    # same pattern tables; it loads as version 2 blocks with linear mobility tables.
    import json

    from bitflip.core.bitboard import FULL, legal_moves, popcount
    from bitflip.eval.patterns import PATTERN_SET, PATTERNS, RAW_FEATURES, raw_score
    from bitflip.eval.weights import _content_hash

    rng = np.random.default_rng(3)
    v1 = (rng.normal(size=(2, RAW_FEATURES + 1)) * 0.1).astype(np.float32)
    phases = phase_map(2)
    meta = {
        "format": "bitflip-patterns",
        "version": 1,
        "pattern_set": PATTERN_SET,
        "patterns": [[name, list(sqs)] for name, sqs in PATTERNS],
        "n_phases": 2,
        "phase_of_empties": [int(x) for x in phases],
        "sha256": _content_hash(v1, phases),
    }
    path = tmp_path / "old.npz"
    np.savez_compressed(path, meta=np.array(json.dumps(meta)), raw=v1)
    w = PatternWeights.load(path)
    assert w.raw.shape == (2, LAYOUT.raw_stride)
    for p, o in [
        (0x0000000810000000, 0x0000001008000000),
        (0x00FF00000000FF00, 0x000000FFFF000000),
    ]:
        phase = int(phases[64 - bin(p | o).count("1")])
        mob = popcount(legal_moves(np.uint64(p), np.uint64(o), FULL)) - popcount(
            legal_moves(np.uint64(o), np.uint64(p), FULL)
        )
        block = v1[phase].astype(np.float64)
        v2_value = raw_score(np.uint64(p), np.uint64(o), FULL, w.raw.astype(np.float64), phase)
        # The version 1 value: bias + weight x mobility difference + the same pattern entries.
        patterns_only = v2_value - raw_score(
            np.uint64(p), np.uint64(o), FULL, _features_only(w.raw), phase
        )
        assert patterns_only + block[0] + block[1] * mob == pytest.approx(v2_value, abs=1e-4)


def _features_only(raw: np.ndarray) -> np.ndarray:
    from bitflip.eval.patterns import RAW_FEATURES

    out = np.zeros_like(raw, dtype=np.float64)
    out[:, 0] = raw[:, 0]
    out[:, RAW_FEATURES:] = raw[:, RAW_FEATURES:]
    return out
