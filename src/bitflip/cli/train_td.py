"""``bitflip train td --config FILE --out DIR``: TD(lambda) FIREBRAND weights and their plots."""

from __future__ import annotations

import argparse

from bitflip.cli._numbers import COUNT
from bitflip.cli._subcommand import Subparsers, add_subcommand


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "train td")
    p.add_argument("--config", required=True, help="TOML config (see configs/td.toml)")
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--games-per-stage", type=COUNT, help="overrides the config")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace
    from pathlib import Path

    import numpy as np

    from bitflip.eval.firebrand import FIREBRAND_FEATURES
    from bitflip.learn.td import load_tdconfig, plot_trajectory, train_td

    cfg = load_tdconfig(args.config)
    if args.games_per_stage is not None:
        cfg = replace(cfg, games_per_stage=args.games_per_stage)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    result = train_td(cfg, None if args.quiet else print)
    result.weights.save(out / "weights.json")
    names = [f"w_{n}" for n in FIREBRAND_FEATURES] + [f"W_{n}" for n in FIREBRAND_FEATURES]
    table = np.column_stack([result.games, result.trajectory])
    np.savetxt(out / "trajectory.csv", table, delimiter=",", header="games," + ",".join(names),
               comments="", fmt="%.6g")  # fmt: skip
    plot_trajectory(result, out / "trajectory.png")
    print(f"weights: {out / 'weights.json'}; plot: {out / 'trajectory.png'}")
    return 0
