"""Midgame speed: nodes/s at a fixed depth on the bench positions, depth reached in 1 s.

Run from the repository root: ``PYTHONPATH=src python benchmarks/search_speed.py``.
Prints a Markdown table; both wall-clock and CPU (process) time are shown because the
machines these numbers were taken on were shared.
"""

from __future__ import annotations

import argparse
import time

from bitflip.cli.bench import BENCH_POSITIONS
from bitflip.core.board import Board
from bitflip.engine import Engine
from bitflip.search.limits import Limit


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--eval", default="default")
    args = ap.parse_args()
    engine = Engine(evaluation=args.eval, tt_mb=64)
    print(f"evaluation: {engine.evaluation.name}")
    print(f"| # | empties | depth {args.depth} nodes | wall s | cpu s | Mn/s (cpu) | "
          f"depth in {args.seconds:g} s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    tn = tc = 0.0
    for i, obf in enumerate(BENCH_POSITIONS, 1):
        board = Board(obf)
        engine.new_game()
        engine.set_position(board)
        c0 = time.process_time()
        r = engine.go(Limit(depth=args.depth))
        cpu = time.process_time() - c0
        engine.new_game()
        engine.set_position(board)
        timed = engine.go(Limit(time=args.seconds))
        tn += r.nodes
        tc += cpu
        empties = bin(board.empty).count("1")
        depth = f"{timed.depth}{' (exact)' if timed.exact else ''}"
        print(f"| {i} | {empties} | {r.nodes} | {r.time:.2f} | {cpu:.2f} | "
              f"{r.nodes / cpu / 1e6:.2f} | {depth} |")  # fmt: skip
    print(f"| all | | {int(tn)} | | {tc:.2f} | {tn / tc / 1e6:.2f} | |")


if __name__ == "__main__":
    main()
