"""``bitflip hint POSITION``: the engine's scores of the best moves of a position."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from bitflip.cli._subcommand import (
    Subparsers,
    add_subcommand,
    add_threads_option,
    positive_float,
    positive_int,
)

if TYPE_CHECKING:
    from bitflip.search.limits import Limit


def add_search_options(p: argparse.ArgumentParser) -> None:
    """--level, --depth and --time, shared by hint and analyze."""
    from bitflip.search.levels import DEFAULT_LEVEL

    p.add_argument("--level", type=int, default=DEFAULT_LEVEL, help="engine level 1-20")
    p.add_argument(
        "--depth", type=positive_int, default=None, help="search depth (instead of the level's)"
    )
    p.add_argument("--time", type=positive_float, default=None, help="seconds per position")
    p.add_argument("--eval", default="default", help="evaluation name")


def limit_from(args: argparse.Namespace) -> Limit | None:
    """The limit --depth and --time ask for (None: the level's own)."""
    from bitflip.search.limits import Limit

    if args.depth is None and args.time is None:
        return None
    return Limit(depth=args.depth, time=args.time)


def register(sub: Subparsers) -> None:
    p = add_subcommand(
        sub,
        "hint",
        "score the best moves of a position",
        "Score the best moves of a position given as an OBF board string "
        "('---...XO... X') or a transcript from the start ('f5d6c3').",
    )
    p.add_argument("position", help="OBF board string or transcript")
    p.add_argument("-n", type=int, default=5, help="how many moves (default 5)")
    add_search_options(p)
    add_threads_option(p, every_core=True)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bitflip.cli._positions import parse_position
    from bitflip.engine import Engine

    board = parse_position(args.position)
    if board.is_game_over():
        raise ValueError(f"the game is over in {board.obf()}")
    if args.n < 1:
        raise ValueError(f"-n must be >= 1, not {args.n}")
    engine = Engine(args.level, evaluation=args.eval, size=board.size, threads=args.threads)
    engine.set_position(board)
    print(board)
    for s in engine.hint(args.n, limit_from(args)):
        kind = "exact" if s.exact else f"depth {s.depth}"
        print(f"{board.geometry.square_name(s.move)} {s.score:+.2f} ({kind})")
    return 0
