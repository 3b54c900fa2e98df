"""FFO endgames solved with 1 and with N threads, alternating, one table row a position.

    PYTHONPATH=src python benchmarks/smp_ffo.py [--file FILE.obf] [--first 10] [--threads 2]

Each position is solved by a fresh engine per thread count (empty tables), the order of the
two runs alternating from one position to the next, so a change in the shared machine's load
hits both alike. Prints the load average before and after; the scores must agree.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from bitflip.engine import Engine
from bitflip.formats import obf
from bitflip.search.limits import Limit


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data = Path(os.environ.get("BITFLIP_DATA", "../shared/data"))
    ap.add_argument("--file", type=Path, default=data / "ffo" / "fforum-40-59.obf")
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--first", type=int, default=10)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--tt-mb", type=int, default=256)
    args = ap.parse_args()
    positions = obf.loads(args.file.read_text(), path=str(args.file))
    positions = positions[args.skip : args.skip + args.first]
    engines = {t: Engine(tt_mb=args.tt_mb, threads=t) for t in (1, args.threads)}
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"load average before: {os.getloadavg()}  ({now})")
    print(
        f"| # | empties | score | 1 thread s | nodes | {args.threads} threads s | nodes | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|")
    totals = {t: 0.0 for t in engines}
    for k, pos in enumerate(positions):
        order = [1, args.threads] if k % 2 == 0 else [args.threads, 1]
        res = {}
        for t in order:
            e = engines[t]
            e.new_game()
            e.set_position(pos.board)
            t0 = time.perf_counter()
            r = e.go(Limit(exact=True))
            res[t] = (time.perf_counter() - t0, r)
            totals[t] += res[t][0]
        (t1, r1), (tn, rn) = res[1], res[args.threads]
        if r1.score != rn.score:
            raise SystemExit(f"position {k}: {r1.score} with 1 thread, {rn.score} with more")
        n = args.skip + k + 40 if "40-59" in args.file.name else args.skip + k + 1
        print(
            f"| {n} | {bin(pos.board.empty).count('1')} | {r1.score:+.0f} | {t1:.2f} | "
            f"{r1.nodes:,} | {tn:.2f} | {rn.nodes:,} | {tn / t1:.2f} |",
            flush=True,
        )
    t1, tn = totals[1], totals[args.threads]
    print(f"| total | | | {t1:.2f} | | {tn:.2f} | | {tn / t1:.2f} |")
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
