"""Training positions for supervised learning: splits by game, deduplication, device tensors."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from bitflip.core.arrays import legal_moves_many
from bitflip.core.bitboard import FULL
from bitflip.learn.datasets import by_years, dedup_policy, dedup_value, split_by_game
from bitflip.learn.shards import PositionBatch
from bitflip.learn.supervised_config import DataConfig
from bitflip.nn.encode import BitBatch, as_int64


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
    positions: PositionBatch,
    device: torch.device | str = "cpu",
    wdl: np.ndarray | None = None,
    disc: np.ndarray | None = None,
) -> TensorSet:
    """PositionBatch (and optionally averaged value targets) as tensors on ``device``."""
    bits = BitBatch(
        as_int64(positions.player),
        as_int64(positions.opponent),
        as_int64(positions.legal),
        as_int64(legal_moves_many(positions.opponent, positions.player, FULL)),
    ).to(device)
    w = positions.wdl.astype(np.float32) if wdl is None else wdl
    d = positions.disc_diff.astype(np.float32) if disc is None else disc
    return TensorSet(
        bits,
        torch.from_numpy(positions.move.astype(np.int64)).to(device),
        torch.from_numpy(np.asarray(w, dtype=np.float32)).to(device),
        torch.from_numpy(np.asarray(d, dtype=np.float32)).to(device),
    )


@dataclass
class Splits:
    """PositionBatch of the three parts, split by game."""

    train: PositionBatch
    val: PositionBatch
    test: PositionBatch


def split_positions(positions: PositionBatch, cfg: DataConfig) -> Splits:
    """Train / validation / test positions as ``cfg`` says (always whole games)."""
    if cfg.split == "years":
        test = positions.subset(by_years(positions, cfg.test_first_year, cfg.test_last_year))
        pool = positions.subset(by_years(positions, cfg.train_first_year, cfg.train_last_year))
    else:
        test_mask, rest = split_by_game(
            positions, [cfg.test_fraction, 1 - cfg.test_fraction], cfg.split_seed
        )
        test, pool = positions.subset(test_mask), positions.subset(rest)
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
    positions: PositionBatch, task: str, dedup: bool, device: torch.device | str
) -> TensorSet:
    """Training positions for ``task``: deduplicated (policy by position+move; value by
    position, targets averaged) and restricted to finished games for value."""
    if task == "policy":
        return to_tensors(dedup_policy(positions) if dedup else positions.moves_played(), device)
    if dedup:
        vt = dedup_value(positions)
        return to_tensors(vt.positions, device, vt.wdl, vt.disc_diff)
    return to_tensors(positions.subset(positions.result_known), device)


def eval_tensors(positions: PositionBatch, task: str, device: torch.device | str) -> TensorSet:
    """Every position of the given games (no dedup), finished games only for value."""
    if task == "value":
        return to_tensors(positions.subset(positions.result_known), device)
    return to_tensors(positions.moves_played(), device)
