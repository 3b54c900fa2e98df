"""Supervised training of value and policy networks on training-record shards.

One :class:`ExperimentConfig` (read from a commented TOML file, see ``configs/``) says which
data, which network and how to train. :func:`train` then

* splits the games (by year, or at random with a seed: the HKU protocol of several
  independent splits), deduplicates the training positions, keeps everything on the training
  device as packed bitboards and decodes + applies a random symmetry per position per batch;
* logs one CSV row per epoch (``metrics.csv``) and redraws ``loss.png``;
* saves a resumable ``state.pt`` after each epoch and stops early after ``patience`` epochs
  without a better validation loss (or at ``max_minutes``);
* tests the best weights on the held-out games and writes them as a content-hashed model
  file (:mod:`bitflip.nn.checkpoint`) with their lineage and metrics.
"""

from __future__ import annotations

import csv
import json
import math
import subprocess
import time
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch

from bitflip.learn.datasets import (
    Records,
    by_years,
    dedup_policy,
    dedup_value,
    opponent_legal,
    read_shards,
    split_by_game,
)
from bitflip.nn.checkpoint import LoadedModel, load_state, save_model, save_state
from bitflip.nn.encode import BitBatch, _as_i64, encode, legal_mask, random_symmetries
from bitflip.nn.models import (
    DISC_SCALE,
    ModelConfig,
    PolicyNet,
    PolicyNetConfig,
    ValueNet,
    ValueNetConfig,
    build_model,
    config_from_dict,
    config_to_dict,
    masked_log_softmax,
)

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


def _section(cls: type, data: dict[str, Any], where: str) -> Any:
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"{where}: unknown setting(s) {', '.join(unknown)}")
    return cls(**data)


def load_config(path: str | Path, task: str | None = None) -> ExperimentConfig:
    """Read a TOML config; relative paths in it are resolved against the file's folder."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: bad TOML ({exc})") from None
    known = {"task", "out", "data", "model", "train"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ValueError(f"{path}: unknown setting(s) {', '.join(unknown)}")
    file_task = raw.get("task", task)
    if file_task not in TASKS:
        raise ValueError(f"{path}: task must be one of {', '.join(TASKS)}, not {file_task!r}")
    if task is not None and file_task != task:
        raise ValueError(f"{path} is a {file_task} config, not a {task} one")
    data = _section(DataConfig, raw.get("data", {}), f"{path} [data]")
    train_cfg = _section(TrainConfig, raw.get("train", {}), f"{path} [train]")
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


# --- data --------------------------------------------------------------------------------------


@dataclass
class TensorSet:
    """Positions on the training device with their targets."""

    bits: BitBatch
    move: torch.Tensor
    """Policy target squares (int64)."""
    wdl: torch.Tensor
    """Value target on the +-1 scale (float32)."""
    disc: torch.Tensor
    """Final disc difference from the mover's view (float32, in discs)."""

    def __len__(self) -> int:
        return len(self.bits)


def to_tensors(
    records: Records,
    device: torch.device | str = "cpu",
    wdl: np.ndarray | None = None,
    disc: np.ndarray | None = None,
) -> TensorSet:
    """Records (and optionally averaged value targets) as tensors on ``device``."""
    bits = BitBatch(
        _as_i64(records.player),
        _as_i64(records.opponent),
        _as_i64(records.legal),
        _as_i64(opponent_legal(records.player, records.opponent)),
    ).to(device)
    w = records.wdl.astype(np.float32) if wdl is None else wdl
    d = records.disc_diff.astype(np.float32) if disc is None else disc
    return TensorSet(
        bits,
        torch.from_numpy(records.move.astype(np.int64)).to(device),
        torch.from_numpy(np.asarray(w, dtype=np.float32)).to(device),
        torch.from_numpy(np.asarray(d, dtype=np.float32)).to(device),
    )


@dataclass
class Splits:
    """Records of the three parts, split by game."""

    train: Records
    val: Records
    test: Records


