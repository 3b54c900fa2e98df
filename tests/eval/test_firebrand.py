from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bitflip.core.board import Board
from bitflip.core.geometry import board_mask
from bitflip.eval.firebrand import (
    FIREBRAND_FEATURES,
    FirebrandWeights,
    firebrand_features,
    firebrand_score,
    hand_firebrand_weights,
)

MASK = board_mask(8)


def features(obf: str) -> dict[str, float]:
    b = Board(obf)
    p, o = (np.uint64(x) for x in b.side_bitboards())
    return dict(zip(FIREBRAND_FEATURES, firebrand_features(p, o, MASK), strict=True))


def test_start_position_is_balanced() -> None:
    f = features(Board().obf())
    assert all(v == 0.0 for v in f.values())


def test_corner_edge_run_and_rings() -> None:
    rows = [
        "XXXXO---",
        "-X------",
        "--------",
        "---OX---",
        "---XO---",
        "--------",
        "--------",
        "--------",
    ]
    f = features("".join(rows) + " X")
    assert f["corners"] == 1
    assert f["edge_runs"] == 4  # a1-d1 from X's corner; O's e1 is not anchored
    assert f["corner_neighbours"] == 0  # a1 is taken; b2 only counts next to an empty corner
    # edges: X on c1, d1 (b1 is a C-square), O on e1.
    assert f["edges"] == 1
    # b2 is on ring 1 (weight 1/3); the centre discs cancel.
    assert f["rings"] == pytest.approx(1 / 3)
    assert f["discs"] == 4


def test_time_weights_formula() -> None:
    b = Board()
    for m in ("f5", "d6", "c3", "d3", "c4"):
        b.push(m)
    p, o = (np.uint64(x) for x in b.side_bitboards())
    fw = hand_firebrand_weights()
    f = firebrand_features(p, o, MASK)
    t = (9 - 4) / 60
    want = sum(fw.w[i] * f[i] * (2 * t + fw.W[i] * (1 - 2 * t)) for i in range(8))
    assert firebrand_score(p, o, MASK, fw.vector()) == pytest.approx(want)


def test_weights_round_trip_and_errors(tmp_path: Path) -> None:
    fw = FirebrandWeights(np.arange(8.0), np.ones(8), {"source": "test"})
    path = tmp_path / "fb.json"
    fw.save(path)
    back = FirebrandWeights.load(path)
    assert np.array_equal(back.w, fw.w) and np.array_equal(back.W, fw.W)
    assert back.lineage == {"source": "test"}
    doc = json.loads(path.read_text())
    doc["w"] = doc["w"][:5]
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="8 numbers"):
        FirebrandWeights.load(path)
    path.write_text("{not json")
    with pytest.raises(ValueError, match="fb.json"):
        FirebrandWeights.load(path)
