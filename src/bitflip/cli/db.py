"""``bitflip db stats PATH...``: summarise game databases (WTHOR files, GGF, folders)."""

from __future__ import annotations

import argparse

from bitflip.cli._subcommand import Subparsers, add_subcommand

_DB_HELP = "game databases: summaries"
_STATS_HELP = "games, years, players, results, unfinished games, margins"
_STATS_DETAILS = (
    "Summarise .wtb (with the .JOU/.TRN names found beside them) and .ggf "
    "files; a folder counts every .wtb and .ggf file in it."
)


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "db", _DB_HELP)
    dbsub = p.add_subparsers(dest="db_command", metavar="ACTION")
    dbsub.required = True
    s = add_subcommand(dbsub, "stats", _STATS_HELP, _STATS_DETAILS)
    s.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    s.set_defaults(func=run_stats)


def run_stats(args: argparse.Namespace) -> int:
    from bitflip.formats.stats import DbStats

    stats = DbStats()
    for path in args.paths:
        stats.add_path(path)
    print("\n".join(stats.lines()))
    return 0
