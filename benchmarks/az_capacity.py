"""Is an AlphaZero run's net too small for its data? Fit nets of other shapes to the same games.

Run (from the repository root, one thread a net):
  OMP_NUM_THREADS=1 PYTHONPATH=src python benchmarks/az_capacity.py RUN_DIR --config C.toml \\
      --train 250:340 --held-out 340:347 --steps 3000 --net channels=64 \\
      --net residual=true,blocks=6,channels=64 --baseline NET.pt --save-dir DIR

Each ``--net`` (fields of ``[net]``; the run's config ``--config`` for the rest) is trained from
scratch (or from ``--init``) with the run's loss (``learn.alphazero.train_net``: policy
cross-entropy, value MSE on the blended target, the score head's MSE), Adam at ``--lr``, batch
256, the 8 symmetries, on the self-play shards of the ``--train`` iterations; then its losses on
the ``--held-out`` iterations' positions (later games, not trained on) are printed beside those
of each ``--baseline`` net. Held-out losses against self-play results are a blunt measure of
play (the results are noisy): ``benchmarks/az_move_probe.py`` and matches say more.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
import tomllib
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from bitflip.learn.alphazero import train_net
from bitflip.learn.az_config import RunConfig, load_config
from bitflip.learn.az_rundir import RunDir
from bitflip.learn.az_shards import TrainingData, read_selfplay_shards
from bitflip.nn.alphazero import AZNet, AZNetConfig, encode
from bitflip.nn.checkpoint import load_az_net, save_model


def iterations(text: str) -> range:
    """``A:B`` -> iterations A..B-1."""
    a, _, b = text.partition(":")
    return range(int(a), int(b))


def shards(run: Path, its: range) -> list[Path]:
    found = RunDir(run).shard_paths(its)
    if not found:
        raise ValueError(f"{run}/shards: no shard of iterations {its.start}-{its.stop - 1}")
    return found


def net_fields(spec: str, base: AZNetConfig) -> AZNetConfig:
    """``channels=128,residual=true`` -> the run's net config with those fields changed."""
    changes = {}
    for item in filter(None, spec.split(",")):
        key, _, value = item.partition("=")
        changes[key.strip()] = tomllib.loads(f"v = {value.strip()}")["v"]
    return dataclasses.replace(base, **changes)


@torch.no_grad()
def held_out_losses(net: AZNet, data: TrainingData, cfg: RunConfig) -> dict[str, float]:
    """Mean policy cross-entropy, value MSE (the run's blended target), score MSE and the share
    of decided positions whose value has the result's sign, over all of ``data``."""
    net.eval()
    size, blend = cfg.net.size, cfg.train.value_margin
    sums = {"policy": 0.0, "value": 0.0, "score": 0.0, "sign": 0.0}
    decided = 0
    for start in range(0, len(data), 4096):
        sl = slice(start, start + 4096)
        planes, legal = encode(data.player[sl], data.opponent[sl], size)
        m = torch.from_numpy(legal)
        logits, v, score = net.forward_score(torch.from_numpy(planes), m)
        logp = torch.where(m, F.log_softmax(logits, dim=1), torch.zeros_like(logits))
        pi = torch.from_numpy(data.policy[sl])
        margin = torch.from_numpy(data.margin[sl] / (size * size))
        z = torch.from_numpy(data.value[sl])
        target = (1.0 - blend) * z + blend * margin
        sums["policy"] += float(-(pi * logp).sum())
        sums["value"] += float(((v - target) ** 2).sum())
        if score is not None:
            sums["score"] += float(((score - margin) ** 2).sum())
        nonzero = z != 0
        sums["sign"] += float((torch.sign(v[nonzero]) == z[nonzero]).sum())
        decided += int(nonzero.sum())
    n = len(data)
    return {
        "policy": sums["policy"] / n,
        "value": sums["value"] / n,
        "score": sums["score"] / n,
        "sign": sums["sign"] / max(decided, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path, help="an AlphaZero run directory (its shards/)")
    ap.add_argument("--config", type=Path, required=True, help="the run's TOML config")
    ap.add_argument("--train", type=iterations, required=True, help="iterations A:B to fit on")
    ap.add_argument("--held-out", type=iterations, required=True, help="iterations A:B to score")
    ap.add_argument("--net", action="append", default=[], help="net fields to change (repeat)")
    ap.add_argument("--baseline", action="append", default=[], help="trained nets to score too")
    ap.add_argument("--init", type=Path, help="go on from this net (one --net, its shape)")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save-dir", type=Path, help="write each fitted net here")
    args = ap.parse_args()

    cfg = load_config(args.config)
    cfg = dataclasses.replace(
        cfg, train=dataclasses.replace(cfg.train, steps=args.steps, lr=args.lr)
    )
    backfill = cfg.train.backfill_exact
    t0 = time.perf_counter()
    train = read_selfplay_shards(shards(args.run, args.train), cfg.net.size, backfill)
    test = read_selfplay_shards(shards(args.run, args.held_out), cfg.net.size, backfill)
    print(f"{len(train)} training positions (iterations {args.train.start}-{args.train.stop - 1}),"
          f" {len(test)} held out ({args.held_out.start}-{args.held_out.stop - 1}),"
          f" read in {time.perf_counter() - t0:.0f} s", flush=True)  # fmt: skip
    for path in args.baseline:
        net = load_az_net(path)
        print(f"baseline {Path(path).name}: {held_out_losses(net, test, cfg)}", flush=True)
    for spec in args.net:
        net_cfg = net_fields(spec, cfg.net)
        run_cfg = dataclasses.replace(cfg, net=net_cfg)
        torch.manual_seed(args.seed)
        net = load_az_net(args.init) if args.init else AZNet(net_cfg)
        if net.config != net_cfg:
            raise SystemExit(f"--init {args.init} is {net.config}, not the --net {net_cfg}")
        params = sum(p.numel() for p in net.parameters())
        t0 = time.perf_counter()
        last = train_net(net, train, run_cfg, torch.device("cpu"), np.random.default_rng(args.seed))
        fit_s = time.perf_counter() - t0
        losses = held_out_losses(net, test, run_cfg)
        print(f"net {spec!r} ({params:,} parameters, {fit_s:.0f} s): training {last}; "
              f"held out {losses}", flush=True)  # fmt: skip
        if args.save_dir:
            lineage = {"fit": "benchmarks/az_capacity.py", "train": str(args.train),
                       "run": str(args.run), "steps": args.steps}  # fmt: skip
            saved = save_model(net, args.save_dir, lineage=lineage, metrics=losses)
            print(f"  saved {saved}", flush=True)


if __name__ == "__main__":
    try:
        main()
    except (OSError, ValueError) as exc:  # a missing run, shard or net; a corrupt file
        raise SystemExit(f"az_capacity: error: {exc}") from None
