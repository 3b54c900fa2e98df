"""The pattern fit: the SGD kernel, neighbouring phases, the config, ``bitflip train patterns``
and its resume."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bitflip.cli.main import main
from bitflip.core.bitboard import legal_moves, play
from bitflip.eval.evaluator import KIND_PATTERNS, evaluate, load_evaluation
from bitflip.eval.patterns import LAYOUT, phase_map
from bitflip.learn.patterns_config import PatternsFitConfig
from bitflip.learn.patterns_fit import _sgd_epoch, predict_raw

from ._toml import assert_refused


def _random_game(rng: np.random.Generator) -> tuple[list[int], list[tuple[np.uint64, np.uint64]]]:
    """One random game to the end: its moves (no passes) and the position after each."""
    mask = np.uint64(2**64 - 1)
    p, o = np.uint64(0x0000000810000000), np.uint64(0x0000001008000000)
    moves_played: list[int] = []
    positions: list[tuple[np.uint64, np.uint64]] = []
    while True:
        moves = int(legal_moves(p, o, mask))
        if moves == 0:
            if legal_moves(o, p, mask) == 0:
                return moves_played, positions
            p, o = o, p
            continue
        sq = int(rng.choice([s for s in range(64) if moves >> s & 1]))
        moves_played.append(sq)
        p, o = (np.uint64(x) for x in play(p, o, sq))
        positions.append((p, o))


def random_positions(n: int, seed: int) -> list[tuple[np.uint64, np.uint64]]:
    """Positions of random games (side to move's view)."""
    rng = np.random.default_rng(seed)
    out: list[tuple[np.uint64, np.uint64]] = []
    while len(out) < n:
        out += _random_game(rng)[1]
    return out[:n]


def test_fitting_reduces_error_on_a_small_sample() -> None:
    # Targets made by a hidden pattern evaluation: the fit must get closer to them each epoch.
    rng = np.random.default_rng(0)
    phases = phase_map(2)
    truth = rng.normal(size=(2, LAYOUT.raw_stride)) * 0.3
    pos = random_positions(1500, seed=4)
    p = np.array([a for a, _ in pos], dtype=np.uint64)
    o = np.array([b for _, b in pos], dtype=np.uint64)
    target = predict_raw(truth, phases, p, o).astype(np.float32)
    raw = np.zeros_like(truth)
    before = float(np.abs(target).mean())
    errors = []
    for epoch in range(3):
        order = rng.permutation(len(p))
        _sgd_epoch(raw, phases, p, o, target, order, 0.5 * 0.7**epoch, 0.0)
        errors.append(float(np.abs(predict_raw(raw, phases, p, o) - target).mean()))
    assert errors[0] < 0.6 * before
    assert errors[2] < errors[0]


def test_neighbour_weight_trains_the_phases_beside_a_positions_own() -> None:
    phases = phase_map(3)  # 0-20, 21-40, 41-60 empties
    pos = random_positions(3000, seed=5)
    p = np.array([a for a, _ in pos], dtype=np.uint64)
    o = np.array([b for _, b in pos], dtype=np.uint64)
    empties = np.array([64 - bin(int(a) | int(b)).count("1") for a, b in pos])
    middle = phases[empties] == 1
    p, o = p[middle], o[middle]
    target = np.full(len(p), 10.0, dtype=np.float32)
    order = np.arange(len(p))
    alone = np.zeros((3, LAYOUT.raw_stride))
    _sgd_epoch(alone, phases, p, o, target, order, 0.5, 0.0)
    assert not alone[0].any() and not alone[2].any() and alone[1].any()
    shared = np.zeros((3, LAYOUT.raw_stride))
    _sgd_epoch(shared, phases, p, o, target, order, 0.5, 0.5)
    np.testing.assert_array_equal(shared[1], alone[1])  # its own phase learns as before
    # The neighbours learn the same positions (at half the step): near the target.
    for ph in (0, 2):
        guess = float(np.mean(predict_raw(shared, np.full(61, ph), p, o)))
        assert abs(guess - 10.0) < 3.0


def test_config_errors(tmp_path: Path) -> None:
    refused = {
        "[patterns]\nepoch = 3\n": r"unknown keys \['epoch'\]",
        '[patterns]\ntarget = "best"\n': "target",
        '[patterns]\nphases = "many"\n': "phases must be int",
        "[patterns]\nneighbour_weight = 1.5\n": r"neighbour_weight must be in \[0, 1\], not 1.5",
        "[patterns]\nexact_empties = 40\n": r"exact_empties must be in \[0, 30\], not 40",
    }
    assert_refused(PatternsFitConfig.from_toml, tmp_path, refused)
    cfg = tmp_path / "c.toml"
    cfg.write_text("[patterns]\nlearning_rate = 1\nextra = []\n")
    assert PatternsFitConfig.from_toml(cfg).learning_rate == 1


def small_fit_config(shared_data: Path, tmp_path: Path, extra: str) -> Path:
    """A config file for a quick fit on WTH_2001 into ``tmp_path/run``, plus ``extra`` lines."""
    cfg = tmp_path / "p.toml"
    wthor = shared_data / "wthor" / "WTH_2001.wtb"
    cfg.write_text(
        f'[patterns]\nwthor = "{wthor}"\nphases = 4\nholdout = 0.2\nout = "{tmp_path / "run"}"\n'
        + extra
    )
    return cfg


@pytest.mark.slow
def test_train_patterns_command_and_resume(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = small_fit_config(shared_data, tmp_path, "max_games = 400\nepochs = 2\n")
    assert main(["train", "patterns", "--config", str(cfg), "--epochs", "1"]) == 0
    out = capsys.readouterr().out
    assert "held-out MAE" in out
    # Resuming with the same settings starts after the finished epoch; more epochs go on.
    assert main(["train", "patterns", "--config", str(cfg), "--epochs", "1"]) == 0
    assert "resuming after epoch 1" in capsys.readouterr().out
    assert main(["train", "patterns", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert "resuming after epoch 1" in out and "epoch 2:" in out and "epoch 1:" not in out
    weights = sorted((tmp_path / "run").glob("patterns-*.npz"))
    assert weights and weights[0].with_suffix(".md").is_file()
    ev = load_evaluation(str(weights[0]))
    assert ev.kind == KIND_PATTERNS
    p, o = random_positions(1, seed=2)[0]
    assert isinstance(evaluate(p, o, np.uint64(2**64 - 1), ev.kind, ev.weights), int)


@pytest.mark.slow
def test_train_patterns_with_exact_targets(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = "max_games = 60\nepochs = 1\nexact_empties = 8\nworkers = 1\n"
    cfg = small_fit_config(shared_data, tmp_path, extra)
    assert main(["train", "patterns", "--config", str(cfg), "--no-extra"]) == 0
    assert "solving" in capsys.readouterr().out
    assert list((tmp_path / "run").glob("exact-*.npz"))
    card = next((tmp_path / "run").glob("patterns-*.md")).read_text()
    assert "at most 8 empties: their perfect-play score" in card


def test_a_resumed_fit_gives_the_weights_of_one_uninterrupted_run(tmp_path: Path) -> None:
    # The fit is deterministic: one epoch, then a resume for a second (samples from the cache,
    # weights from the checkpoint), gives bit for bit the weights of two epochs in one go.
    from bitflip.eval.weights import PatternWeights
    from bitflip.formats.record import GameRecord
    from bitflip.formats.wthor import write_wtb
    from bitflip.learn.patterns_fit import fit_patterns

    rng = np.random.default_rng(11)
    wtb = tmp_path / "WTH_2001.wtb"
    write_wtb(wtb, [GameRecord(moves=list(_random_game(rng)[0])) for _ in range(30)], year=2001)
    logs: list[str] = []

    def fit(out: str, epochs: int) -> np.ndarray:
        cfg = PatternsFitConfig(
            wthor=str(wtb), phases=3, holdout=0.3, epochs=epochs, target="final", out=out
        )
        r = fit_patterns(cfg, log=logs.append)
        assert r.train_games + r.holdout_games == 30 and r.card_path.is_file()
        return PatternWeights.load(r.weights_path).raw

    once = fit(str(tmp_path / "once"), 2)
    fit(str(tmp_path / "twice"), 1)
    logs.clear()
    resumed = fit(str(tmp_path / "twice"), 2)
    assert any("resuming after epoch 1" in s for s in logs)
    assert any("samples-" in s for s in logs)  # read from the cache
    np.testing.assert_array_equal(resumed, once)


def test_a_fit_warns_where_no_training_position_reaches(tmp_path: Path) -> None:
    # A fit on labels made at 14-56 empties alone left the endgame's sets at zero, and nothing
    # said so; the log now names the empties whose weight sets no position trains.
    from bitflip.formats.record import GameRecord
    from bitflip.formats.wthor import write_wtb
    from bitflip.learn.patterns_fit import fit_patterns

    rng = np.random.default_rng(5)
    wtb = tmp_path / "WTH_2001.wtb"
    write_wtb(wtb, [GameRecord(moves=list(_random_game(rng)[0])) for _ in range(20)], year=2001)

    def warnings(min_empties: int) -> list[str]:
        logs: list[str] = []
        cfg = PatternsFitConfig(
            wthor=str(wtb), phases=3, holdout=0.3, epochs=1, target="final",
            min_empties=min_empties, out=str(tmp_path / f"run{min_empties}"),
        )  # fmt: skip
        fit_patterns(cfg, log=logs.append)
        return [line for line in logs if line.startswith("warning")]

    assert warnings(0) == []
    (line,) = warnings(21)  # phase 0 is 0-20 empties
    assert "0-20 empties" in line and "zeros" in line
