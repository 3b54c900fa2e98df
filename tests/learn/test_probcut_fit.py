"""Fitting ProbCut: least squares recover a known line, sampled positions, a small calibration."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

from bitflip.learn.probcut_fit import calibrate, fit, main, sample_positions
from bitflip.search.probcut import ProbCutFit, shallow_depth, table_from_fits


def test_fit_recovers_slope_intercept_and_noise() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(0, 300, 2000)
    e = rng.integers(20, 51, 2000)
    y = 1.1 * x + 25 + rng.normal(0, 40, 2000)
    pairs = {6: [(float(s), float(v), int(n)) for s, v, n in zip(x, y, e, strict=True)]}
    pairs[7] = pairs[6][:5]  # too few samples: no fit
    (f,) = fit(pairs)
    assert f.depth == 6 and f.shallow == shallow_depth(6) and f.samples == 2000
    assert f.a == pytest.approx(1.1, abs=0.02) and f.b == pytest.approx(25, abs=3)
    assert f.sigma == pytest.approx(40, rel=0.05) and abs(f.sigma_slope) < 0.3


def test_fit_finds_a_noise_that_grows_as_the_empties_fall() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(0, 300, 4000)
    e = rng.integers(20, 51, 4000)
    noise = 200 - 4 * (e - 40)  # 160 at 50 empties, 280 at 20
    y = x + rng.normal(0, 1, 4000) * noise
    samples = {8: [(float(s), float(v), int(n)) for s, v, n in zip(x, y, e, strict=True)]}
    (f,) = fit(samples)
    assert f.sigma == pytest.approx(200, rel=0.06) and f.sigma_slope == pytest.approx(-4, abs=0.6)
    assert f.empties_ref == 40
    (flat,) = fit(samples, flat_sigma=True)
    assert flat.sigma == f.sigma and flat.sigma_slope == 0.0
    assert np.all(flat.sigma_at(np.array([20.0, 40.0, 50.0])) == f.sigma)


def test_sampled_positions_are_playable_middle_games() -> None:
    positions = sample_positions(20, seed=3, data=None)
    assert len(positions) == 20 and len(set(positions)) > 15
    for p, o in positions:
        assert p & o == 0
        empties = 64 - bin(p | o).count("1")
        assert 16 <= empties <= 50


def test_sampled_positions_follow_recorded_games(shared_data: Path) -> None:
    assert len(sample_positions(5, seed=1, data=shared_data)) == 5


def test_a_small_calibration_writes_a_table_the_search_reads(tmp_path: Path) -> None:
    doc = calibrate("positional", positions=12, max_depth=4, seed=2, data=None)
    fits = [ProbCutFit(**f) for f in cast(list[dict[str, Any]], doc["fits"])]
    assert [f.depth for f in fits] == [2, 3, 4] and all(f.samples == 12 for f in fits)
    assert fits[0].shallow == 0  # depth 2 from the static evaluation
    assert all(f.sigma > 0 for f in fits) and "probcut_fit" in str(doc["how"])
    table = table_from_fits(fits)
    assert table[4, 0] == shallow_depth(4) and table[10, 3] >= table[4, 3]
    out = tmp_path / "mpc.json"
    args = ["--eval", "positional", "--positions", "10", "--max-depth", "3", "--out", str(out)]
    assert main(args) == 0
    assert json.loads(out.read_text())["eval"] == "positional"
    assert main([*args, "--flat-sigma"]) == 0
    flat = json.loads(out.read_text())
    assert "--flat-sigma" in flat["how"] and all(f["sigma_slope"] == 0 for f in flat["fits"])


def test_endgame_fit_predicts_exact_scores_from_the_shallow_search(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--endgame", "--positions", "12", "--seed", "5", "--data", str(shared_data)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [f"depth {d}" for d in range(5)]
    for line in lines:
        a, sigma = float(line.split()[3]), float(line.split()[-1])
        # Eval units to discs: about 1/100, and the prediction explains most of the spread.
        assert 0.003 < a < 0.03 and 0 < sigma < 20


def test_flat_sigma_with_the_endgame_fit_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--endgame", "--flat-sigma"])
    assert "--flat-sigma shapes the midgame fit" in capsys.readouterr().err


def test_a_data_folder_without_games_is_an_error_not_random_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--positions", "10", "--max-depth", "3", "--data", str(tmp_path)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"--data {tmp_path}: no WTHOR games" in err


def test_sample_positions_names_the_folder_without_games_not_a_flag(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no WTHOR games") as exc:
        sample_positions(5, seed=1, data=tmp_path)
    assert str(exc.value).startswith(str(tmp_path))
