"""Held-out metrics of value and policy networks, and the network inputs of a batch.

:func:`evaluate` measures a network on a :class:`~bitflip.learn.supervised_data.TensorSet`
during training (:mod:`bitflip.learn.supervised`); :func:`evaluate_loaded` tests a model file
on positions (``bitflip nn test``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch

from bitflip.learn.shards import PositionBatch
from bitflip.learn.supervised_data import TensorSet, eval_tensors
from bitflip.nn.checkpoint import LoadedModel
from bitflip.nn.device import pick_device
from bitflip.nn.encode import encode, legal_mask, random_symmetries
from bitflip.nn.models import DISC_SCALE, PolicyNet, ValueNet, masked_log_softmax


def batch_inputs(
    model: ValueNet | PolicyNet,
    data: TensorSet,
    idx: torch.Tensor,
    augment: bool,
    generator: torch.Generator | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(input planes, legal-move mask, played moves) of the positions ``idx`` of ``data``;
    ``augment``: each position under a random symmetry drawn from ``generator``."""
    bits = data.bits.index(idx)
    planes = encode(bits, model.config.features)
    mask = legal_mask(bits).view(-1, 1, 8, 8).to(planes.dtype)
    moves = data.move[idx]
    if augment:
        both, moves_t = random_symmetries(torch.cat([planes, mask], 1), moves, generator)
        assert moves_t is not None
        planes, mask, moves = both[:, :-1], both[:, -1:], moves_t
    return planes, mask.flatten(1) > 0.5, moves


@torch.no_grad()
def evaluate(
    model: ValueNet | PolicyNet,
    data: TensorSet,
    batch_size: int = 4096,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, float]:
    """Held-out metrics: policy ``loss``, ``top1``, ``top3``, ``top1_choice`` (positions with
    two or more legal moves); value ``mse`` (result, +-1 scale), ``disc_mae``, ``disc_rmse``
    (discs) and ``loss`` (the two squared errors summed, disc on the /64 scale).
    ``progress(done, total)`` is called after each batch (positions)."""
    was_training = model.training
    model.eval()
    device = data.bits.player.device
    sums: dict[str, float] = {}
    n = len(data)
    for i in range(0, n, batch_size):
        idx = torch.arange(i, min(i + batch_size, n), device=device)
        planes, legal, moves = batch_inputs(model, data, idx, augment=False)
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
        if progress is not None:
            progress(min(i + batch_size, n), n)
    model.train(was_training)
    res = {k: v / max(n, 1) for k, v in sums.items() if k not in ("top1_choice", "n_choice")}
    if "n_choice" in sums:
        res["top1_choice"] = sums["top1_choice"] / max(sums["n_choice"], 1.0)
    if "disc_mse" in res:
        res["disc_rmse"] = math.sqrt(res.pop("disc_mse"))
    res["positions"] = float(n)
    return res


def evaluate_loaded(
    loaded: LoadedModel,
    positions: PositionBatch,
    device: str = "auto",
    batch_size: int = 4096,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, float]:
    """The tester: a model file's metrics on the given positions (all of their games);
    ``progress(done, total)`` after each batch."""
    if not isinstance(loaded.model, ValueNet | PolicyNet):
        raise ValueError(
            f"{loaded.path}: a {loaded.config.kind} network; only value and policy nets are "
            "tested on positions (play an az net with mcts:net=FILE)"
        )
    dev = pick_device(device)
    loaded.model.to(dev)
    data = eval_tensors(positions, loaded.config.kind, dev)
    if len(data) == 0:
        raise ValueError("no positions to test on (value nets need finished games)")
    return evaluate(loaded.model, data, batch_size, progress)
