"""Fitting the Multi-ProbCut parameters that :mod:`bitflip.search.probcut` reads.

ProbCut (Buro) predicts the value ``v_d`` of a depth-``d`` search from a shallow search at
depth ``d'``: ``v_d = a * v_d' + b + e`` with ``e`` roughly normal of deviation ``sigma``.
``python -m bitflip.learn.probcut_fit --eval default --positions 200 --data ../shared/data``
fits ``a``, ``b`` and ``sigma`` for each depth by least squares on pairs of searches of
positions from recorded games (WTHOR when the data folder is given, else random games) and
writes ``src/bitflip/data/mpc-<eval>.json`` with how it was made.

``--endgame`` fits the endgame solver's ProbCut instead (``EG_PC_*`` in
:mod:`bitflip.search.endgame`): exact scores of WTHOR positions with 14-20 empties on the
evaluated shallow search at depths 0-4, printed to be copied into the code.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from bitflip._progress import track
from bitflip.core.bitboard import FULL
from bitflip.core.board import Board
from bitflip.eval.evaluator import load_evaluation
from bitflip.formats.wthor import read_wtb
from bitflip.search.control import INF
from bitflip.search.driver import Searcher
from bitflip.search.endgame import shallow_search
from bitflip.search.plan import SearchPlan
from bitflip.search.probcut import MIN_MPC_DEPTH, ProbCutFit, params_path, shallow_depth

EMPTIES_REF = 40.0
"""The count of empties at which a fit states its sigma (``ProbCutFit.empties_ref``)."""


def fit(
    pairs: dict[int, list[tuple[float, float, int]]], flat_sigma: bool = False
) -> list[ProbCutFit]:
    """Least-squares fits of deep on shallow values, one per depth, from ``(shallow, deep,
    empties)`` samples; sigma as a linear function of the empties (fewer empties, a larger
    error, as NTest, Edax and Egaroucid model it), from the absolute residuals (times
    sqrt(pi/2), the mean absolute value of a normal error in sigmas).

    ``flat_sigma`` keeps the line's value at :data:`EMPTIES_REF` for every count of empties
    (slope 0): with this evaluation the line's wider cuts late in the midgame cost a quarter
    more time a move for no strength (step 26 of ``benchmarks/RESULTS-ntest.md``)."""
    out = []
    for d, xye in sorted(pairs.items()):
        if len(xye) < 10:
            continue
        x, y, e = (np.array(col, dtype=np.float64) for col in zip(*xye, strict=True))
        a, b = np.polyfit(x, y, 1)
        resid = np.abs(y - (a * x + b)) * np.sqrt(np.pi / 2)
        slope, at_zero = np.polyfit(e, resid, 1) if np.ptp(e) > 0 else (0.0, resid.mean())
        sigma = float(at_zero + slope * EMPTIES_REF)
        if flat_sigma:
            slope = 0.0
        out.append(
            ProbCutFit(
                d, shallow_depth(d), float(a), float(b), sigma, len(xye), float(slope), EMPTIES_REF
            )
        )
    return out


def sample_positions(n: int, seed: int, data: Path | None) -> list[tuple[int, int]]:
    """Side-relative positions with 16 to 50 empties from recorded games (``data`` given) or
    random ones (``data`` None); FileNotFoundError when ``data`` holds no WTHOR games, so that a
    mistyped folder never fits random positions silently."""
    rng = np.random.default_rng(seed)
    out: list[tuple[int, int]] = []
    games: list[list[int]] = []
    if data is not None:
        games = _wthor_games(data, "WTH_20*.wtb", 3)
        if not games:
            raise FileNotFoundError(f"{data}: no WTHOR games (WTH_20*.wtb under {data / 'wthor'})")
    while len(out) < n:
        b = Board()
        target = int(rng.integers(10, 45))
        moves = games[int(rng.integers(len(games)))] if games else None
        for i in range(target):
            legal = list(b.legal_moves)
            if not legal:
                break
            if moves is not None and i < len(moves) and moves[i] in legal:
                b.push(moves[i])
            else:
                b.push(legal[int(rng.integers(len(legal)))])
        if b.is_game_over() or b.legal_mask() == 0:
            continue
        out.append(b.side_bitboards())
    return out


def calibrate(
    evaluation: str,
    positions: int,
    max_depth: int,
    seed: int,
    data: Path | None,
    flat_sigma: bool = False,
) -> dict[str, object]:
    """Search sampled positions at every depth and fit the ProbCut parameters."""
    ev = load_evaluation(evaluation)
    searcher = Searcher(ev, tt_mb=16)
    ctx = searcher.ctx
    mask = int(FULL)
    pairs: dict[int, list[tuple[float, float, int]]] = {}
    t0 = time.time()
    for p, o in track(sample_positions(positions, seed, data), "positions"):
        values: dict[int, int] = {}
        empties = 64 - (p | o).bit_count()
        searcher.clear()
        for d in range(min(max_depth, empties - 1) + 1):
            values[d] = ctx.midgame(p, o, mask, d, -INF, INF)
        # A search that reaches the end is an exact solve, which ProbCut never predicts.
        for d in range(MIN_MPC_DEPTH, min(max_depth, empties - 1) + 1):
            pairs.setdefault(d, []).append((values[shallow_depth(d)], values[d], empties))
    fits = fit(pairs, flat_sigma)
    return {
        "eval": ev.name,
        "how": (
            f"python -m bitflip.learn.probcut_fit --eval {evaluation} --positions {positions} "
            f"--max-depth {max_depth} --seed {seed}"
            + (f" --data {data}" if data is not None else "")
            + (" --flat-sigma" if flat_sigma else "")
            + ": least squares of the depth-d value on the "
            "shallow value over positions with 16-50 empties (WTHOR games when available, "
            "else random games), no ProbCut while fitting"
            + ("; sigma the line's value at 40 empties for every count" if flat_sigma else "")
        ),
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "seconds": round(time.time() - t0, 1),
        "fits": [f.__dict__ for f in fits],
    }


ENDGAME_DEPTHS = (0, 1, 2, 3, 4)
"""Depths of the shallow search the endgame fit tries (the solver uses one of them)."""


def _wthor_games(data: Path, pattern: str, files: int) -> list[list[int]]:
    games: list[list[int]] = []
    for f in sorted((data / "wthor").glob(pattern))[:files]:
        games.extend(list(g.moves) for g in read_wtb(f, passes=True, check=False))
    return games


def _endgame_position(games: list[list[int]], rng: np.random.Generator) -> Board | None:
    """A game's position once it has a random number of empties in 14..20, or None."""
    moves = games[int(rng.integers(len(games)))]
    n = int(rng.integers(14, 21))
    b = Board()
    for mv in moves:
        if b.empties <= n:
            break
        if mv not in list(b.legal_moves):
            return None
        b.push(mv)
    if b.is_game_over() or not b.legal_mask() or b.empties != n:
        return None
    return b


