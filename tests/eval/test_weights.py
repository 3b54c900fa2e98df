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
