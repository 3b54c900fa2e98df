"""Multi-ProbCut parameters: fitting them, storing them, loading them.

ProbCut (Buro) predicts the value ``v_d`` of a depth-``d`` search from a shallow search at
depth ``d'``: ``v_d = a * v_d' + b + e`` with ``e`` roughly normal of deviation ``sigma``. A
node whose shallow value is beyond ``(beta + t * sigma - b) / a`` is cut as failing high
(and likewise low), with confidence set by ``t`` (the level's selectivity).

``python -m bitflip.search.probcut --eval positional --positions 300`` fits ``a``, ``b`` and
``sigma`` for each depth by least squares on pairs of searches of positions taken from
recorded games (WTHOR when the data folder is available, else games of the engine against
a random opponent), and writes ``src/bitflip/data/mpc-<eval>.json`` with how it was made.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

MAX_MPC_DEPTH = 24
MIN_MPC_DEPTH = 3


def shallow_depth(depth: int) -> int:
    """The depth of the shallow search that predicts a search of ``depth`` (as in Edax)."""
    return max(1, 2 * (depth // 4) + (depth & 1))


@dataclass(frozen=True)
class ProbCutFit:
    depth: int
    shallow: int
    a: float
    b: float
    sigma: float
    samples: int


def table_from_fits(fits: list[ProbCutFit]) -> np.ndarray:
    """The (depth, 4) float64 table the kernel reads: shallow depth, a, b, sigma per depth."""
    table = np.zeros((MAX_MPC_DEPTH + 1, 4), dtype=np.float64)
    by_depth = {f.depth: f for f in fits}
    known = sorted(by_depth)
    for d in range(MIN_MPC_DEPTH, MAX_MPC_DEPTH + 1):
        if not known:
            break
        # Depths beyond the fitted ones reuse the deepest fit's a and b, and its sigma.
        f = by_depth.get(d) or by_depth[max(k for k in known if k <= d)] if d >= known[0] else None
        if f is None:
            continue
        table[d] = (shallow_depth(d), f.a, f.b, f.sigma)
    return table


def params_path(evaluation: str) -> Path:
    return Path(str(resources.files("bitflip") / "data" / f"mpc-{evaluation}.json"))


def load_table(evaluation: str) -> np.ndarray | None:
    """The ProbCut table fitted for an evaluation, or None when it has none."""
    path = params_path(evaluation)
    if not path.is_file():
        return None
    doc = json.loads(path.read_text())
    fits = [ProbCutFit(**f) for f in doc["fits"]]
    return table_from_fits(fits)


def fit(pairs: dict[int, list[tuple[float, float]]]) -> list[ProbCutFit]:
    """Least-squares fits of deep on shallow values, one per depth."""
    out = []
    for d, xy in sorted(pairs.items()):
        if len(xy) < 10:
            continue
        x = np.array([s for s, _ in xy], dtype=np.float64)
        y = np.array([v for _, v in xy], dtype=np.float64)
        a, b = np.polyfit(x, y, 1)
        resid = y - (a * x + b)
        sigma = float(np.sqrt(np.mean(resid**2)))
        out.append(ProbCutFit(d, shallow_depth(d), float(a), float(b), sigma, len(xy)))
    return out


def sample_positions(n: int, seed: int, data: Path | None) -> list[tuple[int, int]]:
    """Side-relative positions with 16 to 50 empties from recorded or random games."""
    from bitflip.core.board import Board

    rng = np.random.default_rng(seed)
    out: list[tuple[int, int]] = []
    games: list[list[int]] = []
    if data is not None:
        try:
            from bitflip.formats.wthor import read_wthor  # type: ignore[import-not-found]

            for f in sorted((data / "wthor").glob("WTH_20*.wtb"))[:3]:
                games.extend(list(g.moves) for g in read_wthor(f))
        except (ImportError, OSError):
            games = []
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
    evaluation: str, positions: int, max_depth: int, seed: int, data: Path | None
) -> dict[str, object]:
    """Search sampled positions at every depth and fit the ProbCut parameters."""
    from tqdm import tqdm

    from bitflip.eval.evaluator import load_evaluation
    from bitflip.search.driver import Searcher

    ev = load_evaluation(evaluation)
    searcher = Searcher(ev, tt_mb=16)
    ctx = searcher.ctx
    mask = int(np.uint64(0xFFFFFFFFFFFFFFFF))
    pairs: dict[int, list[tuple[float, float]]] = {}
    t0 = time.time()
    for p, o in tqdm(sample_positions(positions, seed, data), desc="positions"):
        values: dict[int, int] = {}
        searcher.clear()
        for d in range(1, max_depth + 1):
            values[d] = ctx.midgame(p, o, mask, d, -1_000_000, 1_000_000)
        for d in range(MIN_MPC_DEPTH, max_depth + 1):
            pairs.setdefault(d, []).append((values[shallow_depth(d)], values[d]))
    fits = fit(pairs)
    return {
        "eval": evaluation,
        "how": (
            f"python -m bitflip.search.probcut --eval {evaluation} --positions {positions} "
            f"--max-depth {max_depth} --seed {seed}: least squares of the depth-d value on the "
            "shallow value over positions with 16-50 empties (WTHOR games when available, "
            "else random games), no ProbCut while fitting"
        ),
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "seconds": round(time.time() - t0, 1),
        "fits": [f.__dict__ for f in fits],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Fit Multi-ProbCut parameters for an evaluation.")
    ap.add_argument("--eval", default="positional")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--max-depth", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", type=Path, default=None, help="the shared data folder")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    doc = calibrate(args.eval, args.positions, args.max_depth, args.seed, args.data)
    out = args.out or params_path(args.eval)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
