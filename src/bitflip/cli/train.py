"""``bitflip train KIND --config FILE``: one subcommand per learner.

Each ``bitflip.cli.train_<kind>`` module adds its own subparser with ``register(sub)`` and
imports its learner (and torch) only when it runs.
"""

from __future__ import annotations

import argparse

from bitflip.cli import (
    train_alphazero,
    train_patterns,
    train_policy,
    train_qlearning,
    train_td,
    train_value,
)

TRAINERS = (train_value, train_policy, train_patterns, train_alphazero, train_td, train_qlearning)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "train",
        help="train a network or an evaluation from a config file",
        description="Train from a commented TOML config (see configs/).",
    )
    tsub = p.add_subparsers(dest="train_command", metavar="KIND")
    tsub.required = True
    for module in TRAINERS:
        module.register(tsub)
