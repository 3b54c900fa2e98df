"""Time streaming every game of a WTHOR folder as GameRecords, replayed with passes.

Usage: PYTHONPATH=src python benchmarks/wthor_stream.py [DATA/wthor]

The first run compiles the numba replay kernel (cached afterwards); the script times a warm-up
run and then the best of three.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from bitflip.formats import wthor


def stream(folder: Path) -> tuple[int, int]:
    games = moves = 0
    for f in wthor.wtb_files(folder):
        for r in wthor.read_wtb(f, passes=True):
            games += 1
            moves += len(r.moves)
    return games, moves


def main() -> None:
    default = Path(os.environ.get("BITFLIP_DATA", "../shared/data")) / "wthor"
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    t0 = time.perf_counter()
    games, moves = stream(folder)
    first = time.perf_counter() - t0
    best = best_cpu = float("inf")
    for _ in range(3):
        t0, c0 = time.perf_counter(), time.process_time()
        stream(folder)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    print(f"{games} games, {moves} plies (passes included)")
    print(
        f"first run {first:.2f} s; best warm run {best:.2f} s wall, {best_cpu:.2f} s CPU "
        f"({games / best_cpu:,.0f} games/s of CPU)"
    )


if __name__ == "__main__":
    main()
