from __future__ import annotations

import numpy as np

from bitflip.eval.features import features_score
from bitflip.eval.firebrand import FirebrandWeights, firebrand_score
from bitflip.learn.linear_fit import fit_features, fit_firebrand

from .test_patterns_fit import random_positions

FULL = np.uint64(2**64 - 1)


def test_recovers_known_weights() -> None:
    pos = random_positions(3000, seed=9)
    p = np.array([a for a, _ in pos], dtype=np.uint64)
    o = np.array([b for _, b in pos], dtype=np.uint64)
    rng = np.random.default_rng(1)
    w = rng.normal(size=20)
    y = np.array([features_score(a, b, FULL, w) for a, b in zip(p, o, strict=True)])
    got = fit_features(p, o, y, ridge=1e-9)
    pred = np.array([features_score(a, b, FULL, got) for a, b in zip(p, o, strict=True)])
    assert np.abs(pred - y).max() < 1e-3
    fb = FirebrandWeights(rng.normal(size=8) + 3.0, rng.normal(size=8))
    y = np.array([firebrand_score(a, b, FULL, fb.vector()) for a, b in zip(p, o, strict=True)])
    got_fb = fit_firebrand(p, o, y, ridge=1e-9)
    assert np.allclose(got_fb.w, fb.w, atol=1e-3) and np.allclose(got_fb.W, fb.W, atol=1e-3)
