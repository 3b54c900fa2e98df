"""``bitflip db stats PATH...``: summarise game databases (WTHOR files, GGF, folders)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("db", help="game databases: summaries")
    dbsub = p.add_subparsers(dest="db_command", metavar="ACTION")
    dbsub.required = True
    s = dbsub.add_parser(
        "stats",
        help="games, years, players, results, unfinished games, margins",
        description="Summarise .wtb (with the .JOU/.TRN names found beside them) and .ggf "
        "files; a folder counts every .wtb and .ggf file in it.",
    )
    s.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    s.set_defaults(func=run_stats)


def run_stats(args: argparse.Namespace) -> int:
    from bitflip.formats.stats import DbStats

    stats = DbStats()
    for path in args.paths:
        stats.add_path(path)
    print("\n".join(stats.lines()))
    return 0
