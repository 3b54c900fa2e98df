"""How well each engine's shallow searches predict the true value, by phase: bitflip against NTest.

Run from the repository root:

``PYTHONPATH=src python benchmarks/eval_accuracy.py --wthor ../shared/data/wthor/WTH_2023.wtb
--ntest /work/ref/ntest-stats --bins 20-22:80 26-30:40 34-40:40 44-50:40 --depths 1 2 4``

Positions: random positions of distinct games of the WTHOR file (2023 is outside the shipped
fit), ``COUNT`` at a random count of empties in each ``LO-HI`` bin. The reference value of a
position with at most ``--exact`` empties is its exact score (bitflip's solver); above, two
references, each engine's own deep search (bitflip ``--ref-depth`` plies at 95% ProbCut, NTest
``set depth --ref-depth`` at its default ProbCut), because either one alone favours its own
evaluation. Each engine's shallow value (``--depths``, full width: bitflip without ProbCut, NTest
with its ProbCut off, asked one ply more as it then stops one short) is compared with the
reference: the residual deviation after the best line ``ref = a * value + b`` (what ProbCut's
sigma measures; it does not depend on the scale of an evaluation), over all positions and over
those within :data:`CLOSE` discs of a draw. Smaller is better. Values are in discs from the side
to move's view.

NTest: the patched build of ``benchmarks/RESULTS-ntest.md`` (it prints ``nodestats`` after each
``go`` and reads ``NTEST_PRUNE_MIDGAME``).
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from pathlib import Path

import numpy as np
from level_times import wthor_positions
from time_to_depth import NTest, ggf

from bitflip.core.bitboard import FULL
from bitflip.engine import load_engine_evaluation
from bitflip.search.driver import Searcher
from bitflip.search.plan import SearchPlan, probcut_t
from bitflip.search.probcut import load_table


def parse_bin(text: str) -> tuple[int, int, int]:
    try:
        span, count = text.split(":")
        lo, hi = (int(x) for x in span.split("-"))
        return lo, hi, int(count)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a bin is LO-HI:COUNT (e.g. 20-22:80), not {text!r}"
        ) from None


CLOSE = 16.0
"""Positions whose reference is within this many discs of a draw: where a game's result is
decided, and where lopsided positions (whose errors are large for every evaluation) do not
swamp the statistics."""


def residual_sigma(value: np.ndarray, ref: np.ndarray) -> tuple[float, float]:
    """(residual deviation of the best line ``ref = a * value + b``, its slope ``a``)."""
    a, b = np.polyfit(value, ref, 1)
    resid = ref - (a * value + b)
    return float(math.sqrt((resid**2).sum() / max(1, len(ref) - 2))), float(a)


def fit_stats(value: np.ndarray, ref: np.ndarray) -> tuple[float, float, float, int]:
    """(residual deviation, slope, the deviation over the close positions only, how many)."""
    sigma, slope = residual_sigma(value, ref)
    close = np.abs(ref) <= CLOSE
    n_close = int(close.sum())
    sigma_close = residual_sigma(value[close], ref[close])[0] if n_close > 2 else float("nan")
    return sigma, slope, sigma_close, n_close


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wthor", type=Path, required=True)
    ap.add_argument("--ntest", type=Path, required=True, help="run directory of the patched NTest")
    ap.add_argument("--bins", type=parse_bin, nargs="+", default=[parse_bin("20-22:80")])
    ap.add_argument("--depths", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--exact", type=int, default=24, help="exact references up to these empties")
    ap.add_argument("--ref-depth", type=int, default=16)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    if not (args.ntest / "ntest").is_file():
        ap.error(f"no ntest program in {args.ntest} (build it as benchmarks/RESULTS-ntest.md says)")
    if not args.wthor.is_file():
        ap.error(f"no WTHOR file {args.wthor}")

    evaluation = load_engine_evaluation()
    searcher = Searcher(evaluation, tt_mb=64, mpc=load_table(evaluation.name))
    ntest = NTest(args.ntest, prune=0)
    ntest_sel = NTest(args.ntest, prune=4)

    def bitflip_value(p: int, o: int, plan: SearchPlan) -> float:
        searcher.clear()
        result, _ = searcher.search(p, o, int(FULL), plan)
        return float(result.score)

    def ntest_value(engine: NTest, p: int, o: int, depth: int) -> float:
        engine.go(depth, ggf(p, o))
        return engine.last_value

    deep = SearchPlan(max_depth=args.ref_depth, probcut_t=probcut_t(95))
    print(f"# {args.wthor.name}, seed {args.seed}; values in discs, side to move's view\n")
    print(
        "| empties | positions | reference | engine | depth | residual sigma | slope | "
        f"sigma within {CLOSE:.0f} discs of a draw (positions) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for k, (lo, hi, count) in enumerate(args.bins):
        positions = wthor_positions(args.wthor, count, args.seed + k, lo, hi)
        refs: dict[str, list[float]] = defaultdict(list)
        values: dict[tuple[str, int], list[float]] = defaultdict(list)
        for p, o in positions:
            n = 64 - (p | o).bit_count()
            if n <= args.exact:
                refs["exact"].append(bitflip_value(p, o, SearchPlan(exact_empties=n)))
            else:
                refs["bitflip deep"].append(bitflip_value(p, o, deep))
                refs["NTest deep"].append(ntest_value(ntest_sel, p, o, args.ref_depth))
            for d in args.depths:
                values["bitflip", d].append(bitflip_value(p, o, SearchPlan(max_depth=d)))
                values["NTest", d].append(ntest_value(ntest, p, o, d + 1))
        for ref_name, ref in refs.items():
            r = np.array(ref)
            for (engine, d), v in sorted(values.items(), key=lambda kv: (kv[0][1], kv[0][0])):
                sigma, slope, sigma_close, n_close = fit_stats(np.array(v), r)
                print(f"| {lo}-{hi} | {len(r)} | {ref_name} | {engine} | {d} | {sigma:.2f} | "
                      f"{slope:.2f} | {sigma_close:.2f} ({n_close}) |", flush=True)  # fmt: skip
    ntest.close()
    ntest_sel.close()


if __name__ == "__main__":
    main()
