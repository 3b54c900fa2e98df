"""Selective win/loss/draw proofs (``SearchPlan.selective_wld_empties``) against the midgame
search they replace, on the same WTHOR positions: CPU time, how often a likely win is found,
and how often the move differs.

Run: PYTHONPATH=src .venv/bin/python benchmarks/selective_proofs.py \\
         --wthor ../shared/data/wthor/WTH_2004.wtb --empties 23 24 25 26 [--positions 20]

Each position is searched from a fresh 64 MB table by level 14's midgame plan with NTest's
endgame schedule (exact from 18, proofs to 22) and by the same plan with selective proofs to 26.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from level_times import wthor_positions

from bitflip.core.bitboard import FULL
from bitflip.engine import load_engine_evaluation
from bitflip.search.driver import Searcher
from bitflip.search.plan import SearchPlan, probcut_t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wthor", type=Path, required=True)
    ap.add_argument("--empties", type=int, nargs="+", default=[23, 24, 25, 26])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    evaluation = load_engine_evaluation("default")
    midgame = SearchPlan(max_depth=14, exact_empties=18, wld_empties=22, probcut_t=probcut_t(95))
    plans = {
        "midgame": midgame,
        "selective": replace(midgame, selective_wld_empties=26),
    }
    for e in args.empties:
        positions = wthor_positions(args.wthor, args.positions, args.seed, e, e)
        out: dict[str, tuple[list[float], list[int], int]] = {}
        for name, plan in plans.items():
            times, moves, likely = [], [], 0
            for p, o in positions:
                searcher = Searcher(evaluation, tt_mb=64)
                t0 = time.process_time()
                r, _ = searcher.search(p, o, int(FULL), plan)
                times.append(time.process_time() - t0)
                moves.append(r.move)
                likely += r.wld and r.score >= 0
            out[name] = (times, moves, likely)
        differ = sum(a != b for a, b in zip(out["midgame"][1], out["selective"][1], strict=True))
        cells = [
            f"{name} {1000 * np.mean(t):.0f} ms (max {1000 * max(t):.0f}), likely wins {n}"
            for name, (t, _, n) in out.items()
        ]
        print(f"{e} empties: " + "; ".join(cells) + f"; moves differ {differ}", flush=True)


if __name__ == "__main__":
    main()
