"""``bitflip perft DEPTH``: count leaves of the game tree (convention A: a pass is a ply)."""

from __future__ import annotations

import argparse
import sys

from bitflip.cli._numbers import PERFT_DEPTH
from bitflip.cli._subcommand import Subparsers, add_subcommand
from bitflip.core.board import Board
from bitflip.core.perft import perft

LONG_PERFT = 13
"""perft(13) of 8x8 counts 18 billion leaves (a minute or more); each ply is 10 times more."""


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "perft")
    p.add_argument("depth", type=int, help="plies from the position")
    p.add_argument("--size", type=int, default=8, choices=(4, 6, 8), help="board size")
    p.add_argument("--position", help="an OBF board string to start from (default: the start)")
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import time

    PERFT_DEPTH.check(args.depth, "depth")
    board = Board(args.position) if args.position else Board(size=args.size)
    t0 = time.perf_counter()
    if args.depth >= LONG_PERFT and board.size == 8:
        # The count holds the GIL, so no status line can run beside it: say it before.
        print(
            f"bitflip perft: depth {args.depth} counts billions of leaves or more, for minutes to"
            " days",
            file=sys.stderr,
            flush=True,
        )
    total = _count(board, args.depth, args.divide)
    dt = time.perf_counter() - t0
    rate = total / dt / 1e6 if dt > 0 else float("inf")
    print(f"perft({args.depth}) = {total}  [{dt:.3f} s, {rate:.1f} M leaves/s]")
    return 0


def _count(board: Board, depth: int, divide: bool) -> int:
    """perft(depth); with ``divide``, each root move's count printed as it is found."""
    if not divide:
        return perft(board, depth)
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        n = perft(board, depth - 1) if depth > 0 else 1
        board.pop()
        total += n
        print(f"{board.geometry.square_name(move)}: {n}")
    return total
