"""``bitflip train KIND --config FILE``: every trainer is a module ``bitflip.cli.train_KIND``.

Each trainer module has ``register(train_subparsers)``; this command only lists them, so each
learning method stays in its own module and adds itself with one name in :data:`TRAINERS`.
"""

from __future__ import annotations

import argparse
import importlib

TRAINERS: tuple[str, ...] = ("patterns",)
"""Trainer modules ``bitflip.cli.train_<name>``, in the order --help lists them."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "train",
        help="fit an evaluation or train a network from a config file",
        description="Train one kind of model; each kind has its own options (see "
        "`bitflip train KIND --help`).",
    )
    train_sub = p.add_subparsers(dest="trainer", metavar="KIND")
    train_sub.required = True
    for name in TRAINERS:
        importlib.import_module(f"bitflip.cli.train_{name}").register(train_sub)
