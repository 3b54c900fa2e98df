"""``bitflip train policy --config FILE``: supervised policy network from expert games."""

from __future__ import annotations

import argparse

from bitflip.cli import _train_common


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "policy",
        help="a policy network from training shards (configs/policy*.toml)",
        description="Train a policy network: checkpoints each epoch (--resume continues), early "
        "stopping, metrics.csv and loss.png in the run folder, a content-hashed model file.",
    )
    _train_common.add_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return _train_common.run(args, "policy")
