"""What a supervised run writes as it goes: ``metrics.csv``, ``loss.png`` and log lines
(:mod:`bitflip.learn.supervised`; its progress line is :class:`bitflip._progress.ProgressLine`)."""

from __future__ import annotations

import csv
from pathlib import Path

from bitflip._atomic import atomic_path
from bitflip.learn.figures import pyplot, save_figure


def plot_losses(rows: list[dict[str, float]], path: Path, task: str) -> None:
    """Draw the training and validation losses and two validation metrics by epoch
    (nothing without matplotlib)."""
    try:
        plt = pyplot()
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
    save_figure(fig, path, dpi=80)


def format_metrics(m: dict[str, float]) -> str:
    """Metrics as one log line's text."""
    return ", ".join(f"{k} {v:,.0f}" if k == "positions" else f"{k} {v:.4f}" for k, v in m.items())


def format_row(row: dict[str, float]) -> str:
    """An epoch's CSV row as one log line."""
    parts = [f"epoch {int(row['epoch'])}", f"{row['seconds']:.0f}s", f"lr {row['lr']:.2e}"]
    parts += [f"{k} {v:.4f}" for k, v in row.items() if k.endswith("loss") or k.startswith("val")]
    return "  ".join(dict.fromkeys(parts))


def write_csv(rows: list[dict[str, float]], path: Path) -> None:
    """Write all rows (the union of their keys as columns) whole, by renaming a temporary file."""
    keys = list(dict.fromkeys(k for r in rows for k in r))
    with atomic_path(path) as tmp, tmp.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)
