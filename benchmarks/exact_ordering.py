"""Exact solves of WTHOR positions with each ordering evaluation (what bitflip.search.exact uses).

    PYTHONPATH=src python benchmarks/exact_ordering.py [--wthor FILE.wtb] [--empties 18] [--n 150]

The scores do not depend on the evaluation (it only orders moves far from the end); the time
does. CPU milliseconds a position, one thread, a fresh 4 MB table per evaluation.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from bitflip.core.arrays import empties_many
from bitflip.core.bitboard import FULL
from bitflip.eval.evaluator import load_evaluation
from bitflip.formats.wthor import load_wtb
from bitflip.learn.datasets import GameSource, positions_from_games
from bitflip.search.driver import Searcher


def main() -> int:
    data = Path(os.environ.get("BITFLIP_DATA", "../shared/data"))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wthor", type=Path, default=data / "wthor" / "WTH_2022.wtb")
    ap.add_argument("--empties", type=int, default=18)
    ap.add_argument("--n", type=int, default=150)
    args = ap.parse_args()
    games = load_wtb(args.wthor)
    sq = games.squares()
    batch, _ = positions_from_games(GameSource(np.where(sq < 0, -1, sq)))
    rows = np.flatnonzero(empties_many(batch.player, batch.opponent, FULL) == args.empties)
    rows = rows[: args.n]
    scores = {}
    for name in ("positional", "default"):
        ctx = Searcher(load_evaluation(name, 8), tt_mb=4).ctx
        ctx.endgame(int(batch.player[rows[0]]), int(batch.opponent[rows[0]]), int(FULL), -65, 65)
        t = time.process_time()
        scores[name] = [
            ctx.endgame(int(batch.player[i]), int(batch.opponent[i]), int(FULL), -65, 65)
            for i in rows
        ]
        ms = (time.process_time() - t) / len(rows) * 1000
        print(f"{name}: {ms:.1f} ms a position ({len(rows)} at {args.empties} empties)")
    if scores["positional"] != scores["default"]:
        raise SystemExit("the scores differ: a solver bug")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
