"""Other targets for the pattern fit's game positions: TD(lambda) returns or shallow searches.

The shipped fit (``configs/patterns.toml``) gives a game position the WTHOR theoretical score of
its game (perfect play from 24 empties), a Monte Carlo return: every position of a game before
24 empties gets the same number, whatever the players did between. This script writes a sample
cache with other targets into a run folder; ``bitflip train patterns`` then fits on it (it reads
``<out>/samples-<data_key>.npz`` instead of building its own), labels and all else as configured:

- ``td --lam L``: the lambda-return along the game line, bootstrapped from a weights file's
  static values (``--weights``, default the shipped ones): going back from the game's end,
  ``G_t = (1 - L) V(s_t+1) + L G_t+1``, where positions with an exact score (the one at 24
  empties, the last of the game) keep their target, and the next position's value is that score
  when it has one. L = 1 is the shipped target; a smaller L leans on the evaluation of later
  positions.
- ``search --depth D --mix M``: ``(1 - M) target + M v_D`` for positions with at least
  ``--min-empties`` empties, ``v_D`` a full-width alpha-beta value of depth D with the default
  evaluation (both cores; depth 4 takes about 20 minutes for the 10 M positions on 2 cores).

Run from the repository root, then fit and compare at fixed depth::

    PYTHONPATH=src python benchmarks/fit_targets.py td --config configs/patterns.toml \\
        --lam 0.7 --out runs/fit-td07
    bitflip train patterns --config configs/patterns.toml --out runs/fit-td07
    PYTHONPATH=src:benchmarks python benchmarks/eval_match.py runs/fit-td07/patterns-*.npz \\
        src/bitflip/data/patterns-*.npz --depth 4 --openings 3000 \\
        --xot ../shared/data/xot/openingslarge.txt

Results: ``RESULTS-ntest.md``, step 25.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

from bitflip.core.bitboard import FULL
from bitflip.datadir import find
from bitflip.eval.evaluator import load_evaluation
from bitflip.eval.weights import PatternWeights, shipped_pattern_file
from bitflip.learn.datasets import GameSource, positions_from_games
from bitflip.learn.patterns_config import PatternsFitConfig
from bitflip.learn.patterns_data import Samples, build_samples, load_games, split_games
from bitflip.learn.patterns_fit import predict_raw
from bitflip.learn.shards import NO_SCORE
from bitflip.search.control import INF
from bitflip.search.endgame import shallow_search


@njit(cache=True)
def td_returns(
    value: np.ndarray, target: np.ndarray, game: np.ndarray, exact: np.ndarray, lam: float
) -> np.ndarray:
    """Lambda-returns, all in one side's view (Black's): rows in move order within a game."""
    n = value.shape[0]
    out = np.empty(n)
    for i in range(n - 1, -1, -1):
        if i == n - 1 or game[i + 1] != game[i] or exact[i]:
            out[i] = target[i]
        else:
            following = target[i + 1] if exact[i + 1] else value[i + 1]
            out[i] = (1.0 - lam) * following + lam * out[i + 1]
    return out


@njit(parallel=True, cache=True)
def search_values(
    p: np.ndarray, o: np.ndarray, depth: int, kind: int, weights: np.ndarray
) -> np.ndarray:
    """Full-window alpha-beta values (eval units) of many positions, on every core."""
    out = np.zeros(p.shape[0], dtype=np.int64)
    for i in prange(p.shape[0]):
        out[i] = shallow_search(p[i], o[i], FULL, depth, -INF, INF, kind, weights)
    return out


def located(path: str) -> str:
    """A config's data path as ``bitflip train patterns`` finds it (so the cache names match)."""
    prefix = "../shared/data/"
    return str(find(path[len(prefix) :] if path.startswith(prefix) else path))


def td_targets(samples: Samples, moves: np.ndarray, lam: float, weights: Path) -> np.ndarray:
    batch, _ = positions_from_games(GameSource(moves))
    if len(batch.game) != len(samples):
        raise SystemExit("the replayed positions do not line up with the samples")
    black = np.where(batch.side == 0, 1.0, -1.0)
    w = PatternWeights.load(weights)
    value = predict_raw(w.raw.astype(np.float64), w.phases, samples.p, samples.o)
    exact = batch.theoretical != NO_SCORE
    target = samples.target.astype(np.float64) * black
    game = batch.game.astype(np.int64)
    return td_returns(value * black, target, game, exact, lam) * black


def search_targets(samples: Samples, depth: int, mix: float, min_empties: int) -> np.ndarray:
    ev = load_evaluation("default")
    t0 = time.time()
    v = search_values(samples.p, samples.o, depth, ev.kind, ev.weights) / 100.0
    print(f"{len(v)} searches of depth {depth} in {time.time() - t0:.0f} s", flush=True)
    use = samples.empties() >= min_empties
    return np.where(use, (1.0 - mix) * samples.target + mix * v, samples.target)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=("td", "search"))
    ap.add_argument("--config", default="configs/patterns.toml")
    ap.add_argument("--out", required=True, help="run folder for `bitflip train patterns --out`")
    ap.add_argument("--lam", type=float, default=0.7, help="td: lambda")
    ap.add_argument("--weights", type=Path, help="td: weights to bootstrap from (the shipped)")
    ap.add_argument("--depth", type=int, default=4, help="search: depth")
    ap.add_argument("--mix", type=float, default=0.5, help="search: share of the search value")
    ap.add_argument("--min-empties", type=int, default=14, help="search: from this many empties")
    args = ap.parse_args(argv)
    cfg = PatternsFitConfig.from_toml(args.config)
    cfg.wthor = located(cfg.wthor)
    cfg.extra = [located(e) for e in cfg.extra]
    games = load_games(cfg)
    samples, _ = build_samples(games, cfg)
    if args.kind == "td":
        weights = args.weights or shipped_pattern_file()
        if weights is None:
            raise SystemExit("no shipped weights to bootstrap from; give --weights")
        target = td_targets(samples, games.moves, args.lam, Path(weights))
    else:
        target = search_targets(samples, args.depth, args.mix, args.min_empties)
    e = samples.empties()
    for lo, hi in ((0, 19), (20, 29), (30, 39), (40, 49), (50, 60)):
        m = (e >= lo) & (e <= hi)
        change = np.abs(target[m] - samples.target[m]).mean()
        print(f"{lo}-{hi} empties: mean change {change:.2f} discs, sd {target[m].std():.2f}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cache = out / f"samples-{cfg.data_key()}.npz"
    held = split_games(games.moves.shape[0], cfg.holdout, cfg.seed)
    np.savez(
        cache,
        p=samples.p,
        o=samples.o,
        target=target.astype(np.float32),
        game=samples.game,
        held=held,
        files=np.array(games.files),
    )
    print(f"wrote {cache}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
