"""Seconds a move at each engine level, or at settings no level has.

Run from the repository root:
``PYTHONPATH=src python benchmarks/level_times.py --levels 12 13 14 15`` times the levels on
the bench positions plus FFO #1 and #40; ``--spec 15,20,91`` adds settings of your own
(midgame depth, exact solve from, ProbCut confidence in percent, 0 for none), and ``--wthor
FILE --positions N`` times them on N positions of that WTHOR file's games instead (26-50
empties: midgame moves, where the settings differ; ``--empties LO HI`` for others). Each
position is searched from a fresh table, as a game move would be. Prints a Markdown table of
mean and maximum CPU (process) seconds, and wall seconds, since shared machines make both
matter.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from bitflip.cli.bench import BENCH_POSITIONS
from bitflip.core.arrays import empties_many
from bitflip.core.bitboard import FULL
from bitflip.core.board import Board
from bitflip.engine import load_engine_evaluation
from bitflip.formats import obf
from bitflip.formats.wthor import load_wtb
from bitflip.learn.datasets import GameSource, positions_from_games
from bitflip.search.driver import Searcher
from bitflip.search.levels import LevelSpec, level_spec
from bitflip.search.plan import level_plan
from bitflip.search.probcut import load_table

FFO = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ffo"


Position = tuple[int, int]
"""A position to search: the side to move's discs and the opponent's (8x8)."""


def bench_positions(ffo_dir: Path) -> list[Position]:
    boards = [Board(text) for text in BENCH_POSITIONS]
    for name, index in (("fforum-1-19.obf", 0), ("fforum-40-59.obf", 0)):
        path = ffo_dir / name
        if path.is_file():
            boards.append(obf.loads(path.read_text(), path=path)[index].board)
    return [board.side_bitboards() for board in boards]


def wthor_positions(path: Path, n: int, seed: int, lo: int = 26, hi: int = 50) -> list[Position]:
    """``n`` positions of distinct random games of the file, each at a random count of ``lo`` to
    ``hi`` empties (where its mover has a move)."""
    squares = load_wtb(path).squares()
    batch, _ = positions_from_games(GameSource(np.where(squares < 0, -1, squares)))
    empties = empties_many(batch.player, batch.opponent, FULL)
    row_of = {(int(g), int(e)): i for i, (g, e) in enumerate(zip(batch.game, empties, strict=True))}
    rng = np.random.default_rng(seed)
    out: list[Position] = []
    for game in rng.permutation(squares.shape[0]):
        row = row_of.get((int(game), int(rng.integers(lo, hi + 1))))
        if row is not None:
            out.append((int(batch.player[row]), int(batch.opponent[row])))
        if len(out) == n:
            break
    return out


def parse_spec(text: str) -> LevelSpec:
    try:
        depth, exact, sel = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--spec wants DEPTH,EXACT,SELECTIVITY (e.g. 15,20,91), not {text!r}"
        ) from None
    return LevelSpec(depth, exact, sel or None)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", type=int, nargs="*", default=[12, 13, 14])
    ap.add_argument("--spec", type=parse_spec, action="append", default=[], metavar="D,E,S")
    ap.add_argument("--ffo", type=Path, default=FFO, help="folder of the FFO .obf files")
    ap.add_argument("--wthor", type=Path, help="time positions of this .wtb file's games")
    ap.add_argument("--positions", type=int, default=60, help="how many, with --wthor")
    ap.add_argument("--seed", type=int, default=5, help="which, with --wthor")
    ap.add_argument("--empties", type=int, nargs=2, default=[26, 50], metavar=("LO", "HI"),
                    help="with --wthor, positions at LO to HI empties (default 26 50)")  # fmt: skip
    ap.add_argument("--threads", type=int, default=1, help="search threads (wall time then counts)")
    args = ap.parse_args()
    if args.positions < 1:
        ap.error(f"--positions must be at least 1, not {args.positions}")
    lo, hi = args.empties
    if not 1 <= lo <= hi <= 59:
        ap.error(f"--empties wants 1 <= LO <= HI <= 59, not {lo} {hi}")
    if args.wthor is not None:
        try:
            positions = wthor_positions(args.wthor, args.positions, args.seed, lo, hi)
        except (OSError, ValueError) as exc:
            ap.error(f"--wthor {args.wthor}: {exc}")
        if not positions:
            ap.error(f"--wthor {args.wthor}: no game has a position at {lo}-{hi} empties")
    else:
        positions = bench_positions(args.ffo)
    runs = [(f"{level}", level_spec(level)) for level in args.levels]
    runs += [(f"{s.depth}, {s.endgame_depth}, {s.selectivity or '--'}", s) for s in args.spec]
    evaluation = load_engine_evaluation()
    searcher = Searcher(evaluation, tt_mb=64, mpc=load_table(evaluation.name), threads=args.threads)
    print(f"{len(positions)} positions, {args.threads} thread(s)")
    print("| level (depth, exact, ProbCut %) | mean CPU s | max CPU s | mean wall s | max wall s |")
    print("|---|---|---|---|---|")
    for name, spec in runs:
        cpu: list[float] = []
        wall: list[float] = []
        for p, o in positions:
            plan = level_plan(spec, 64 - (p | o).bit_count())
            searcher.clear()
            c0, w0 = time.process_time(), time.perf_counter()
            searcher.search(p, o, int(FULL), plan)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        print(
            f"| {name} | {sum(cpu) / len(cpu):.3f} | {max(cpu):.3f} | "
            f"{sum(wall) / len(wall):.3f} | {max(wall):.3f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
