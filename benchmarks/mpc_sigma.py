"""How well a shallow search predicts a deep one, by empties: bitflip against NTest's own data.

ProbCut cuts a node when a shallow search's value is more than ``t`` sigma outside the window,
sigma being the error of predicting the deep value from the shallow one (``v_d = a v_d' + b``).
An evaluation whose shallow values predict its deep ones better has a smaller sigma, so at the
same confidence its ProbCut cuts more. This script measures that sigma the same way for both
engines: a least-squares line of the depth-``d`` value on the depth-``d'`` value over the
positions of each band of empties, and the standard deviation of the residuals (in hundredths
of a disc, both engines' unit). For bitflip it also prints the residuals' deviation about the
shipped line (``mpc-patterns.json``'s a and b, what the search uses) beside the sigma the shipped
fit predicts for the band.

Run from the repository root:

``PYTHONPATH=src python benchmarks/mpc_sigma.py --wthor ../shared/data/wthor/WTH_2004.wtb
--positions 240 --ntest ../ref/ntest/coefficients --out sigma.jsonl`` (``--values FILE`` prints
the tables again from a saved ``--out`` file, gzipped or not, without searching)

bitflip: full-width searches (no ProbCut, a fresh table a position) of positions of the WTHOR
file's games at random counts of empties in ``--min-empties``..``--max-empties``, at every depth
of ``--pairs``. NTest: the positions and full-width values at depths 0-30 that NTest fitted its
own ProbCut on (``mpcJA_*.txt`` beside its coefficients: a line a position, its empties then its
values by depth). The two sets of positions differ (WTHOR games against NTest's own), so the
ratio ``sigma / sd(v_d)`` is printed too: the share of the deep value's spread that the shallow
search leaves unexplained.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from match_errors import records

from bitflip.core.bitboard import FULL
from bitflip.core.board import Board
from bitflip.eval.evaluator import load_evaluation
from bitflip.formats.wthor import read_wtb
from bitflip.search.control import INF
from bitflip.search.driver import Searcher
from bitflip.search.probcut import load_fits

BANDS = ((20, 27), (28, 35), (36, 43), (44, 51))


def wthor_positions(path: Path, n: int, lo: int, hi: int, seed: int) -> list[tuple[int, int, int]]:
    """(player, opponent, empties) of ``n`` positions of the file's games, empties uniform in
    ``lo..hi``, the side to move with a legal move."""
    games = [g.moves for g in read_wtb(path)]
    rng = np.random.default_rng(seed)
    out: list[tuple[int, int, int]] = []
    while len(out) < n:
        moves = games[int(rng.integers(len(games)))]
        target = int(rng.integers(lo, hi + 1))
        b = Board()
        for mv in moves:
            if b.empties <= target:
                break
            if mv not in b.legal_moves:
                b = None
                break
            b.push(mv)
        if b is None or b.empties != target or b.is_game_over() or b.legal_mask() == 0:
            continue
        p, o = b.side_bitboards()
        out.append((p, o, target))
    return out


def band_sigma(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(sd of the residuals of y's least-squares line on x, sd of y)."""
    a, b = np.polyfit(x, y, 1)
    return float(np.std(y - (a * x + b))), float(np.std(y))


def ntest_rows(folder: Path) -> list[list[int]]:
    rows: list[list[int]] = []
    for f in sorted(folder.glob("mpcJA_*.txt")):
        lines = f.read_text().splitlines()[1:]
        rows += [[int(v) for v in line.split()] for line in lines if line.strip()]
    return rows


def measure(args: argparse.Namespace, depths: list[int]) -> list[dict]:
    """Full-width values at ``depths`` of the sampled positions, a fresh table each."""
    searcher = Searcher(load_evaluation(args.eval), tt_mb=16)
    found = []
    t0 = time.process_time()
    positions = wthor_positions(
        args.wthor, args.positions, args.min_empties, args.max_empties, args.seed
    )
    for i, (p, o, e) in enumerate(positions):
        searcher.clear()
        values = {d: int(searcher.ctx.midgame(p, o, int(FULL), d, -INF, INF)) for d in depths}
        found.append({"empties": e, "values": values})
        if (i + 1) % 20 == 0:
            print(f"{i + 1}/{len(positions)} positions, {time.process_time() - t0:.0f} CPU s")
    return found


