"""``bitflip train value|policy --config FILE``: supervised networks from expert games.

Both tasks take the same options; the config file (``configs/value*.toml``,
``configs/policy*.toml``) says the rest.
"""

from __future__ import annotations

import argparse

from bitflip.cli._numbers import COUNT_OR_ZERO, MINUTES
from bitflip.cli._subcommand import Subparsers, add_subcommand


def register(sub: Subparsers) -> None:
    for task in ("value", "policy"):
        p = add_subcommand(sub, f"train {task}")
        add_arguments(p)
        p.set_defaults(func=run, task=task)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", required=True, help="TOML config (see configs/)")
    p.add_argument("--resume", action="store_true", help="continue the run in the out folder")
    p.add_argument("--out", help="run folder (overrides the config's out)")
    p.add_argument("--device", help="cpu, cuda, cuda:1 or auto (overrides the config)")
    p.add_argument("--shards", help="shard folder (overrides the config's data.shards)")
    p.add_argument(
        "--max-games", type=COUNT_OR_ZERO, help="train on this many games (overrides the config)"
    )
    p.add_argument("--max-minutes", type=MINUTES, help="training time limit (overrides the config)")
    p.add_argument(
        "--split-seeds",
        help="comma-separated seeds: train once per random split (data.split = 'random') and "
        "print the test metrics of each, as the HKU report's Table 1",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bars")


def run(args: argparse.Namespace) -> int:
    task: str = args.task
    import dataclasses
    from pathlib import Path

    from bitflip.learn.supervised import load_config, train

    cfg = load_config(args.config, task)
    if args.out:
        cfg.out = str(Path(args.out).resolve())
    if args.device:
        cfg.train.device = args.device
    if args.shards:
        cfg.data.shards = str(Path(args.shards).resolve())
    if args.max_games is not None:
        cfg.data.max_games = args.max_games
    if args.max_minutes is not None:
        cfg.train.max_minutes = args.max_minutes
    if not args.split_seeds:
        train(cfg, resume=args.resume, progress=not args.quiet)
        return 0
    try:
        seeds = [int(s) for s in args.split_seeds.split(",")]
    except ValueError:
        raise ValueError(
            f"--split-seeds wants integers like 0,1,2, not {args.split_seeds!r}"
        ) from None
    from bitflip.learn.shards import read_shards

    positions = read_shards(cfg.data.shards, progress=not args.quiet)
    results = []
    for seed in seeds:
        data = dataclasses.replace(cfg.data, split="random", split_seed=seed)
        run_cfg = dataclasses.replace(cfg, data=data, out=str(Path(cfg.out) / f"split-{seed}"))
        results.append((seed, train(run_cfg, args.resume, not args.quiet, positions=positions)))
    keys = list(results[0][1].test)
    print("split seed  " + "  ".join(f"{k:>12}" for k in keys))
    for seed, res in results:
        print(f"{seed:>10}  " + "  ".join(f"{res.test[k]:>12.4f}" for k in keys))
    return 0
