"""Evaluation speed (evaluations per second inside a numba loop) and accuracy (mean absolute
error in discs against game results) of every evaluation kind.

Run: PYTHONPATH=src .venv/bin/python benchmarks/eval.py [--positions 200000]
         [--wthor ../shared/data/wthor/WTH_2023.wtb]

Speed: a compiled loop calls ``evaluate`` on positions from random games (warm: compiled and
cached first). Accuracy, when ``--wthor`` is given: every position of those games, target = the
final disc difference from the mover's view; evaluations that are not calibrated in discs
(positional) are fitted by one least-squares scale first, so the column compares rankings.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
from numba import njit

from bitflip.core.bitboard import legal_moves, play
from bitflip.eval.evaluator import EVAL_SCALE, KINDS, evaluate, load_evaluation

FULL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def _eval_all(p: np.ndarray, o: np.ndarray, kind: int, w: np.ndarray) -> np.ndarray:
    out = np.zeros(p.shape[0], dtype=np.int64)
    for i in range(p.shape[0]):
        out[i] = evaluate(p[i], o[i], FULL, kind, w)
    return out


def random_positions(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    ps: list[np.uint64] = []
    os_: list[np.uint64] = []
    while len(ps) < n:
        p, o = np.uint64(0x0000000810000000), np.uint64(0x0000001008000000)
        while True:
            moves = int(legal_moves(p, o, FULL))
            if moves == 0:
                if legal_moves(o, p, FULL) == 0:
                    break
                p, o = o, p
                continue
            squares = [s for s in range(64) if moves >> s & 1]
            p, o = (np.uint64(x) for x in play(p, o, int(rng.choice(squares))))
            ps.append(p)
            os_.append(o)
    return np.array(ps[:n], dtype=np.uint64), np.array(os_[:n], dtype=np.uint64)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--wthor", help="a .wtb file for the accuracy column")
    args = ap.parse_args()
    p, o = random_positions(args.positions)
    samples = None
    if args.wthor:
        from bitflip.learn.patterns_config import PatternsFitConfig
        from bitflip.learn.patterns_data import build_samples, load_games

        cfg = PatternsFitConfig(wthor=args.wthor, target="final")
        samples, _ = build_samples(load_games(cfg), cfg)
    print(
        f"machine: {platform.processor() or platform.machine()}, python "
        f"{platform.python_version()}; {args.positions} positions from random games"
    )
    print("| evaluation | M evals/s | MAE vs final result (discs) |")
    print("|---|---|---|")
    for name in [*KINDS, "default"]:
        try:
            ev = load_evaluation(name)
        except ValueError as exc:
            print(f"| {name} | - | {exc} |")
            continue
        _eval_all(p[:10], o[:10], ev.kind, ev.weights)
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            _eval_all(p, o, ev.kind, ev.weights)
            best = min(best, time.perf_counter() - t0)
        mae = "-"
        if samples is not None:
            pred = _eval_all(samples.p, samples.o, ev.kind, ev.weights) / EVAL_SCALE
            t = samples.target.astype(np.float64)
            if name == "positional":
                pred = pred * (pred @ t) / max(pred @ pred, 1e-9)
            mae = f"{np.abs(pred - t).mean():.2f}"
        label = f"{name} ({ev.name})" if name == "default" else name
        print(f"| {label} | {len(p) / best / 1e6:.2f} | {mae} |")


if __name__ == "__main__":
    main()
