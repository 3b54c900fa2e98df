"""Supervised training end to end with tiny configs (seconds on a CPU)."""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from bitflip.cli.main import main  # noqa: E402
from bitflip.learn.datasets import positions_from_games  # noqa: E402
from bitflip.learn.shards import PositionBatch, write_shard  # noqa: E402
from bitflip.learn.supervised import train  # noqa: E402
from bitflip.learn.supervised_config import (  # noqa: E402
    DataConfig,
    ExperimentConfig,
    TrainConfig,
    load_config,
)
from bitflip.learn.supervised_data import split_positions  # noqa: E402
from bitflip.learn.supervised_eval import evaluate_loaded  # noqa: E402
from bitflip.nn.checkpoint import load_model  # noqa: E402
from bitflip.nn.models import PolicyNetConfig, ValueNetConfig  # noqa: E402

from .test_datasets import random_games, source_of  # noqa: E402

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@pytest.fixture(scope="module")
def records() -> PositionBatch:
    boards = random_games(40, seed=11)
    rec, _ = positions_from_games(source_of(boards, [2015 + i % 8 for i in range(40)]))
    return rec


def tiny(task: str, out: Path, **train_kw: object) -> ExperimentConfig:
    model = (
        PolicyNetConfig(channels=(8,), head="flatten")
        if task == "policy"
        else ValueNetConfig(features=("own", "opponent"), conv_channels=(4,), dense=(16,))
    )
    tc = TrainConfig(batch_size=64, epochs=2, device="cpu", cpu_threads=1, schedule="cosine")
    tc = dataclasses.replace(tc, **train_kw)  # type: ignore[arg-type]
    data = DataConfig(
        train_last_year=2020, test_first_year=2021, test_last_year=2022, val_fraction=0.2
    )
    return ExperimentConfig(task, data, model, tc, str(out))


@pytest.mark.parametrize("task", ["policy", "value"])
def test_train_writes_model_metrics_plot_and_resumes(
    task: str, records: PositionBatch, tmp_path: Path
) -> None:
    cfg = tiny(task, tmp_path / "run")
    res = train(cfg, progress=False, log=lambda s: None, positions=records)
    assert res.epochs == 2 and res.stopped == "epochs"
    assert res.model_path.exists() and (tmp_path / "run" / "loss.png").exists()
    rows = list(csv.DictReader((tmp_path / "run" / "metrics.csv").open()))
    assert [r["epoch"] for r in rows] == ["1.0", "2.0"]
    key = "top1" if task == "policy" else "mse"
    assert 0 <= res.test[key] <= (1 if task == "policy" else 4)
    assert res.sizes["test_games"] == 10  # 2021 and 2022 games only
    loaded = load_model(res.model_path)
    assert loaded.lineage["data"]["train_last_year"] == 2020
    assert loaded.metrics["test"][key] == pytest.approx(res.test[key])
    test_records = records.subset(records.year >= 2021)
    again = evaluate_loaded(loaded, test_records, "cpu")
    assert again[key] == pytest.approx(res.test[key], rel=1e-4)

    with pytest.raises(ValueError, match="--resume"):
        train(cfg, progress=False, log=lambda s: None, positions=records)
    longer = dataclasses.replace(cfg, train=dataclasses.replace(cfg.train, epochs=3))
    res2 = train(longer, resume=True, progress=False, log=lambda s: None, positions=records)
    assert res2.epochs == 3
    rows = list(csv.DictReader((tmp_path / "run" / "metrics.csv").open()))
    assert len(rows) == 3


def test_early_stopping_after_patience(records: PositionBatch, tmp_path: Path) -> None:
    # lr 0: the validation loss never improves after the first epoch
    cfg = tiny("policy", tmp_path / "run", lr=0.0, schedule="constant", epochs=10, patience=2)
    res = train(cfg, progress=False, log=lambda s: None, positions=records)
    assert res.stopped == "early-stopping"
    assert res.epochs == 3 and res.best_epoch == 1


def test_random_splits_differ_by_seed(records: PositionBatch) -> None:
    tests = []
    for seed in (0, 1):
        data = DataConfig(split="random", test_fraction=0.25, val_fraction=0.2, split_seed=seed)
        parts = split_positions(records, data)
        test_games = set(parts.test.game.tolist())
        assert len(test_games) == 10
        assert not test_games & set(parts.train.game.tolist())
        assert not set(parts.val.game.tolist()) & set(parts.train.game.tolist())
        tests.append(test_games)
    assert tests[0] != tests[1]


def test_every_shipped_config_loads() -> None:
    paths = sorted(CONFIGS.glob("*.toml"))
    assert {p.stem for p in paths} >= {"policy_conv6", "policy_conv4", "value", "value_residual"}
    for path in paths:
        if path.stem.startswith(("policy", "value")):
            cfg = load_config(path)
            assert cfg.task in path.stem
            for line in path.read_text().splitlines():
                if "=" in line and not line.lstrip().startswith("#"):
                    assert "#" in line, f"{path.name}: key without a comment: {line}"


def test_config_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('task = "value"\n[train]\nbatchsize = 3\n')
    with pytest.raises(ValueError, match="batchsize"):
        load_config(bad)
    bad.write_text('task = "policy"\n[model]\nhead = "avg"\n')
    with pytest.raises(ValueError, match="head"):
        load_config(bad)
    bad.write_text('task = "value"\n')
    with pytest.raises(ValueError, match="not a policy"):
        load_config(bad, "policy")
    bad.write_text("task = \n")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_config(bad)


def test_cli_train_and_test(
    records: PositionBatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_shard(tmp_path / "shards" / "games", records)
    run = tmp_path / "run"
    argv = [
        "train",
        "policy",
        "--config",
        str(CONFIGS / "policy_tiny.toml"),
        "--quiet",
        "--shards",
        str(tmp_path / "shards"),
        "--out",
        str(run),
        "--max-games",
        "20",
    ]
    assert main(argv) == 0
    model = next(run.glob("policy-*.pt"))
    assert (
        main(["nn", "test", str(model), "--wthor", str(tmp_path / "shards"), "--device", "cpu"])
        == 0
    )
    captured = capsys.readouterr()
    assert "top1" in captured.out and "top3" in captured.out
    assert "nn test: reading" in captured.err and "nn test: evaluating" in captured.err
    assert main(["nn", "info", str(model)]) == 0
    assert '"kind": "policy"' in capsys.readouterr().out
    assert main(argv) == 2  # the run folder is taken and --resume was not given
    assert "--resume" in capsys.readouterr().err
    assert main(["nn", "test", str(tmp_path / "none.pt"), "--wthor", str(tmp_path)]) == 2


def test_cli_data_build(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards = random_games(3, seed=12)
    text = "\n".join(
        "".join(b.geometry.square_name(m) for m in b.move_stack if m != 64) for b in boards
    )
    (tmp_path / "g.csv").write_text(
        "Othello_game_id,winner,game_moves\n"
        + "\n".join(f"{i},0,{t}" for i, t in enumerate(text.splitlines()))
        + "\n"
    )
    assert (
        main(
            [
                "data",
                "build",
                "--extra",
                str(tmp_path / "g.csv"),
                "--out",
                str(tmp_path / "out"),
                "--quiet",
            ]
        )
        == 0
    )
    assert "3 games" in capsys.readouterr().out
    shard = np.load(tmp_path / "out" / "extra-g.npz")
    assert (shard["year"] == 0).all()
    assert main(["data", "build", "--out", str(tmp_path / "x")]) == 2
    assert main(["data", "build", "--wthor", str(tmp_path / "missing"), "--out", "x"]) == 2
