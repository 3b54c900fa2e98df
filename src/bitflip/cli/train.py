"""``bitflip train KIND --config FILE``: one subcommand per learner.

Each ``bitflip.cli.train_<kind>`` module adds its own subparser with ``register(sub)`` and
imports its learner (and torch) only when it runs.
"""

from __future__ import annotations

from bitflip.cli import (
    train_alphazero,
    train_labels,
    train_patterns,
    train_qlearning,
    train_supervised,
    train_td,
)
from bitflip.cli._subcommand import Subparsers, add_subcommand

TRAINERS = (
    train_supervised,
    train_labels,
    train_patterns,
    train_alphazero,
    train_td,
    train_qlearning,
)


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "train")
    tsub = p.add_subparsers(dest="train_command", metavar="KIND")
    tsub.required = True
    for module in TRAINERS:
        module.register(tsub)
