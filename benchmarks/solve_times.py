"""Exact endgame solves: bitflip against NTest on the same WTHOR positions.

Run from the repository root:

``PYTHONPATH=src python benchmarks/solve_times.py --wthor ../shared/data/wthor/WTH_2004.wtb
--empties 20 22 --positions 20 --ntest ../ref/ntest-stats``

bitflip solves each position as its engine does at a level whose exact depth covers it (a
short midgame search, selective passes from 20 empties, then the exact one; fresh 64 MB
table). NTest (the patched build of ``time_to_depth.py``) at ``set depth 30``, which solves
exactly up to 28 empties (after its own selective rounds). Both scores are checked equal.
Prints a Markdown table an empties count: mean and max CPU ms, mean nodes, nodes a second.

``--level L --ntest-depth D`` instead times what each engine does in a game at those empties:
bitflip's level L (its proof or solve, or its midgame search) and NTest's ``set depth D``
(its exact, win/loss/draw or selective solve, or its midgame search); scores are not compared.
The two engines alternate position by position, so they share the machine's load.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from level_times import wthor_positions
from time_to_depth import NTest, ggf

from bitflip.core.bitboard import FULL
from bitflip.engine import load_engine_evaluation
from bitflip.search.driver import Searcher
from bitflip.search.levels import level_spec
from bitflip.search.plan import SearchPlan, level_plan
from bitflip.search.probcut import load_table


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--wthor", type=Path, required=True)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--empties", type=int, nargs="+", default=[20, 22])
    ap.add_argument("--ntest", type=Path, required=True, help="run directory of patched NTest")
    ap.add_argument("--level", type=int, help="time this bitflip level instead of exact solves")
    ap.add_argument("--ntest-depth", type=int, default=30, help="NTest's set depth")
    args = ap.parse_args()
    evaluation = load_engine_evaluation()
    searcher = Searcher(evaluation, tt_mb=64, mpc=load_table(evaluation.name))
    spec = level_spec(args.level) if args.level is not None else None
    ntest = NTest(args.ntest, 4)
    print("| empties | engine | mean CPU ms | max CPU ms | mean nodes | Mnodes/s |")
    print("|---|---|---|---|---|---|")
    try:
        for e in args.empties:
            plan = SearchPlan(exact_empties=64) if spec is None else level_plan(spec, e)
            pos = wthor_positions(args.wthor, args.positions, args.seed, e, e)
            searcher.search(*pos[0], int(FULL), plan)  # compile
            bf: list[tuple[float, int]] = []
            nt: list[tuple[float, float]] = []
            for p, o in pos:
                searcher.clear()
                c0 = time.process_time()
                res, _ = searcher.search(p, o, int(FULL), plan)
                bf.append((time.process_time() - c0, res.nodes))
                nodes, _, _, cpu = ntest.go(args.ntest_depth, ggf(p, o))
                nt.append((cpu, nodes))
                if args.level is None and round(ntest.last_value) != round(res.score):
                    print(f"differ: {p:#x} {o:#x}: bitflip {res.score}, NTest {ntest.last_value}")
            for name, rows in (("bitflip", bf), ("NTest", nt)):
                cpu = sum(c for c, _ in rows)
                nodes = sum(n for _, n in rows)
                print(
                    f"| {e} | {name} | {1000 * cpu / len(rows):.0f} | "
                    f"{1000 * max(c for c, _ in rows):.0f} | {nodes / len(rows):,.0f} | "
                    f"{nodes / cpu / 1e6:.1f} |",
                    flush=True,
                )
    finally:
        ntest.close()


if __name__ == "__main__":
    main()
