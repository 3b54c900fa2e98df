"""``bitflip solve FILE.obf [--wld]``: solve endgame positions and check the answers.

A thin adapter over :class:`bitflip.engine.Engine` with ``Limit(exact=True)`` or, with
``--wld``, ``Limit(wld=True)``: a win/loss/draw proof, faster than the exact score.
"""

from __future__ import annotations

import argparse

from bitflip._progress import StatusLine
from bitflip.cli._numbers import COUNT_OR_ZERO, TT_MB
from bitflip.cli._subcommand import Subparsers, add_subcommand, add_threads_option
from bitflip.datadir import find
from bitflip.formats import obf
from bitflip.search.limits import Limit


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "solve")
    p.add_argument("file", help="an .obf file")
    p.add_argument(
        "--wld",
        action="store_true",
        help="prove only win, loss or draw (a null window around 0: faster than the exact "
        "score); prints win/loss/draw",
    )
    p.add_argument("--first", type=int, default=None, help="solve only the first N positions")
    p.add_argument(
        "--skip",
        type=int,
        default=0,
        help="skip the first N positions (with --first: a range)",
    )
    p.add_argument("--tt-mb", type=TT_MB, default=256, help="transposition table size (MB)")
    add_threads_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bitflip.engine import Engine

    COUNT_OR_ZERO.check(args.skip, "--skip")
    if args.first is not None:
        COUNT_OR_ZERO.check(args.first, "--first")
    path = find(args.file)  # ffo/fforum-40-59.obf: looked up in the data folders
    positions = list(obf.read(path))  # a binary or garbled file is a FormatError naming it
    positions = positions[args.skip :]
    if args.first is not None:
        positions = positions[: args.first]
    if not positions:
        raise ValueError(f"{args.file}: no positions")
    engines: dict[int, Engine] = {}
    limit = Limit(wld=True) if args.wld else Limit(exact=True)
    total_nodes = 0
    total_time = 0.0
    matched = checked = 0
    print(
        f"{'#':>3} {'empties':>7} {'move':>4} {'score':>6} {'expect':>6} "
        f"{'nodes':>12} {'time':>8} {'Mn/s':>6}  ok"
    )
    for k, pos in enumerate(positions, args.skip + 1):
        board = pos.board
        if board.is_game_over():
            raise ValueError(f"{args.file}: the game is over in position {k} ({board.obf()})")
        if board.size not in engines:
            engines[board.size] = Engine(tt_mb=args.tt_mb, size=board.size, threads=args.threads)
        engine = engines[board.size]
        engine.new_game()
        engine.set_position(board)
        empties = board.empties
        with StatusLine(lambda: f"solve: position {k} ({empties} empties)"):  # noqa: B023
            r = engine.go(limit)
        total_nodes += r.nodes
        total_time += r.time
        move = board.geometry.square_name(r.move)
        score = int(r.score)
        expect = "?"
        ok = ""
        if pos.scores:
            best = max(pos.scores.values())
            expect = _result(best) if args.wld else f"{best:+d}"
            checked += 1
            played = pos.scores.get(r.move)
            if args.wld:
                good = played is not None and _sign(played) == _sign(best) == score
            else:
                good = score == best and played == best
            matched += good
            ok = "yes" if good else "NO"
        shown = _result(score) if args.wld else f"{score:+d}"
        rate = r.nodes / r.time / 1e6 if r.time > 0 else 0.0
        print(
            f"{k:>3} {bin(board.empty).count('1'):>7} {move:>4} {shown:>6} {expect:>6} "
            f"{r.nodes:>12} {r.time:>8.3f} {rate:>6.2f}  {ok}",
            flush=True,
        )
    rate = total_nodes / total_time / 1e6 if total_time > 0 else 0.0
    print(
        f"total: {len(positions)} positions, {total_nodes} nodes, {total_time:.3f} s, "
        f"{rate:.2f} Mn/s, {matched}/{checked} match the annotation"
    )
    return 0 if matched == checked else 1


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def _result(score: float) -> str:
    """A score as a win/loss/draw solve proves it, for the side to move."""
    return ("loss", "draw", "win")[_sign(score) + 1]
