"""Supervised training of value and policy networks on training shards.

One :class:`ExperimentConfig` (read from a commented TOML file, see ``configs/`` and
:mod:`bitflip.learn.supervised_config`) says which data, which network and how to train.
:func:`train` then

* splits the games (by year, or at random with a seed: the HKU protocol of several
  independent splits), deduplicates the training positions, keeps everything on the training
  device as packed bitboards and decodes + applies a random symmetry per position per batch
  (:mod:`bitflip.learn.supervised_data`);
* logs one CSV row per epoch (``metrics.csv``) and redraws ``loss.png``
  (:mod:`bitflip.learn.supervised_log`);
* saves a resumable ``state.pt`` after each epoch and stops early after ``patience`` epochs
  without a better validation loss (or at ``max_minutes``);
* tests the best weights on the held-out games (:mod:`bitflip.learn.supervised_eval`) and
  writes them as a content-hashed model file (:mod:`bitflip.nn.checkpoint`) with their
  lineage and metrics.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch

from bitflip._progress import ProgressLine
from bitflip.learn.runinfo import git_revision
from bitflip.learn.shards import PositionBatch, read_shards
from bitflip.learn.supervised_config import (
    DataConfig,
    ExperimentConfig,
    TrainConfig,
    load_config,
)
from bitflip.learn.supervised_data import (
    Splits,
    TensorSet,
    eval_tensors,
    split_positions,
    training_tensors,
)
from bitflip.learn.supervised_eval import batch_inputs, evaluate
from bitflip.learn.supervised_log import (
    format_metrics,
    format_row,
    plot_losses,
    write_csv,
)
from bitflip.nn.checkpoint import load_state, save_model, save_state
from bitflip.nn.device import pick_device
from bitflip.nn.models import (
    DISC_SCALE,
    PolicyNet,
    PolicyNetConfig,
    ValueNet,
    ValueNetConfig,
    build_model,
    config_to_dict,
    masked_log_softmax,
)


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


@dataclass
class _Progress:
    """Where a run stands: what ``state.pt`` saves after every epoch and a resume restores."""

    epoch: int = 0
    step: int = 0
    elapsed: float = 0.0
    best_loss: float = math.inf
    best_epoch: int = -1
    bad_epochs: int = 0
    best_state: dict[str, torch.Tensor] | None = None
    rows: list[dict[str, float]] = field(default_factory=list)

    def save(
        self, path: Path, model: torch.nn.Module, opt: torch.optim.Optimizer, gen: torch.Generator
    ) -> None:
        save_state(
            path,
            {
                "model": model.state_dict(),
                "optimizer": opt.state_dict(),
                "generator": gen.get_state(),
                "epoch": self.epoch,
                "step": self.step,
                "elapsed": self.elapsed,
                "best_loss": self.best_loss,
                "best_epoch": self.best_epoch,
                "bad_epochs": self.bad_epochs,
                "best_model": self.best_state,
                "rows": self.rows,
            },
        )

    @classmethod
    def load(
        cls, path: Path, model: torch.nn.Module, opt: torch.optim.Optimizer, gen: torch.Generator
    ) -> _Progress:
        st = load_state(path)
        model.load_state_dict(st["model"])
        opt.load_state_dict(st["optimizer"])
        gen.set_state(st["generator"])
        return cls(
            int(st["epoch"]),
            int(st["step"]),
            float(st["elapsed"]),
            float(st["best_loss"]),
            int(st["best_epoch"]),
            int(st["bad_epochs"]),
            st["best_model"],
            st["rows"],
        )

    def record(self, row: dict[str, float], val_loss: float, model: torch.nn.Module) -> None:
        """Add an epoch's row; keep the weights if the validation loss is the best so far."""
        self.rows.append(row)
        if val_loss < self.best_loss - 1e-6:
            self.best_loss, self.best_epoch, self.bad_epochs = val_loss, self.epoch, 0
            self.best_state = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
        else:
            self.bad_epochs += 1


@dataclass
class _Data:
    """The three tensor sets of a run and their sizes (for the log and the lineage)."""

    train: TensorSet
    val: TensorSet
    test: TensorSet
    sizes: dict[str, int]


def _prepare_data(cfg: ExperimentConfig, positions: PositionBatch, device: torch.device) -> _Data:
    splits: Splits = split_positions(positions, cfg.data)
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
    return _Data(train_set, val_set, test_set, sizes)


def _setup_torch(tc: TrainConfig) -> torch.device:
    device = pick_device(tc.device)
    torch.manual_seed(tc.seed)
    if tc.cpu_threads > 0:
        torch.set_num_threads(tc.cpu_threads)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    return device


