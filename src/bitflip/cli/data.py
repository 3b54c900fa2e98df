"""``bitflip data build``: game databases -> training shards (see bitflip.learn.build);
``bitflip data get``: download data sets (see :mod:`bitflip.cli.data_get`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bitflip.cli._subcommand import Subparsers, add_actions, add_subcommand
from bitflip.cli.data_get import add_get
from bitflip.datadir import find


def register(sub: Subparsers) -> None:
    dsub = add_actions(sub, "data")
    b = add_subcommand(dsub, "data build")
    b.add_argument("--wthor", type=Path, help="folder of WTH_*.wtb files (or one .wtb file)")
    extra = "more game files (.wtb, .ggf, .txt, eOthello .csv); stored with year 0 (train only)"
    b.add_argument("--extra", type=Path, nargs="*", default=[], metavar="FILE", help=extra)
    b.add_argument("--out", type=Path, required=True, help="output folder for the shards")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.set_defaults(func=run_build)
    add_get(dsub)


def run_build(args: argparse.Namespace) -> int:
    from bitflip.learn.build import build

    wthor = find(args.wthor) if args.wthor is not None else None
    extras = [find(e) for e in args.extra]
    report = build(wthor, extras, args.out, progress=not args.quiet)
    for f in report.files:
        notes = []
        if f.duplicates:
            notes.append(f"{f.duplicates} repeated games dropped")
        if f.illegal:
            notes.append(f"{f.illegal} illegal games dropped")
        if f.unfinished:
            notes.append(f"{f.unfinished} unfinished")
        extra = f" ({'; '.join(notes)})" if notes else ""
        print(f"{f.shard.name}: {f.games} games, {f.positions} positions{extra}")
    print(f"total: {report.games} games, {report.positions} positions in {args.out}")
    return 0
