"""Perft speed: leaves per second, single-threaded, warm (numba compiled and cached).

Run: .venv/bin/python benchmarks/perft_bench.py [--depth 11] [--repeat 3]
"""

from __future__ import annotations

import argparse
import platform
import time

from bitflip import Board
from bitflip.core.perft import perft


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("--size", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    board = Board(size=args.size)
    perft(board, 3)  # compile / load the cache outside the timing
    best = float("inf")
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        n = perft(board, args.depth)
        best = min(best, time.perf_counter() - t0)
    print(
        f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}"
    )
    print(f"perft({args.depth}) {args.size}x{args.size} = {n:,}")
    print(f"best of {args.repeat}: {best:.3f} s, {n / best / 1e6:.1f} M leaves/s")


if __name__ == "__main__":
    main()