def split_records(records: Records, cfg: DataConfig) -> Splits:
    """Train / validation / test records as ``cfg`` says (always whole games)."""
    if cfg.split == "years":
        test = records.subset(by_years(records, cfg.test_first_year, cfg.test_last_year))
        pool = records.subset(by_years(records, cfg.train_first_year, cfg.train_last_year))
    else:
        test_mask, rest = split_by_game(
            records, [cfg.test_fraction, 1 - cfg.test_fraction], cfg.split_seed
        )
        test, pool = records.subset(test_mask), records.subset(rest)
    if cfg.max_games:
        games = np.unique(pool.game)
        if cfg.max_games < len(games):
            rng = np.random.default_rng(cfg.split_seed + 7919)
            keep = rng.choice(games, cfg.max_games, replace=False)
            pool = pool.subset(np.isin(pool.game, keep))
    val_mask, train_mask = split_by_game(
        pool, [cfg.val_fraction, 1 - cfg.val_fraction], cfg.split_seed + 1
    )
    splits = Splits(pool.subset(train_mask), pool.subset(val_mask), test)
    for name in ("train", "val", "test"):
        if len(getattr(splits, name)) == 0:
            raise ValueError(f"the {name} split is empty: check the years and fractions")
    return splits


def training_tensors(
    records: Records, task: str, dedup: bool, device: torch.device | str
) -> TensorSet:
    """Training positions for ``task``: deduplicated (policy by position+move; value by
    position, targets averaged) and restricted to finished games for value."""
    if task == "policy":
        return to_tensors(dedup_policy(records) if dedup else records, device)
    if dedup:
        vt = dedup_value(records)
        return to_tensors(vt.records, device, vt.wdl, vt.disc_diff)
    return to_tensors(records.subset(records.result_known), device)


def eval_tensors(records: Records, task: str, device: torch.device | str) -> TensorSet:
    """Every position of the given games (no dedup), finished games only for value."""
    if task == "value":
        records = records.subset(records.result_known)
    return to_tensors(records, device)


# --- losses and metrics ------------------------------------------------------------------------


