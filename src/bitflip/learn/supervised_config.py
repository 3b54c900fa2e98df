"""Settings of a supervised run: task, data, model and training, read from a TOML file.

The commented defaults are in ``configs/value*.toml`` and ``configs/policy*.toml``; relative
paths in a file are resolved against the file's folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bitflip.nn.models import ModelConfig, config_from_dict
from bitflip.tomlconfig import build, check_keys, read_toml

TASKS = ("value", "policy")


@dataclass
class DataConfig:
    """Which positions train, validate and test."""

    shards: str = "data/wthor"
    """Directory of record shards (``bitflip data build``); relative to the config file."""
    split: str = "years"
    """``years``: test on [test_first_year, test_last_year], train on the years up to
    train_last_year; ``random``: test_fraction of all games, drawn with split_seed."""
    train_first_year: int = 0
    train_last_year: int = 2020
    test_first_year: int = 2021
    test_last_year: int = 2023
    test_fraction: float = 0.1
    val_fraction: float = 0.05
    """Share of the training games held out for early stopping."""
    split_seed: int = 0
    max_games: int = 0
    """Use only this many training games, drawn with split_seed (0: all); for quick runs."""
    dedup: bool = True


@dataclass
class TrainConfig:
    """How to optimise."""

    batch_size: int = 256
    lr: float = 1e-3
    min_lr_fraction: float = 0.02
    schedule: str = "constant"
    """``constant`` or ``cosine`` (over epochs, or over max_minutes if that ends first)."""
    optimizer: str = "adam"
    momentum: float = 0.9
    weight_decay: float = 0.0
    epochs: int = 50
    patience: int = 5
    positions_per_epoch: int = 0
    """Training positions drawn per epoch (0: every position once)."""
    max_minutes: float = 0.0
    """Stop after this much training time, summed over resumes (0: no limit)."""
    symmetries: bool = True
    seed: int = 0
    device: str = "auto"
    cpu_threads: int = 0
    """torch CPU threads (0: torch's default; 1 is often fastest on a busy machine)."""
    amp: bool = False
    """bfloat16 autocast on CUDA devices."""
    wdl_weight: float = 1.0
    disc_weight: float = 1.0
    eval_batch_size: int = 4096


@dataclass
class ExperimentConfig:
    """Task, data, model and training settings of one run."""

    task: str
    data: DataConfig
    model: ModelConfig
    train: TrainConfig
    out: str = "runs/default"
    """Run directory (metrics.csv, loss.png, state.pt, the model file); relative to the config."""


def load_config(path: str | Path, task: str | None = None) -> ExperimentConfig:
    """Read a TOML config; relative paths in it are resolved against the file's folder."""
    path = Path(path)
    raw = read_toml(path)
    check_keys(raw, ("task", "out", "data", "model", "train"), str(path))
    file_task = raw.get("task", task)
    if file_task not in TASKS:
        raise ValueError(f"{path}: task must be one of {', '.join(TASKS)}, not {file_task!r}")
    if task is not None and file_task != task:
        raise ValueError(f"{path} is a {file_task} config, not a {task} one")
    data = build(DataConfig, raw.get("data", {}), f"{path} [data]")
    train_cfg = build(TrainConfig, raw.get("train", {}), f"{path} [train]")
    model_raw = {"kind": file_task, **raw.get("model", {})}
    try:
        model = config_from_dict(model_raw)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{path} [model]: {exc}") from None
    base = path.resolve().parent
    data.shards = str((base / data.shards).resolve())
    out = str((base / raw.get("out", f"runs/{file_task}")).resolve())
    cfg = ExperimentConfig(file_task, data, model, train_cfg, out)
    _check_config(cfg, str(path))
    return cfg


def _check_config(cfg: ExperimentConfig, where: str) -> None:
    t, d = cfg.train, cfg.data
    if d.split not in ("years", "random"):
        raise ValueError(f"{where}: split must be 'years' or 'random', not {d.split!r}")
    if t.schedule not in ("constant", "cosine"):
        raise ValueError(f"{where}: schedule must be 'constant' or 'cosine', not {t.schedule!r}")
    if t.optimizer not in ("adam", "sgd"):
        raise ValueError(f"{where}: optimizer must be 'adam' or 'sgd', not {t.optimizer!r}")
    if t.batch_size < 1 or t.epochs < 1 or t.patience < 1:
        raise ValueError(f"{where}: batch_size, epochs and patience must be >= 1")
    if not 0 < d.val_fraction < 1 or not 0 < d.test_fraction < 1:
        raise ValueError(f"{where}: val_fraction and test_fraction must be in (0, 1)")
