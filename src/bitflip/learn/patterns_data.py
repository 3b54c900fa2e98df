"""The data side of a pattern fit: WTHOR games (or search labels) into samples, cached.

Every position before a move of every game becomes a sample (the games are replayed into
training positions by :func:`bitflip.learn.datasets.positions_from_games`, as for every other
learner); its target is the final disc difference from the mover's view (empties to the
winner), or, for positions with at least ``depth`` empties in files that store it, the WTHOR
theoretical score (perfect play from the game's position at ``depth`` empties, so free of the
players' endgame errors). Games, never positions, are split between training and held-out
sets. The samples of a config are cached in its run folder (``samples-<data_key>.npz``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bitflip._atomic import atomic_path
from bitflip._npz import read_npz
from bitflip.core.arrays import empties_many
from bitflip.core.bitboard import FULL
from bitflip.formats.wthor import load_wtb, read_header, wtb_files
from bitflip.learn.datasets import GameSource, positions_from_games
from bitflip.learn.eval_labels import exact_scores, load_labels
from bitflip.learn.patterns_config import PatternsFitConfig
from bitflip.learn.shards import PositionBatch

Progress = Callable[[int, int, str], None]
"""``progress(done, total, what)`` callback."""


@dataclass
class Samples:
    """Positions from the mover's view with their targets (discs) and game numbers."""

    p: np.ndarray
    o: np.ndarray
    target: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return int(self.p.shape[0])

    def subset(self, keep: np.ndarray) -> Samples:
        return Samples(self.p[keep], self.o[keep], self.target[keep], self.game[keep])

    def empties(self) -> np.ndarray:
        return empties_many(self.p, self.o, FULL)


@dataclass
class GameArrays:
    """Games as arrays: moves (-1 after the end, no passes), stored scores, theory depth."""

    moves: np.ndarray
    black_score: np.ndarray
    theoretical: np.ndarray
    """Black's perfect-play disc count, -1 where the file stores none."""
    depth: np.ndarray
    files: list[str] = field(default_factory=list)


def wthor_files(cfg: PatternsFitConfig) -> list[Path]:
    """The .wtb files of ``cfg``: those of ``wthor`` in the years asked for, then ``extra``."""
    root = Path(cfg.wthor)
    if not root.exists():
        raise OSError(f"WTHOR data {root} does not exist")
    files = [f for f in wtb_files(root) if cfg.first_year <= read_header(f).year <= cfg.last_year]
    for extra in cfg.extra:
        if not Path(extra).exists():
            raise OSError(f"extra WTHOR data {extra} does not exist")
        files += wtb_files(extra)
    if not files:
        raise ValueError(f"no .wtb files in {root} for years {cfg.first_year}-{cfg.last_year}")
    return files


def load_games(cfg: PatternsFitConfig) -> GameArrays:
    """Read the configured WTHOR files (``bitflip.formats.wthor``; every game is replayed),
    at most ``cfg.max_games`` games."""
    files = wthor_files(cfg)
    moves: list[np.ndarray] = []
    scores: list[np.ndarray] = []
    theory: list[np.ndarray] = []
    depth: list[np.ndarray] = []
    used: list[str] = []
    total = 0
    for f in files:
        games = load_wtb(f)
        n = len(games)
        if cfg.max_games:
            n = min(n, cfg.max_games - total)
        d = games.header.depth
        sq = games.squares()[:n]
        if (sq > 63).any():
            raise ValueError(f"{f}: a move byte is not a square")
        moves.append(np.where(sq < 0, -1, sq).astype(np.int8))
        scores.append(games.black_score[:n].astype(np.int8))
        theory.append(
            games.theoretical[:n].astype(np.int8) if d > 0 else np.full(n, -1, dtype=np.int8)
        )
        depth.append(np.full(n, d, dtype=np.int8))
        used.append(str(f))
        total += n
        if cfg.max_games and total >= cfg.max_games:
            break
    return GameArrays(
        np.concatenate(moves),
        np.concatenate(scores),
        np.concatenate(theory),
        np.concatenate(depth),
        used,
    )


