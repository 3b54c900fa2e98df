"""What a supervised run writes as it goes: its log lines, metrics.csv and loss.png."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from bitflip.learn.supervised_log import format_metrics, format_row, plot_losses, write_csv

ROWS = [
    {"epoch": 1.0, "seconds": 12.4, "lr": 0.001, "train_loss": 0.91234, "val_loss": 0.95},
    {"epoch": 2.0, "seconds": 11.6, "lr": 0.0005, "train_loss": 0.8, "val_loss": 0.9,
     "val_top1": 0.41},
]  # fmt: skip


def test_log_lines() -> None:
    assert format_metrics({"positions": 12345.0, "top1": 0.5}) == "positions 12,345, top1 0.5000"
    # val_loss is both a loss and a validation metric: listed once.
    assert format_row(ROWS[1]) == (
        "epoch 2  12s  lr 5.00e-04  train_loss 0.8000  val_loss 0.9000  val_top1 0.4100"
    )


def test_metrics_csv_has_every_rows_keys_and_is_rewritten_whole(tmp_path: Path) -> None:
    path = tmp_path / "metrics.csv"
    write_csv(ROWS[:1], path)
    write_csv(ROWS, path)  # a later epoch rewrites the file with the new column
    with path.open() as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == ["epoch", "seconds", "lr", "train_loss", "val_loss", "val_top1"]
    assert [r["val_top1"] for r in rows] == ["", "0.41"]
    assert [p.name for p in tmp_path.iterdir()] == ["metrics.csv"]  # no temporary file left


@pytest.mark.parametrize("task", ["policy", "value"])
def test_loss_figure(tmp_path: Path, task: str) -> None:
    why = "figures need matplotlib (pip install 'bitflip[arena]')"
    pytest.importorskip("matplotlib", reason=why)
    path = tmp_path / "loss.png"
    plot_losses(ROWS, path, task)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