def _inputs(
    model: ValueNet | PolicyNet,
    data: TensorSet,
    idx: torch.Tensor,
    augment: bool,
    generator: torch.Generator | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    bits = data.bits.index(idx)
    planes = encode(bits, model.config.features)
    mask = legal_mask(bits).view(-1, 1, 8, 8).to(planes.dtype)
    moves = data.move[idx]
    if augment:
        both, moves_t = random_symmetries(torch.cat([planes, mask], 1), moves, generator)
        assert moves_t is not None
        planes, mask, moves = both[:, :-1], both[:, -1:], moves_t
    return planes, mask.flatten(1) > 0.5, moves


def _loss(
    model: ValueNet | PolicyNet,
    out: torch.Tensor,
    data: TensorSet,
    idx: torch.Tensor,
    legal: torch.Tensor,
    moves: torch.Tensor,
    tc: TrainConfig,
) -> torch.Tensor:
    if isinstance(model, PolicyNet):
        logp = masked_log_softmax(out, legal)
        return -logp.gather(1, moves.unsqueeze(1)).mean()
    out = out.float()
    wdl_loss = ((out[:, 0] - data.wdl[idx]) ** 2).mean()
    disc_loss = ((out[:, 1] - data.disc[idx] / DISC_SCALE) ** 2).mean()
    return tc.wdl_weight * wdl_loss + tc.disc_weight * disc_loss


@torch.no_grad()
def evaluate(
    model: ValueNet | PolicyNet, data: TensorSet, batch_size: int = 4096
) -> dict[str, float]:
    """Held-out metrics: policy ``loss``, ``top1``, ``top3``, ``top1_choice`` (positions with
    two or more legal moves); value ``mse`` (result, +-1 scale), ``disc_mae``, ``disc_rmse``
    (discs) and ``loss`` (the two squared errors summed, disc on the /64 scale)."""
    was_training = model.training
    model.eval()
    device = data.bits.player.device
    sums: dict[str, float] = {}
    n = len(data)
    for i in range(0, n, batch_size):
        idx = torch.arange(i, min(i + batch_size, n), device=device)
        planes, legal, moves = _inputs(model, data, idx, augment=False)
        out = model(planes).float()
        part: dict[str, torch.Tensor] = {}
        if isinstance(model, PolicyNet):
            logp = masked_log_softmax(out, legal)
            part["loss"] = -logp.gather(1, moves.unsqueeze(1)).squeeze(1)
            top = logp.topk(3, dim=1).indices
            part["top1"] = (top[:, 0] == moves).float()
            part["top3"] = (top == moves.unsqueeze(1)).any(1).float()
            choice = legal.sum(1) > 1
            part["top1_choice"] = part["top1"] * choice
            part["n_choice"] = choice.float()
        else:
            err_w = out[:, 0] - data.wdl[idx]
            err_d = out[:, 1] * DISC_SCALE - data.disc[idx]
            part["mse"] = err_w**2
            part["disc_mae"] = err_d.abs()
            part["disc_mse"] = err_d**2
            part["loss"] = err_w**2 + (err_d / DISC_SCALE) ** 2
        for k, v in part.items():
            sums[k] = sums.get(k, 0.0) + float(v.sum())
    model.train(was_training)
    res = {k: v / max(n, 1) for k, v in sums.items() if k not in ("top1_choice", "n_choice")}
    if "n_choice" in sums:
        res["top1_choice"] = sums["top1_choice"] / max(sums["n_choice"], 1.0)
    if "disc_mse" in res:
        res["disc_rmse"] = math.sqrt(res.pop("disc_mse"))
    res["positions"] = float(n)
    return res


def evaluate_loaded(
    loaded: LoadedModel, records: Records, device: str = "auto", batch_size: int = 4096
) -> dict[str, float]:
    """The tester: a model file's metrics on the given records (all positions of their games)."""
    if not isinstance(loaded.model, ValueNet | PolicyNet):
        raise ValueError(
            f"{loaded.path}: a {loaded.config.kind} network; only value and policy nets are "
            "tested on records (play an az net with mcts:net=FILE)"
        )
    dev = resolve_device(device)
    loaded.model.to(dev)
    data = eval_tensors(records, loaded.config.kind, dev)
    if len(data) == 0:
        raise ValueError("no positions to test on (value nets need finished games)")
    return evaluate(loaded.model, data, batch_size)


# --- training ----------------------------------------------------------------------------------


def resolve_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        dev = torch.device(name)
    except RuntimeError as exc:
        raise ValueError(f"bad device {name!r}: {exc}") from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError("device 'cuda' asked for, but torch sees no CUDA device")
    return dev


def _git_revision() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            cwd=Path(__file__).parent,
        )
        return out.stdout.strip() if out.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        return ""


@dataclass
class TrainResult:
    """What a run produced."""

    model_path: Path
    run_dir: Path
    epochs: int
    best_epoch: int
    stopped: str
    """Why training ended: ``epochs``, ``early-stopping`` or ``time``."""
    val: dict[str, float] = field(default_factory=dict)
    test: dict[str, float] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)


def _optimizer(model: torch.nn.Module, tc: TrainConfig) -> torch.optim.Optimizer:
    if tc.optimizer == "sgd":
        return torch.optim.SGD(
            model.parameters(),
            lr=tc.lr,
            momentum=tc.momentum,
            weight_decay=tc.weight_decay,
            nesterov=True,
        )
    return torch.optim.AdamW(model.parameters(), lr=tc.lr, weight_decay=tc.weight_decay)


def _lr_at(tc: TrainConfig, progress: float) -> float:
    if tc.schedule == "constant":
        return tc.lr
    p = min(max(progress, 0.0), 1.0)
    floor = tc.lr * tc.min_lr_fraction
    return floor + (tc.lr - floor) * 0.5 * (1 + math.cos(math.pi * p))


