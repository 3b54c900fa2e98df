"""``bitflip book build`` and ``bitflip book show POSITION``: the opening book
(:mod:`bitflip.learn.book_build` builds it, :mod:`bitflip.search.book` reads it)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bitflip._progress import ProgressLine
from bitflip.cli._numbers import COUNT, DEPTH, PLY
from bitflip.cli._positions import parse_position
from bitflip.cli._subcommand import Subparsers, add_actions, add_subcommand
from bitflip.core.board import Board
from bitflip.datadir import find


def register(sub: Subparsers) -> None:
    actions = add_actions(sub, "book")
    b = add_subcommand(actions, "book build")
    b.add_argument("--wthor", type=Path, default=None, help="folder of WTH_*.wtb files")
    b.add_argument("--max-ply", type=PLY, default=22, help="book positions up to this ply")
    b.add_argument("--min-games", type=COUNT, default=10, help="games a book position needs")
    b.add_argument("--depth", type=DEPTH, default=10, help="search depth of the leaf moves")
    b.add_argument("--out", type=Path, required=True, help="the book file to write (.npz)")
    b.set_defaults(func=run_build)
    s = add_subcommand(actions, "book show")
    s.add_argument("position", help="OBF board string or transcript ('' : the start)")
    s.add_argument("--book", default="default", help="book file (default: the shipped one)")
    s.set_defaults(func=run_show)


def run_build(args: argparse.Namespace) -> int:
    import sys
    import time

    from bitflip.learn.book_build import BookConfig, build_book, wthor_files
    from bitflip.search.book import save_book

    folder = find(args.wthor if args.wthor is not None else "wthor")
    config = BookConfig(max_ply=args.max_ply, min_games=args.min_games, depth=args.depth)
    t0 = time.perf_counter()

    line = ProgressLine("searched")
    book = build_book(
        wthor_files(folder), config, lambda done, total: line.update(done, total, " positions")
    )
    line.close()
    book.meta["command"] = "bitflip book build " + " ".join(sys.argv[3:])
    save_book(args.out, book)
    size = args.out.stat().st_size
    print(
        f"{args.out}: {len(book)} positions ({book.meta['source']}), "
        f"{size / 2**20:.2f} MiB, {time.perf_counter() - t0:.0f} s"
    )
    return 0


def run_show(args: argparse.Namespace) -> int:
    from bitflip.search.book import open_book

    book = open_book(args.book)
    if book is None:
        raise ValueError("no book given")
    board = parse_position(args.position) if args.position.strip() else Board()
    if board.size != 8:
        raise ValueError("the book is for 8x8 boards")
    p, o = board.side_bitboards()
    print(board)
    here = book.probe(p, o)
    if here is None:
        print("not in the book")
    else:
        print(f"book score {here[0]:+.2f}, {here[1]} games")
    for m in book.moves(p, o, board.geometry.mask):
        name = board.geometry.square_name(m.move)
        print(f"{name} {m.score:+.2f} ({m.games} games)")
    return 0