def read_values(path: Path) -> list[dict]:
    """Records of an ``--out`` file, gzipped or not (JSON made the depths strings: ints again)."""
    return [
        {"empties": r["empties"], "values": {int(k): v for k, v in r["values"].items()}}
        for r in records(path)
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wthor", type=Path, help="positions of this .wtb file's games")
    ap.add_argument("--positions", type=int, default=240)
    ap.add_argument("--min-empties", type=int, default=20)
    ap.add_argument("--max-empties", type=int, default=51)
    ap.add_argument("--pairs", nargs="+", default=["6:2", "8:4", "10:4", "12:6"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--eval", default="default")
    ap.add_argument("--ntest", type=Path, default=None, help="NTest's coefficients folder")
    ap.add_argument("--out", type=Path, default=None, help="values a position, JSON lines")
    ap.add_argument("--values", type=Path, default=None, help="an --out file to read, not search")
    args = ap.parse_args()
    try:
        pairs = [(int(d), int(sd)) for d, sd in (s.split(":") for s in args.pairs)]
    except ValueError:
        ap.error(f"--pairs takes DEPTH:SHALLOW pairs such as 12:6, not {' '.join(args.pairs)}")
    if not all(0 <= sd < d for d, sd in pairs):
        ap.error("--pairs: each shallow depth must be below its depth (12:6)")
    if args.values is None and args.wthor is None:
        ap.error("give --wthor (positions to search) or --values (a saved --out file)")
    nt = ntest_rows(args.ntest) if args.ntest else []
    if args.ntest and not nt:
        ap.error(f"--ntest {args.ntest}: no mpcJA_*.txt files there (NTest's coefficients folder)")
    depths = sorted({d for pair in pairs for d in pair})

    try:
        found = measure(args, depths) if args.values is None else read_values(args.values)
    except (OSError, ValueError, KeyError) as e:
        ap.error(f"{args.values or args.wthor}: {e}")
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in found))

    shipped = {f.depth: f for f in load_fits("patterns") or []}
    print(
        "\n| depth / shallow | empties | bitflip: positions | sd, shipped line | shipped sigma"
        " | sd, band's line | / sd(v_d) | NTest: positions | sd, band's line | / sd(v_d) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for d, sd in pairs:
        for lo, hi in BANDS:
            sel = [r for r in found if lo <= r["empties"] <= hi and r["empties"] > d]
            row = f"| {d} / {sd} | {lo}-{hi} | {len(sel)} |"
            if len(sel) >= 10 and d in shipped:
                x = np.array([r["values"][sd] for r in sel], dtype=np.float64)
                y = np.array([r["values"][d] for r in sel], dtype=np.float64)
                f = shipped[d]
                kernel_sd = float(np.std(y - (f.a * x + f.b)))
                model = float(f.sigma_at(np.array([(lo + hi) / 2]))[0])
                bs, bsd = band_sigma(x, y)
                row += f" {kernel_sd:.0f} | {model:.0f} | {bs:.0f} | {bs / bsd:.2f} |"
            else:
                row += " | | | |"
            nsel = [r for r in nt if lo <= r[0] <= hi and len(r) > d + 1]
            if len(nsel) >= 10:
                x = np.array([r[1 + sd] for r in nsel], dtype=np.float64)
                y = np.array([r[1 + d] for r in nsel], dtype=np.float64)
                ns, nsd = band_sigma(x, y)
                row += f" {len(nsel)} | {ns:.0f} | {ns / nsd:.2f} |"
            else:
                row += " | | |"
            print(row)


if __name__ == "__main__":
    main()
