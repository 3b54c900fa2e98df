"""``bitflip train KIND --config FILE``: one subcommand per trainer module that is installed.

Each ``bitflip.cli.train_<kind>`` module has ``register(sub)`` adding its own subparser; a
kind whose module does not exist (a learner not merged yet) is left out of ``--help``.
"""

from __future__ import annotations

import argparse
import importlib

TRAINERS: tuple[str, ...] = ("value", "policy", "patterns", "alphazero", "td", "qlearning")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "train",
        help="train a network or an evaluation from a config file",
        description="Train from a commented TOML config (see configs/).",
    )
    tsub = p.add_subparsers(dest="train_command", metavar="KIND")
    tsub.required = True
    for name in TRAINERS:
        module_name = f"bitflip.cli.train_{name}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        module.register(tsub)
