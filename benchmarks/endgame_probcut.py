"""Fit the endgame ProbCut constants of ``bitflip.search.endgame`` (``EG_PC_*``).

Takes positions with 14-20 empties from WTHOR games, solves each exactly and searches it to
depths 0-4 with the evaluation (``_shallow``, as the solver's ProbCut does), then fits
``exact = a * shallow + b`` by least squares for each depth and prints ``a``, ``b`` and the
deviation of the residual (overall and by empties).

    PYTHONPATH=src python benchmarks/endgame_probcut.py --positions 250 --seed 5

2026-11-22, 2-core AMD EPYC, 71 s for 250 positions (WTH_2010, WTH_2011):

    depth 0: a 0.0112 b  1.81 sigma 8.63
    depth 1: a 0.0112 b -0.60 sigma 7.89
    depth 2: a 0.0108 b  2.20 sigma 7.13   <- EG_PC_DEPTH, EG_PC_A, EG_PC_B, EG_PC_SIGMA
    depth 3: a 0.0107 b -0.11 sigma 6.72
    depth 4: a 0.0107 b  2.53 sigma 6.53
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from bitflip.core.board import Board
from bitflip.engine import load_engine_evaluation
from bitflip.formats.wthor import read_wtb
from bitflip.search.driver import Searcher, SearchPlan
from bitflip.search.endgame import _shallow

DEPTHS = (0, 1, 2, 3, 4)
FULL = 0xFFFFFFFFFFFFFFFF


def sample(games: list[list[int]], rng: np.random.Generator, lo: int, hi: int) -> Board | None:
    """A game's position once it has a random number of empties in [lo, hi], or None."""
    moves = games[int(rng.integers(len(games)))]
    n = int(rng.integers(lo, hi + 1))
    b = Board()
    for mv in moves:
        if bin(b.empty).count("1") <= n:
            break
        if mv not in list(b.legal_moves):
            return None
        b.push(mv)
    if b.is_game_over() or not b.legal_mask() or bin(b.empty).count("1") != n:
        return None
    return b


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=250)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    args = ap.parse_args()
    games: list[list[int]] = []
    for f in sorted((args.data / "wthor").glob("WTH_201*.wtb"))[:2]:
        games.extend(list(g.moves) for g in read_wtb(f, passes=True, check=False))
    if not games:
        ap.error(f"no WTH_201*.wtb games under {args.data / 'wthor'} (give --data)")
    ev = load_engine_evaluation("default", 8)
    searcher = Searcher(ev, tt_mb=64)
    rng = np.random.default_rng(args.seed)
    rows: list[list[int]] = []
    while len(rows) < args.positions:
        b = sample(games, rng, 14, 20)
        if b is None:
            continue
        p, o = b.side_bitboards()
        searcher.clear()
        r, _ = searcher.search(p, o, FULL, SearchPlan(exact_empties=64))
        up, uo, um = np.uint64(p), np.uint64(o), np.uint64(FULL)
        shallow = [
            int(_shallow(up, uo, um, d, -(10**7), 10**7, ev.kind, ev.weights)) for d in DEPTHS
        ]
        rows.append([bin(b.empty).count("1"), int(r.score), *shallow])
    a = np.array(rows, dtype=np.float64)
    for j, d in enumerate(DEPTHS):
        x, y = a[:, 2 + j], a[:, 1]
        slope, icpt = np.polyfit(x, y, 1)
        res = y - (slope * x + icpt)
        by_n = [round(float(res[a[:, 0] == n].std()), 1) for n in range(14, 21)]
        print(f"depth {d}: a {slope:.4f} b {icpt:5.2f} sigma {res.std():.2f} by n 14-20: {by_n}")


if __name__ == "__main__":
    main()
