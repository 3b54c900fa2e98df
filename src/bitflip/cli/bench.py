"""``bitflip bench``: search fixed positions to a fixed depth; the node count is the signature.

Like Stockfish's bench: same code, same positions, same count. Commits that change the search
or the evaluation end with ``Bench: <nodes>``.
"""

from __future__ import annotations

import argparse

from bitflip._progress import StatusLine
from bitflip.cli._numbers import DEPTH
from bitflip.cli._subcommand import Subparsers, add_subcommand
from bitflip.core.board import Board
from bitflip.search.limits import Limit

BENCH_POSITIONS: tuple[str, ...] = (
    "-----------OX------OX------OO------XXOXX--X--OO--X---O---------- X",
    "-----------------XX-X----OOOXXX----XX-----OXXOX---X--XO-------X- X",
    "-----------O-------O------OOO---O-OOOO---OOOX---X-OXXX----XXXXX- X",
    "-----------O-------OO--O--OOO-O--OOOOO-XXO-OO-X--XXX-O---OXXX-O- X",
    "--------O-X---O--OX-X-O-X-XXOXO---XOXOO---OXOXO--OXOO----X-XXXX- X",
    "-----------XOO----XXOO-----OOXOO--OXOOOOXOXXXXO-X--O-XXOX-O-X-X- X",
    "--O-X-XO-XOOOXX--OOO-OX---OOOXXX--OOXO--OOOXOO----OXXOO---O---O- X",
    "O-O------OO--X----O-XX--XXXOX--OX-OXOXO-XOXOOOXOXXOXOOOOX--OOOOO X",
)
"""Positions from random games after 12 to 38 moves (fixed: the bench count depends on them)."""

DEFAULT_DEPTH = 8


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "bench")
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="search depth in plies")
    p.add_argument("--eval", default="default", help="evaluation name (default: default)")
    p.add_argument("--verbose", action="store_true", help="one line per position")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import time

    from bitflip.engine import Engine

    DEPTH.check(args.depth, "--depth")
    engine = Engine(evaluation=args.eval, tt_mb=16)
    total_nodes = 0
    t0 = time.perf_counter()
    for i, obf in enumerate(BENCH_POSITIONS, 1):
        engine.new_game()
        engine.set_position(Board(obf))
        with StatusLine(lambda: f"bench: position {i}/{len(BENCH_POSITIONS)}"):  # noqa: B023
            r = engine.go(Limit(depth=args.depth))
        total_nodes += r.nodes
        if args.verbose:
            name = engine.board.geometry.square_name(r.move)
            print(f"position {i}: {name} {r.score:+.2f} nodes {r.nodes} {r.time:.3f} s")
    dt = time.perf_counter() - t0
    print(f"Nodes searched: {total_nodes}")
    print(f"Time: {dt:.3f} s")
    print(f"Nodes/second: {int(total_nodes / dt) if dt > 0 else 0}")
    return 0
