"""``bitflip hint POSITION``: the engine's scores of the best moves of a position."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from bitflip._progress import StatusLine
from bitflip.cli._numbers import DEPTH, LEVEL, MOVES, SECONDS
from bitflip.cli._positions import parse_position
from bitflip.cli._subcommand import Subparsers, add_subcommand, add_threads_option
from bitflip.core.board import Board
from bitflip.search.levels import DEFAULT_LEVEL
from bitflip.search.limits import Limit, MoveScore, SearchInfo

if TYPE_CHECKING:
    from bitflip.engine import Engine


def add_search_options(p: argparse.ArgumentParser) -> None:
    """--level, --depth and --time, shared by hint and analyze."""
    p.add_argument("--level", type=int, default=DEFAULT_LEVEL, help="engine level 1-20")
    p.add_argument(
        "--depth", type=DEPTH, default=None, help="search depth (instead of the level's)"
    )
    p.add_argument("--time", type=SECONDS, default=None, help="seconds per position")
    p.add_argument("--eval", default="default", help="evaluation name")


def limit_from(args: argparse.Namespace) -> Limit | None:
    """The limit --depth and --time ask for (None: the level's own)."""
    if args.depth is None and args.time is None:
        return None
    return Limit(depth=args.depth, time=args.time)


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "hint")
    p.add_argument("position", help="OBF board string or transcript")
    p.add_argument("-n", type=MOVES, default=5, help="how many moves (default 5)")
    add_search_options(p)
    add_threads_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bitflip.engine import Engine

    LEVEL.check(args.level, "--level")
    board = parse_position(args.position)
    if board.is_game_over():
        raise ValueError(f"the game is over in {board.obf()}")
    engine = Engine(args.level, evaluation=args.eval, size=board.size, threads=args.threads)
    engine.set_position(board)
    print(board)
    limit = limit_from(args)
    empties = board.empties
    if limit is not None and limit.depth is not None and limit.depth >= empties > 20:
        print(
            f"bitflip hint: depth {limit.depth} reaches the end of the game: an exact solve of "
            f"{empties} empties, which can take hours (Ctrl+C stops; --time limits it)",
            file=sys.stderr,
            flush=True,
        )
    scores = hint_with_status(engine, args.n, limit, board)
    for s in scores:
        kind = "exact" if s.exact else f"depth {s.depth}"
        print(f"{board.geometry.square_name(s.move)} {s.score:+.2f} ({kind})")
    return 0


def hint_with_status(engine: Engine, n: int, limit: Limit | None, board: Board) -> list[MoveScore]:
    """``engine.hint`` with a status line on stderr once it runs past two seconds: the deepest
    finished iteration (or that none has finished yet) and the time, so a long search is
    never a silent one."""
    last: list[SearchInfo] = []

    def text() -> str:
        if not last:
            return "hint: searching"
        info = last[-1]
        kind = "exact" if info.exact else f"depth {info.depth}"
        move = board.geometry.square_name(info.pv[0]) if info.pv else "?"
        return f"hint: {kind} done, best {move} {info.score:+.2f}, searching on"

    with StatusLine(text):
        return engine.hint(n, limit, on_info=last.append)
