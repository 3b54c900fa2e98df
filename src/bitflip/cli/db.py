"""``bitflip db stats PATH...``: summarise game databases (WTHOR files, GGF, folders)."""

from __future__ import annotations

import argparse

from bitflip.cli._subcommand import Subparsers, add_actions, add_subcommand
from bitflip.datadir import find
from bitflip.formats.stats import DbStats


def register(sub: Subparsers) -> None:
    dbsub = add_actions(sub, "db")
    s = add_subcommand(dbsub, "db stats")
    s.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    s.set_defaults(func=run_stats)


def run_stats(args: argparse.Namespace) -> int:
    stats = DbStats()
    for path in args.paths:
        stats.add_path(find(path))  # wthor/WTH_2021.wtb: looked up in the data folders
    print("\n".join(stats.lines()))
    return 0
