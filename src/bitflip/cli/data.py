"""``bitflip data build``: game databases -> training shards (see bitflip.learn.build)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "data",
        help="build training data from game databases",
        description="Training data: versioned npz shards of positions with their targets.",
    )
    dsub = p.add_subparsers(dest="data_command", metavar="ACTION")
    dsub.required = True
    b = dsub.add_parser(
        "build",
        help="convert WTHOR files (and extra game files) to training shards",
        description="One shard per input file: every position of every game with the move "
        "played, the final disc difference and result from the mover's view and WTHOR's "
        "theoretical score. Repeated games are dropped; positions are deduplicated at "
        "training time, after the split by game.",
    )
    b.add_argument("--wthor", type=Path, help="folder of WTH_*.wtb files (or one .wtb file)")
    b.add_argument(
        "--extra",
        type=Path,
        nargs="*",
        default=[],
        metavar="FILE",
        help="more game files (.wtb, .ggf, .txt, eOthello .csv); stored with year 0 (train only)",
    )
    b.add_argument("--out", type=Path, required=True, help="output folder for the shards")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.set_defaults(func=run_build)


def run_build(args: argparse.Namespace) -> int:
    from bitflip.learn.build import build

    report = build(args.wthor, args.extra, args.out, progress=not args.quiet)
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
