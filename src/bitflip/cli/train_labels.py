"""``bitflip train labels --config configs/patterns.toml``: search labels for a fit."""

from __future__ import annotations

import argparse
from typing import Any

from bitflip._progress import ProgressLine
from bitflip.cli._numbers import COUNT, WORKERS
from bitflip.cli._subcommand import Subparsers, add_subcommand
from bitflip.datadir import find


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "train labels")
    p.add_argument(
        "--config", required=True, help="TOML file with a [labels] table (configs/patterns.toml)"
    )
    p.add_argument("--wthor", help="WTHOR folder or .wtb file (overrides the config)")
    p.add_argument("--out", help="label folder (overrides the config)")
    p.add_argument("--positions", type=COUNT, help="positions to label (overrides)")
    p.add_argument("--workers", type=WORKERS, help="labelling processes (overrides)")
    p.add_argument("--backend", choices=("local", "ray"), help="where the searches run (overrides)")
    p.add_argument("--ray-address", help="Ray cluster to join, as HOST:6379 (overrides)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import dataclasses

    from bitflip.learn.eval_labels import LabelConfig, make_labels

    cfg = LabelConfig.from_toml(args.config)
    changes: dict[str, Any] = {}
    changes["wthor"] = str(find(args.wthor or cfg.wthor))
    for key in ("out", "positions", "workers", "backend", "ray_address"):
        if getattr(args, key) is not None:
            changes[key] = getattr(args, key)
    cfg = dataclasses.replace(cfg, **changes)
    cfg.check()
    line = ProgressLine("label chunks")
    paths = make_labels(cfg, lambda done, total: line.update(done, total))
    line.close()
    print(f"{len(paths)} chunks of {cfg.chunk} positions in {cfg.out}")
    return 0
