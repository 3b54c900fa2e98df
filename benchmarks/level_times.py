"""Seconds a move at each engine level, on the bench positions plus FFO #1 and #40.

Run from the repository root:
``PYTHONPATH=src python benchmarks/level_times.py --levels 12 13 14 15``.
Each position is searched from a fresh table with the level's own settings (depth, exact
solve from, ProbCut), as a game move would be. Prints a Markdown table of mean and maximum
CPU (process) seconds, and wall seconds, since shared machines make both matter.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bitflip.cli.bench import BENCH_POSITIONS
from bitflip.core.board import Board
from bitflip.engine import Engine
from bitflip.formats import obf

FFO = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ffo"


def positions(ffo_dir: Path) -> list[Board]:
    boards = [Board(text) for text in BENCH_POSITIONS]
    for name, index in (("fforum-1-19.obf", 0), ("fforum-40-59.obf", 0)):
        path = ffo_dir / name
        if path.is_file():
            boards.append(obf.loads(path.read_text(), path=path)[index].board)
    return boards


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", type=int, nargs="+", default=[12, 13, 14])
    ap.add_argument("--ffo", type=Path, default=FFO, help="folder of the FFO .obf files")
    args = ap.parse_args()
    boards = positions(args.ffo)
    print(f"{len(boards)} positions")
    print("| level | mean CPU s | max CPU s | mean wall s | max wall s |")
    print("|---|---|---|---|---|")
    for level in args.levels:
        engine = Engine(level=level, tt_mb=64)
        cpu: list[float] = []
        wall: list[float] = []
        for board in boards:
            engine.new_game()
            engine.set_position(board)
            c0, w0 = time.process_time(), time.perf_counter()
            engine.go()
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        print(
            f"| {level} | {sum(cpu) / len(cpu):.2f} | {max(cpu):.2f} | "
            f"{sum(wall) / len(wall):.2f} | {max(wall):.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
