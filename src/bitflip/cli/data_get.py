"""``bitflip data get NAME``: download a data set from its official source (bitflip.download)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bitflip._progress import ProgressLine
from bitflip.cli._subcommand import Subparsers, add_subcommand
from bitflip.datadir import user_data_dir
from bitflip.download import SOURCES, get, parse_years


def add_get(dsub: Subparsers) -> None:
    g = add_subcommand(dsub, "data get")
    g.add_argument("name", choices=sorted(SOURCES), help="the data set")
    g.add_argument("--years", help="WTHOR years, e.g. 2020-2023 or 2001,2003 (default: all)")
    g.add_argument("--dest", type=Path, help="data folder (default: the user data folder)")
    g.add_argument("--from", dest="root", metavar="URL", help="a mirror holding the same files")
    g.add_argument("--quiet", action="store_true", help="no progress")
    g.set_defaults(func=run_get)


def run_get(args: argparse.Namespace) -> int:
    years = parse_years(args.years) if args.years else None
    if years is not None and args.name != "wthor":
        raise ValueError("--years is for the wthor data set")
    dest = args.dest or user_data_dir()
    bars: dict[str, ProgressLine] = {}
    # Files are small: a log gets the one result line per file printed below, no progress.
    quiet = args.quiet or not sys.stderr.isatty()

    def progress(name: str, done: int, total: int | None) -> None:
        bar = bars.setdefault(name, ProgressLine(name, quiet=quiet))
        bar.update(done, total, " bytes")
        if total is not None and done >= total:
            bar.close()

    fetched = get(args.name, dest, years=years, root=args.root, progress=progress)
    for f in fetched:
        note = f" ({f.note})" if f.note else ""
        print(f"{f.path}: {f.status}{note}")
    print(f"{len(fetched)} files of {args.name} in {dest / fetched[0].path.parent.name}")
    return 0
