"""``bitflip analyze GAME``: each move of a game against the engine's best, mistakes marked."""

from __future__ import annotations

import argparse

from bitflip._progress import ProgressLine
from bitflip.cli._numbers import COUNT, DISCS, LEVEL
from bitflip.cli._positions import read_game
from bitflip.cli._subcommand import Subparsers, add_subcommand
from bitflip.cli.hint import add_search_options, limit_from


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "analyze")
    p.add_argument("game", help="transcript ('f5d6c3...') or a .txt, .ggf or .wtb file")
    p.add_argument("--game-index", type=COUNT, default=1, help="which game of the file (1-based)")
    p.add_argument("--mistake", type=DISCS, default=3.0, help="loss in discs marked '?'")
    p.add_argument("--blunder", type=DISCS, default=8.0, help="loss in discs marked '??'")
    add_search_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:

    from bitflip.engine import Engine

    LEVEL.check(args.level, "--level")
    board = read_game(args.game, args.game_index)
    if not board.move_stack:
        raise ValueError("the game has no moves")
    engine = Engine(args.level, evaluation=args.eval, size=board.size)
    name = board.geometry.square_name

    progress = ProgressLine("analysing")
    rows = engine.analyze_game(board, limit_from(args), on_progress=progress.update)
    progress.close()
    totals = {0: 0.0, 1: 0.0}
    for a in rows:
        mark = "??" if a.loss >= args.blunder else "?" if a.loss >= args.mistake else ""
        totals[int(a.color)] += a.loss
        best = "" if a.loss <= 0 else f"  best {name(a.best)} {a.best_score:+.2f}"
        print(f"{a.ply + 1:>2}. {a.color.name.lower():5} {name(a.played)}{mark:2} "
              f"{a.played_score:+7.2f}{best}")  # fmt: skip
    print(f"total loss: black {totals[0]:.2f}, white {totals[1]:.2f} discs")
    return 0