def _plot(rows: list[dict[str, float]], path: Path, task: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - matplotlib is optional
        return
    epochs = [r["epoch"] for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    axes[0].plot(epochs, [r["train_loss"] for r in rows], label="train")
    axes[0].plot(epochs, [r["val_loss"] for r in rows], label="validation")
    axes[0].set_xlabel("epoch")
    axes[0].set_ylabel("loss")
    axes[0].legend()
    keys = ("val_top1", "val_top3") if task == "policy" else ("val_mse", "val_disc_mae")
    for k in keys:
        axes[1].plot(epochs, [r.get(k, float("nan")) for r in rows], label=k)
    axes[1].set_xlabel("epoch")
    axes[1].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def train(
    cfg: ExperimentConfig,
    resume: bool = False,
    progress: bool = True,
    log: Callable[[str], None] = print,
    records: Records | None = None,
) -> TrainResult:
    """Train, validate, test and save one network as ``cfg`` says (see the module docstring).

    ``records`` overrides the shards named in the config (tests pass them directly).
    """
    tc = cfg.train
    device = resolve_device(tc.device)
    torch.manual_seed(tc.seed)
    if tc.cpu_threads > 0:
        torch.set_num_threads(tc.cpu_threads)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    run_dir = Path(cfg.out)
    run_dir.mkdir(parents=True, exist_ok=True)
    state_path = run_dir / "state.pt"
    if state_path.exists() and not resume:
        raise ValueError(f"{run_dir} already holds a run: pass --resume, or another out dir")

    if records is None:
        records = read_shards(cfg.data.shards, progress=progress)
    splits = split_records(records, cfg.data)
    train_set = training_tensors(splits.train, cfg.task, cfg.data.dedup, device)
    val_set = eval_tensors(splits.val, cfg.task, device)
    test_set = eval_tensors(splits.test, cfg.task, device)
    sizes = {
        "train_positions": len(train_set),
        "val_positions": len(val_set),
        "test_positions": len(test_set),
        "train_games": len(np.unique(splits.train.game)),
        "test_games": len(np.unique(splits.test.game)),
    }
    log(
        f"{cfg.task}: {sizes['train_positions']:,} training positions "
        f"({sizes['train_games']:,} games), {sizes['val_positions']:,} validation, "
        f"{sizes['test_positions']:,} test; device {device}"
    )
    model = build_model(cfg.model).to(device)
    opt = _optimizer(model, tc)
    gen = torch.Generator().manual_seed(tc.seed)
    epoch, step, elapsed, best_loss, best_epoch, bad_epochs = 0, 0, 0.0, math.inf, -1, 0
    best_state: dict[str, torch.Tensor] | None = None
    rows: list[dict[str, float]] = []
    if resume and state_path.exists():
        st = load_state(state_path)
        model.load_state_dict(st["model"])
        opt.load_state_dict(st["optimizer"])
        gen.set_state(st["generator"])
        epoch, step, elapsed = int(st["epoch"]), int(st["step"]), float(st["elapsed"])
        best_loss, best_epoch = float(st["best_loss"]), int(st["best_epoch"])
        bad_epochs, best_state, rows = int(st["bad_epochs"]), st["best_model"], st["rows"]
        log(f"resumed at epoch {epoch} (best validation loss {best_loss:.4f})")

    per_epoch = tc.positions_per_epoch or len(train_set)
    steps_per_epoch = max(1, math.ceil(per_epoch / tc.batch_size))
    total_steps = steps_per_epoch * tc.epochs
    max_seconds = tc.max_minutes * 60 if tc.max_minutes > 0 else math.inf
    autocast = device.type == "cuda" and tc.amp
    stopped = "epochs"
    n_train = len(train_set)

    while epoch < tc.epochs:
        if bad_epochs >= tc.patience:
            stopped = "early-stopping"
            break
        if elapsed >= max_seconds:
            stopped = "time"
            break
        t0 = time.perf_counter()
        model.train()
        order = torch.cat(
            [torch.randperm(n_train, generator=gen) for _ in range(math.ceil(per_epoch / n_train))]
        )[:per_epoch].to(device)
        loss_sum, seen = torch.zeros((), device=device), 0
        bar = _bar(steps_per_epoch, f"epoch {epoch + 1}", progress)
        for i in range(0, per_epoch, tc.batch_size):
            idx = order[i : i + tc.batch_size]
            spent = elapsed + time.perf_counter() - t0
            lr = _lr_at(tc, max(step / total_steps, spent / max_seconds))
            for group in opt.param_groups:
                group["lr"] = lr
            planes, legal, moves = _inputs(model, train_set, idx, tc.symmetries, gen)
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=autocast):
                out = model(planes)
            loss = _loss(model, out, train_set, idx, legal, moves, tc)
            opt.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            model.apply_max_norm()
            step += 1
            loss_sum += loss.detach().float() * len(idx)
            seen += len(idx)
            if bar is not None:
                bar.update(1)
            if elapsed + time.perf_counter() - t0 >= max_seconds:
                break
        if bar is not None:
            bar.close()
        elapsed += time.perf_counter() - t0
        epoch += 1
        val = evaluate(model, val_set, tc.eval_batch_size)
        row = {
            "epoch": float(epoch),
            "step": float(step),
            "seconds": round(elapsed, 2),
            "lr": lr,
            "train_loss": float(loss_sum) / max(seen, 1),
            **{f"val_{k}": v for k, v in val.items() if k != "positions"},
        }
        rows.append(row)
        if val["loss"] < best_loss - 1e-6:
            best_loss, best_epoch, bad_epochs = val["loss"], epoch, 0
            best_state = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
        else:
            bad_epochs += 1
        log(_format_row(row))
        _write_csv(rows, run_dir / "metrics.csv")
        _plot(rows, run_dir / "loss.png", cfg.task)
        save_state(
            state_path,
            {
                "model": model.state_dict(),
                "optimizer": opt.state_dict(),
                "generator": gen.get_state(),
                "epoch": epoch,
                "step": step,
                "elapsed": elapsed,
                "best_loss": best_loss,
                "best_epoch": best_epoch,
                "bad_epochs": bad_epochs,
                "best_model": best_state,
                "rows": rows,
            },
        )
    if bad_epochs >= tc.patience:
        stopped = "early-stopping"
    elif elapsed >= max_seconds:
        stopped = "time"

    if best_state is not None:
        model.load_state_dict(best_state)
    val = evaluate(model, val_set, tc.eval_batch_size)
    test = evaluate(model, test_set, tc.eval_batch_size)
    lineage = {
        "task": cfg.task,
        "data": asdict(cfg.data),
        "train": asdict(tc),
        "model": config_to_dict(cfg.model),
        "sizes": sizes,
        "epochs": epoch,
        "best_epoch": best_epoch,
        "stopped": stopped,
        "seconds": round(elapsed, 1),
        "device": str(device),
        "torch": str(torch.__version__),
        "git": _git_revision(),
        "trained_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    metrics = {"val": val, "test": test}
    model_path = save_model(model, run_dir, lineage, metrics)
    (run_dir / "result.json").write_text(
        json.dumps({"model": model_path.name, "lineage": lineage, "metrics": metrics}, indent=2)
    )
    log(f"best epoch {best_epoch}; test: " + _format_metrics(test))
    log(f"model: {model_path}")
    return TrainResult(model_path, run_dir, epoch, best_epoch, stopped, val, test, sizes)


def _bar(total: int, desc: str, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        return None
    return tqdm(total=total, desc=desc, unit="batch", leave=False, mininterval=2.0)


def _format_metrics(m: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:,.0f}" if k == "positions" else f"{k} {v:.4f}" for k, v in m.items())


def _format_row(row: dict[str, float]) -> str:
    parts = [f"epoch {int(row['epoch'])}", f"{row['seconds']:.0f}s", f"lr {row['lr']:.2e}"]
    parts += [f"{k} {v:.4f}" for k, v in row.items() if k.endswith("loss") or k.startswith("val")]
    return "  ".join(dict.fromkeys(parts))


def _write_csv(rows: list[dict[str, float]], path: Path) -> None:
    keys = list(dict.fromkeys(k for r in rows for k in r))
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)
    tmp.replace(path)


__all__ = [
    "DataConfig",
    "ExperimentConfig",
    "PolicyNetConfig",
    "TrainConfig",
    "TrainResult",
    "ValueNetConfig",
    "evaluate",
    "evaluate_loaded",
    "load_config",
    "train",
]