ExactSolver = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""Perfect-play margins (mover's view) of positions given as (player, opponent) arrays."""


def build_samples(
    games: GameArrays, cfg: PatternsFitConfig, solve: ExactSolver | None = None
) -> tuple[Samples, int]:
    """Positions of every game (and the number of games skipped as illegal).

    The games are replayed into training positions (:func:`positions_from_games`, the
    path every learner's data takes); a game's final difference is exact when it was played
    out, else the file's stored disc count. With ``cfg.exact_empties``, ``solve`` gives the
    perfect-play scores near the end (see :class:`PatternsFitConfig`).
    """
    batch, stats = positions_from_games(GameSource(games.moves))
    g = batch.game
    stored = 2 * games.black_score.astype(np.int64) - 64
    mover = np.where(batch.side == 0, 1, -1)
    target = np.where(batch.result_known, batch.disc_diff, stored[g] * mover).astype(np.float64)
    e = empties_many(batch.player, batch.opponent, FULL)
    use = np.zeros(len(g), dtype=bool)
    if cfg.target == "theoretical":
        theory = games.theoretical.astype(np.int64)
        use = (theory[g] >= 0) & (e >= games.depth[g])
        target = np.where(use, (2 * theory[g] - 64) * mover, target)
    if cfg.exact_empties:
        if solve is None:
            raise ValueError("exact_empties needs a solver")
        _exact_targets(target, batch, e, use, len(games.moves), cfg.exact_empties, solve)
    keep = e >= cfg.min_empties
    samples = Samples(
        batch.player[keep],
        batch.opponent[keep],
        target[keep].astype(np.float32),
        g[keep].astype(np.int32),
    )
    return samples, len(stats.illegal or [])


def _exact_targets(
    target: np.ndarray,
    batch: PositionBatch,
    e: np.ndarray,
    theory: np.ndarray,
    n_games: int,
    max_empties: int,
    solve: ExactSolver,
) -> None:
    """Set ``target`` (in place) to the perfect-play scores of the positions with at most
    ``max_empties`` empties, and to their game's first such score before them where the
    theoretical score (``theory``: rows that use it) does not cover them."""
    g = batch.game
    solved = np.flatnonzero(e <= max_empties)
    target[solved] = solve(batch.player[solved], batch.opponent[solved])
    # Earlier positions of the game take its first solved score: its rows run in move
    # order, so np.unique's first index is the solved position with the most empties.
    games_solved, first = np.unique(g[solved], return_index=True)
    anchor = np.full(n_games, -1, dtype=np.int64)
    anchor[games_solved] = solved[first]
    back = np.flatnonzero((e > max_empties) & ~theory & (anchor[g] >= 0))
    a = anchor[g[back]]
    target[back] = target[a] * np.where(batch.side[back] == batch.side[a], 1, -1)


def split_games(n_games: int, holdout: float, seed: int) -> np.ndarray:
    """Boolean mask of held-out games (a seeded draw of whole games)."""
    rng = np.random.default_rng(seed)
    return rng.random(n_games) < holdout


def _exact_solver(
    cfg: PatternsFitConfig, progress: Progress | None, log: Callable[[str], None]
) -> ExactSolver:
    """The solver of ``exact_empties`` targets: resumable chunks of solves in ``cfg.out``."""

    def chunks(done: int, total: int) -> None:
        if progress:
            progress(done, total, "exact scores (chunks)")

    def solve(p: np.ndarray, o: np.ndarray) -> np.ndarray:
        log(f"solving {len(p)} positions with at most {cfg.exact_empties} empties")
        return exact_scores(p, o, cfg.out, workers=cfg.workers, progress=chunks)

    return solve


@dataclass
class FitData:
    """A fit's samples split by game, and where they came from."""

    train: Samples
    test: Samples
    held: np.ndarray
    """Per game: whether it is held out."""
    files: list[str]
    """The data files (or the labels folder) the samples came from."""


def fit_data(
    cfg: PatternsFitConfig, progress: Progress | None, log: Callable[[str], None]
) -> FitData:
    """The samples of ``cfg``: its search labels, else the run folder's cache, else built from
    the games (and cached); split into training and held-out games."""
    if cfg.labels and not cfg.with_games:
        samples, held, files = _labelled_samples(cfg, log)
    else:
        samples, held, files = _game_samples(cfg, progress, log)
        if cfg.labels:
            samples, held, files = _with_labels(cfg, samples, held, files, log)
    is_held = held[samples.game]
    train = samples.subset(~is_held)
    test = samples.subset(is_held)
    if len(train) == 0 or len(test) == 0:
        raise ValueError("the split left no training or no held-out positions; use more games")
    return FitData(train, test, held, files)


_Loaded = tuple[Samples, np.ndarray, list[str]]
_CACHE_ARRAYS = ("p", "o", "target", "game", "held", "files")
"""The arrays of a sample cache (:func:`_build_and_cache` writes them)."""
"""Samples, the held-out mask of their games, and the files they came from."""


def _game_samples(
    cfg: PatternsFitConfig, progress: Progress | None, log: Callable[[str], None]
) -> _Loaded:
    """The WTHOR games' samples: from the run folder's cache, else built and cached."""
    cache = Path(cfg.out) / f"samples-{cfg.data_key()}.npz"
    if cache.is_file():
        return _read_cache(cache, log)
    return _build_and_cache(cfg, cache, progress, log)


def _with_labels(
    cfg: PatternsFitConfig,
    games: Samples,
    held: np.ndarray,
    files: list[str],
    log: Callable[[str], None],
) -> _Loaded:
    """The games' samples followed by the labelled ones. Labels name their source game in the
    same WTHOR files only when drawn with the same years, so their split is their own draw:
    label "games" are numbered after the WTHOR games."""
    labelled, label_held, label_files = _labelled_samples(cfg, log)
    shifted = labelled.game.astype(np.int64) + len(held)
    both = Samples(
        np.concatenate([games.p, labelled.p]),
        np.concatenate([games.o, labelled.o]),
        np.concatenate([games.target, labelled.target]),
        np.concatenate([games.game.astype(np.int64), shifted]).astype(np.int32),
    )
    return both, np.concatenate([held, label_held]), files + label_files


def _labelled_samples(cfg: PatternsFitConfig, log: Callable[[str], None]) -> _Loaded:
    lp, lo, score, game = load_labels(cfg.labels)
    keep = empties_many(lp, lo, FULL) >= cfg.min_empties
    samples = Samples(lp[keep], lo[keep], score[keep].astype(np.float32), game[keep])
    held = split_games(int(game.max(initial=0)) + 1, cfg.holdout, cfg.seed)
    log(f"samples: {len(samples)} labelled positions from {cfg.labels}")
    return samples, held, [f"search labels in {cfg.labels}"]


def _read_cache(cache: Path, log: Callable[[str], None]) -> _Loaded:
    z = read_npz(cache, "sample cache", _CACHE_ARRAYS, advice="delete it")
    samples = Samples(z["p"], z["o"], z["target"], z["game"])
    held = z["held"]
    files = [str(x) for x in z["files"]]
    log(f"samples: {len(samples)} positions from {cache}")
    return samples, held, files


def _build_and_cache(
    cfg: PatternsFitConfig, cache: Path, progress: Progress | None, log: Callable[[str], None]
) -> _Loaded:
    games = load_games(cfg)
    solve = _exact_solver(cfg, progress, log) if cfg.exact_empties else None
    samples, bad = build_samples(games, cfg, solve)
    held = split_games(games.moves.shape[0], cfg.holdout, cfg.seed)
    if bad:
        log(f"skipped {bad} games with an illegal move")
    with atomic_path(cache, ".npz") as tmp:  # a killed build leaves no torn cache
        np.savez(
            tmp,
            p=samples.p,
            o=samples.o,
            target=samples.target,
            game=samples.game,
            held=held,
            files=np.array(games.files),
        )
    log(f"samples: {len(samples)} positions from {games.moves.shape[0]} games")
    return samples, held, games.files