def endgame_samples(positions: int, seed: int, games: list[list[int]]) -> np.ndarray:
    """Rows (empties, exact score, shallow value at each of ``ENDGAME_DEPTHS``) of positions
    with 14-20 empties taken from ``games``."""
    ev = load_evaluation("default", 8)
    searcher = Searcher(ev, tt_mb=64)
    rng = np.random.default_rng(seed)
    rows: list[list[int]] = []
    while len(rows) < positions:
        b = _endgame_position(games, rng)
        if b is None:
            continue
        p, o = b.side_bitboards()
        searcher.clear()
        r, _ = searcher.search(p, o, int(FULL), SearchPlan(exact_empties=64))
        up, uo = np.uint64(p), np.uint64(o)
        shallow = [
            int(shallow_search(up, uo, FULL, d, -INF, INF, ev.kind, ev.weights))
            for d in ENDGAME_DEPTHS
        ]
        rows.append([b.empties, int(r.score), *shallow])
    return np.array(rows, dtype=np.float64)


def fit_endgame(rows: np.ndarray) -> list[tuple[int, float, float, float]]:
    """``(depth, a, b, sigma)`` of ``exact = a * shallow + b`` for each shallow depth."""
    out = []
    for j, d in enumerate(ENDGAME_DEPTHS):
        x, y = rows[:, 2 + j], rows[:, 1]
        slope, icpt = np.polyfit(x, y, 1)
        res = y - (slope * x + icpt)
        out.append((d, float(slope), float(icpt), float(res.std())))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Fit Multi-ProbCut parameters for an evaluation.")
    ap.add_argument("--eval", default="default")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--max-depth", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", type=Path, default=None, help="the shared data folder")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument(
        "--endgame", action="store_true", help="fit the endgame solver's ProbCut (prints it)"
    )
    ap.add_argument(
        "--flat-sigma",
        action="store_true",
        help="one sigma a depth (its fitted value at 40 empties) instead of a line in the empties",
    )
    args = ap.parse_args(argv)
    if args.endgame and args.flat_sigma:
        ap.error("--flat-sigma shapes the midgame fit; --endgame has no sigma line to flatten")
    if args.endgame:
        games = _wthor_games(args.data or Path("../shared/data"), "WTH_201*.wtb", 2)
        if not games:
            ap.error("--endgame needs WTHOR games: give --data (WTH_201*.wtb under wthor/)")
        rows = endgame_samples(args.positions, args.seed, games)
        for d, a, b, sigma in fit_endgame(rows):
            print(f"depth {d}: a {a:.4f} b {b:5.2f} sigma {sigma:.2f}")
        return 0
    try:
        doc = calibrate(
            args.eval, args.positions, args.max_depth, args.seed, args.data, args.flat_sigma
        )
    except FileNotFoundError as e:
        ap.error(f"--data {e}")
    out = args.out or params_path(str(doc["eval"]))
    out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