@dataclass
class _Epoch:
    """One epoch's optimisation: the schedule's inputs and what the epoch measured."""

    model: ValueNet | PolicyNet
    opt: torch.optim.Optimizer
    gen: torch.Generator
    data: TensorSet
    tc: TrainConfig
    per_epoch: int
    total_steps: int
    max_seconds: float
    autocast: bool
    progress: bool

    def run(self, state: _Progress) -> tuple[float, float]:
        """Train one epoch (or until the time limit); returns (mean training loss, last lr)."""
        tc, model, data = self.tc, self.model, self.data
        device = data.bits.player.device
        t0 = time.perf_counter()
        model.train()
        n_train = len(data)
        order = torch.cat(
            [
                torch.randperm(n_train, generator=self.gen)
                for _ in range(math.ceil(self.per_epoch / n_train))
            ]
        )[: self.per_epoch].to(device)
        loss_sum, seen = torch.zeros((), device=device), 0
        lr = tc.lr
        steps = max(1, math.ceil(self.per_epoch / tc.batch_size))
        bar = ProgressLine(f"epoch {state.epoch + 1}", quiet=not self.progress)
        for i in range(0, self.per_epoch, tc.batch_size):
            idx = order[i : i + tc.batch_size]
            spent = state.elapsed + time.perf_counter() - t0
            lr = _lr_at(tc, max(state.step / self.total_steps, spent / self.max_seconds))
            for group in self.opt.param_groups:
                group["lr"] = lr
            planes, legal, moves = batch_inputs(model, data, idx, tc.symmetries, self.gen)
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=self.autocast):
                out = model(planes)
            loss = _loss(model, out, data, idx, legal, moves, tc)
            self.opt.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]  # torch leaves it untyped
            self.opt.step()
            model.apply_max_norm()
            state.step += 1
            loss_sum += loss.detach().float() * len(idx)
            seen += len(idx)
            bar.update(i // tc.batch_size + 1, steps, " batches")
            if state.elapsed + time.perf_counter() - t0 >= self.max_seconds:
                break
        bar.close()
        state.elapsed += time.perf_counter() - t0
        state.epoch += 1
        return float(loss_sum) / max(seen, 1), lr


def train(
    cfg: ExperimentConfig,
    resume: bool = False,
    progress: bool = True,
    log: Callable[[str], None] = print,
    positions: PositionBatch | None = None,
) -> TrainResult:
    """Train, validate, test and save one network as ``cfg`` says (see the module docstring).

    ``positions`` overrides the shards named in the config (tests pass them directly).
    """
    tc = cfg.train
    device = _setup_torch(tc)
    run_dir = Path(cfg.out)
    run_dir.mkdir(parents=True, exist_ok=True)
    state_path = run_dir / "state.pt"
    if state_path.exists() and not resume:
        raise ValueError(f"{run_dir} already holds a run: pass --resume, or another out dir")

    if positions is None:
        positions = read_shards(cfg.data.shards, progress=progress)
    data = _prepare_data(cfg, positions, device)
    sizes = data.sizes
    log(
        f"{cfg.task}: {sizes['train_positions']:,} training positions "
        f"({sizes['train_games']:,} games), {sizes['val_positions']:,} validation, "
        f"{sizes['test_positions']:,} test; device {device}"
    )
    model = build_model(cfg.model).to(device)
    opt = _optimizer(model, tc)
    gen = torch.Generator().manual_seed(tc.seed)
    state = _Progress()
    if resume and state_path.exists():
        state = _Progress.load(state_path, model, opt, gen)
        log(f"resumed at epoch {state.epoch} (best validation loss {state.best_loss:.4f})")

    per_epoch = tc.positions_per_epoch or len(data.train)
    steps_per_epoch = max(1, math.ceil(per_epoch / tc.batch_size))
    max_seconds = tc.max_minutes * 60 if tc.max_minutes > 0 else math.inf
    epoch_runner = _Epoch(
        model, opt, gen, data.train, tc, per_epoch, steps_per_epoch * tc.epochs, max_seconds,
        device.type == "cuda" and tc.amp, progress,
    )  # fmt: skip
    while state.epoch < tc.epochs:
        if state.bad_epochs >= tc.patience or state.elapsed >= max_seconds:
            break
        train_loss, lr = epoch_runner.run(state)
        val = evaluate(model, data.val, tc.eval_batch_size)
        row = {
            "epoch": float(state.epoch),
            "step": float(state.step),
            "seconds": round(state.elapsed, 2),
            "lr": lr,
            "train_loss": train_loss,
            **{f"val_{k}": v for k, v in val.items() if k != "positions"},
        }
        state.record(row, val["loss"], model)
        log(format_row(row))
        write_csv(state.rows, run_dir / "metrics.csv")
        plot_losses(state.rows, run_dir / "loss.png", cfg.task)
        state.save(state_path, model, opt, gen)
    stopped = "epochs"
    if state.bad_epochs >= tc.patience:
        stopped = "early-stopping"
    elif state.elapsed >= max_seconds:
        stopped = "time"
    return _finish(cfg, model, data, state, stopped, device, log)


def _finish(
    cfg: ExperimentConfig,
    model: ValueNet | PolicyNet,
    data: _Data,
    state: _Progress,
    stopped: str,
    device: torch.device,
    log: Callable[[str], None],
) -> TrainResult:
    """Test the best weights and write the model file and ``result.json``."""
    tc, run_dir = cfg.train, Path(cfg.out)
    if state.best_state is not None:
        model.load_state_dict(state.best_state)
    val = evaluate(model, data.val, tc.eval_batch_size)
    test = evaluate(model, data.test, tc.eval_batch_size)
    lineage = {
        "task": cfg.task,
        "data": asdict(cfg.data),
        "train": asdict(tc),
        "model": config_to_dict(cfg.model),
        "sizes": data.sizes,
        "epochs": state.epoch,
        "best_epoch": state.best_epoch,
        "stopped": stopped,
        "seconds": round(state.elapsed, 1),
        "device": str(device),
        "torch": str(torch.__version__),
        "git": git_revision(),
        "trained_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    metrics = {"val": val, "test": test}
    model_path = save_model(model, run_dir, lineage, metrics)
    (run_dir / "result.json").write_text(
        json.dumps({"model": model_path.name, "lineage": lineage, "metrics": metrics}, indent=2)
    )
    log(f"best epoch {state.best_epoch}; test: " + format_metrics(test))
    log(f"model: {model_path}")
    return TrainResult(
        model_path, run_dir, state.epoch, state.best_epoch, stopped, val, test, data.sizes
    )


__all__ = [
    "DataConfig",
    "ExperimentConfig",
    "PolicyNetConfig",
    "TrainConfig",
    "TrainResult",
    "ValueNetConfig",
    "load_config",
    "train",
]
