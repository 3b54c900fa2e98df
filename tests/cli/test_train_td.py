"""``bitflip train td``: a tiny staged run writes the weights, the trajectory table and plot."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from bitflip.cli.main import main
from bitflip.eval.firebrand import FIREBRAND_FEATURES, FirebrandWeights

TINY = "size = 6\nstages = [10, 32]\ngames_per_stage = 4\nsnapshot_every = 2\n"


def test_weights_trajectory_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config, out = tmp_path / "td.toml", tmp_path / "run"
    config.write_text(TINY)
    assert main(["train", "td", "--config", str(config), "--out", str(out), "--quiet"]) == 0
    assert capsys.readouterr().out.startswith(f"weights: {out / 'weights.json'}")
    with (out / "trajectory.csv").open() as f:
        rows = list(csv.DictReader(f))
    n = len(FIREBRAND_FEATURES)
    assert len(rows[0]) == 1 + 2 * n and list(rows[0])[1] == f"w_{FIREBRAND_FEATURES[0]}"
    assert [int(r["games"]) for r in rows] == [0, 2, 4, 6, 8]  # 2 stages of 4, every 2
    saved = FirebrandWeights.load(out / "weights.json").vector()
    first, last = ([float(v) for k, v in r.items() if k != "games"] for r in (rows[0], rows[-1]))
    assert np.allclose(saved, last, rtol=1e-5) and not np.allclose(first, last)
    if (out / "trajectory.png").exists():  # drawn where matplotlib is installed
        assert (out / "trajectory.png").read_bytes()[:4] == b"\x89PNG"
