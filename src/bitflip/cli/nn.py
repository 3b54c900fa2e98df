"""``bitflip nn test|info MODEL``: measure or describe a network file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bitflip._progress import ProgressLine
from bitflip.cli._subcommand import Subparsers, add_actions, add_subcommand
from bitflip.datadir import find

if TYPE_CHECKING:
    from bitflip.learn.shards import PositionBatch


def register(sub: Subparsers) -> None:
    nsub = add_actions(sub, "nn")
    t = add_subcommand(nsub, "nn test")
    t.add_argument("model", type=Path, help="a network file (.pt)")
    t.add_argument(
        "--wthor",
        type=Path,
        nargs="+",
        required=True,
        metavar="FILE",
        help=".wtb files or folders, or training shards (.npz)",
    )
    t.add_argument("--device", default="auto", help="cpu, cuda or auto")
    t.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    t.set_defaults(func=run_test)
    i = add_subcommand(nsub, "nn info")
    i.add_argument("model", type=Path)
    i.set_defaults(func=run_info)


def run_test(args: argparse.Namespace) -> int:
    from bitflip.learn.shards import PositionBatch, read_shards
    from bitflip.learn.supervised_eval import evaluate_loaded
    from bitflip.nn.checkpoint import load_model

    def say(text: str) -> None:  # the work takes minutes: say what is going on
        if not args.quiet:
            print(f"nn test: {text}", file=sys.stderr, flush=True)

    paths = [find(p) for p in args.wthor]  # wthor/WTH_2023.wtb: looked up in the data folders
    loaded = load_model(args.model)
    parts = []
    for i, path in enumerate(paths, 1):
        say(f"reading {path} ({i}/{len(paths)})")
        if path.suffix == ".npz" or (path.is_dir() and any(path.glob("*.npz"))):
            parts.append(read_shards(path))
        else:
            parts.append(_wthor_positions(path))
    records = PositionBatch.concat(parts)
    say(f"evaluating {len(records):,} positions")
    line = ProgressLine("nn test: evaluated", quiet=args.quiet)
    metrics = evaluate_loaded(
        loaded, records, args.device, progress=lambda done, n: line.update(done, n, " positions")
    )
    line.close()
    print(f"{args.model.name} ({loaded.config.kind}) on {len(records)} positions:")
    for k, v in metrics.items():
        print(f"  {k:12} {v:,.0f}" if k == "positions" else f"  {k:12} {v:.4f}")
    return 0


def _wthor_positions(path: Path) -> PositionBatch:
    import tempfile

    from bitflip.learn.build import build
    from bitflip.learn.shards import read_shards

    with tempfile.TemporaryDirectory() as tmp:
        build(path, [], Path(tmp), progress=False, log=lambda s: None)
        return read_shards(tmp)


def run_info(args: argparse.Namespace) -> int:
    import json

    from bitflip.nn.checkpoint import load_model, net_config_to_dict

    loaded = load_model(args.model)
    print(
        json.dumps(
            {
                "config": net_config_to_dict(loaded.config),
                "lineage": loaded.lineage,
                "metrics": loaded.metrics,
            },
            indent=2,
        )
    )
    return 0
