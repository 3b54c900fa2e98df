"""``bitflip solve FILE.obf [--wld]``: solve endgame positions exactly and check the answers."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "solve",
        help="solve the positions of an OBF file exactly",
        description="Solve each position of an OBF file (one 'board side; MOVE:score; ...' a "
        "line) and print the best move, score, nodes, time and speed, and whether the result "
        "matches the file's annotation.",
    )
    p.add_argument("file", help="an .obf file")
    p.add_argument("--wld", action="store_true", help="prove only win, loss or draw")
    p.add_argument("--first", type=int, default=None, help="solve only the first N positions")
    p.add_argument(
        "--skip", type=int, default=0, help="skip the first N positions (with --first: a range)"
    )
    p.add_argument("--tt-mb", type=int, default=256, help="transposition table size (MB)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from bitflip.engine import load_engine_evaluation
    from bitflip.formats import obf
    from bitflip.search.driver import Searcher, SearchPlan

    if args.skip < 0 or (args.first is not None and args.first < 0):
        raise ValueError("--skip and --first take a number of positions, 0 or more")
    path = Path(args.file)
    positions = obf.loads(path.read_text(), path=args.file)
    positions = positions[args.skip :]
    if args.first is not None:
        positions = positions[: args.first]
    if not positions:
        raise ValueError(f"{args.file}: no positions")
    searcher: Searcher | None = None
    total_nodes = 0
    total_time = 0.0
    matched = checked = 0
    print(
        f"{'#':>3} {'empties':>7} {'move':>4} {'score':>6} {'expect':>6} "
        f"{'nodes':>12} {'time':>8} {'Mn/s':>6}  ok"
    )
    for k, pos in enumerate(positions, args.skip + 1):
        board = pos.board
        if searcher is None:
            searcher = Searcher(load_engine_evaluation("default", board.size), tt_mb=args.tt_mb)
        else:
            searcher.clear()
        if board.is_game_over():
            raise ValueError(f"{args.file}: the game is over in position {k} ({board.obf()})")
        p, o = board.side_bitboards()
        plan = SearchPlan(exact_empties=64, wld=args.wld)
        r, _ = searcher.search(p, o, board.geometry.mask, plan)
        total_nodes += r.nodes
        total_time += r.time
        move = board.geometry.square_name(r.move)
        score = int(r.score)
        expect = "?"
        ok = ""
        if pos.scores:
            best = max(pos.scores.values())
            expect = f"{best:+d}"
            checked += 1
            if args.wld:
                good = (score > 0) == (best > 0) and (score < 0) == (best < 0)
                good = (
                    good
                    and (pos.scores.get(r.move) is not None)
                    and _sign(pos.scores[r.move]) == _sign(best)
                )
            else:
                good = score == best and pos.scores.get(r.move) == best
            matched += good
            ok = "yes" if good else "NO"
        rate = r.nodes / r.time / 1e6 if r.time > 0 else 0.0
        print(
            f"{k:>3} {bin(board.empty).count('1'):>7} {move:>4} {score:>+6d} {expect:>6} "
            f"{r.nodes:>12} {r.time:>8.3f} {rate:>6.2f}  {ok}",
            flush=True,
        )
    rate = total_nodes / total_time / 1e6 if total_time > 0 else 0.0
    print(
        f"total: {len(positions)} positions, {total_nodes} nodes, {total_time:.3f} s, "
        f"{rate:.2f} Mn/s, {matched}/{checked} match the annotation"
    )
    return 0 if matched == checked else 1


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)
