"""How late does a time-limited search return? ``go(Limit(time=T))`` wall time minus T.

``PYTHONPATH=src python benchmarks/deadline.py`` searches each bench position with several
time limits (and once with ``stop()`` from a timer thread) and prints the overshoot.
"""

from __future__ import annotations

import threading
import time

from bitflip.cli.bench import BENCH_POSITIONS
from bitflip.core.board import Board
from bitflip.engine import Engine
from bitflip.search.limits import Limit


def main() -> None:
    engine = Engine(tt_mb=64)
    engine.set_position(Board(BENCH_POSITIONS[0]))
    engine.go(Limit(depth=2))  # load the compiled kernels first
    worst = 0.0
    print("| position | limit s | returned after s | overshoot ms | depth |")
    print("|---|---|---|---|---|")
    for i, obf in enumerate(BENCH_POSITIONS, 1):
        for t in (0.05, 0.3, 1.0):
            engine.new_game()
            engine.set_position(Board(obf))
            t0 = time.perf_counter()
            r = engine.go(Limit(time=t))
            dt = time.perf_counter() - t0
            worst = max(worst, dt - t)
            print(f"| {i} | {t} | {dt:.3f} | {1000 * (dt - t):+.0f} | {r.depth} |")
        engine.new_game()
        engine.set_position(Board(obf))
        timer = threading.Timer(0.5, engine.stop)
        t0 = time.perf_counter()
        timer.start()
        r = engine.go(Limit(depth=60))
        dt = time.perf_counter() - t0
        worst = max(worst, dt - 0.5)
        print(f"| {i} | stop() at 0.5 | {dt:.3f} | {1000 * (dt - 0.5):+.0f} | {r.depth} |")
    print(f"\nworst overshoot: {1000 * worst:.0f} ms")


if __name__ == "__main__":
    main()
