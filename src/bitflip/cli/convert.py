"""``bitflip convert IN OUT``: games between transcripts, GGF and WTHOR; OBF to OBF."""

from __future__ import annotations

import argparse

from bitflip.cli._numbers import YEAR
from bitflip.cli._subcommand import Subparsers, add_subcommand
from bitflip.datadir import find
from bitflip.formats import obf
from bitflip.formats.io import format_of, read_games, write_games


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "convert")
    p.add_argument("input", help="file to read")
    p.add_argument("output", help="file to write (its extension picks the format)")
    p.add_argument(
        "--size", type=int, default=8, choices=(4, 6, 8), help="board size of .txt input"
    )
    p.add_argument("--passes", action="store_true", help="write passes as 'pa' in .txt output")
    p.add_argument("--year", type=YEAR, default=None, help="year in a .wtb header")
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    src, dst = Path(args.input), Path(args.output)
    fin, fout = format_of(src), format_of(dst)
    src = find(src)  # a data set's file (wthor/WTH_2021.wtb) is looked up in the data folders
    if not src.is_file():
        raise FileNotFoundError(f"{src}: no such file")
    if dst.exists() and not args.force:
        raise FileExistsError(f"{dst} exists (use --force to overwrite)")
    if src.resolve() == dst.resolve():
        raise ValueError("input and output are the same file")
    if (fin == "OBF") != (fout == "OBF"):
        raise ValueError(
            f"cannot convert {fin} to {fout}: OBF holds positions, the other formats games"
        )
    if fin == "OBF":
        positions = list(obf.read(src))
        if not positions:
            raise ValueError(f"{src} holds no position: nothing written to {dst}")
        obf.write(dst, positions)
        print(f"{len(positions)} positions: {src} -> {dst}")
        return 0
    records = list(read_games(src, size=args.size, passes=True))
    if not records:
        raise ValueError(f"{src} holds no game: nothing written to {dst}")
    write_games(dst, records, passes=args.passes, year=args.year)
    print(f"{len(records)} games: {src} ({fin}) -> {dst} ({fout})")
    return 0
