"""CPU seconds of the bench positions searched to a fixed depth, the best of N repetitions.

For before/after comparisons of search changes on a busy machine: process time (not wall time)
and the best of several repetitions, with the node count, which must not change when a change
claims to leave the search alone. Run it for both trees one after the other, several times:

    PYTHONPATH=src python benchmarks/bench_cpu.py --depth 11 --repeat 2
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
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    engine = Engine(tt_mb=64)
    best = float("inf")
    nodes = 0
    for _ in range(args.repeat):
        total = 0.0
        nodes = 0
        for obf in BENCH_POSITIONS:
            engine.new_game()
            engine.set_position(Board(obf))
            c0 = time.process_time()
            nodes += engine.go(Limit(depth=args.depth)).nodes
            total += time.process_time() - c0
        best = min(best, total)
    print(f"depth {args.depth}: {nodes} nodes, {best:.3f} CPU s, {nodes / best / 1e6:.2f} Mn/s")


if __name__ == "__main__":
    main()
