"""Fit the pattern evaluation by regression on positions of WTHOR games.

Every position before a move of every game becomes a sample (the games are replayed into
training positions by :func:`bitflip.learn.datasets.positions_from_games`, as for every other
learner); its target is the final disc
difference from the mover's view (empties to the winner), or, for positions with at least
``depth`` empties in files that store it, the WTHOR theoretical score (perfect play from the
game's position at ``depth`` empties, so free of the players' endgame errors). Games, never
positions, are split between training and held-out sets. The fit is normalised least-mean-
squares SGD in numba over the raw pattern tables (all 8 orientations share a table), one set
per phase; after each epoch a checkpoint is written, so a killed run resumes where it stopped.

Use ``bitflip train patterns --config configs/patterns.toml``.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from bitflip.core.arrays import empties_many
from bitflip.core.bitboard import FULL, legal_moves, popcount
from bitflip.eval.patterns import LAYOUT, MAX_EMPTIES, ORIENT_LEN, orientation_indices
from bitflip.eval.patterns import phase_map as make_phase_map
from bitflip.eval.weights import PatternWeights
from bitflip.learn.datasets import GameSource, positions_from_games
from bitflip.learn.runinfo import git_revision
from bitflip.tomlconfig import check_keys, read_toml


@dataclass
class PatternsFitConfig:
    """Settings of a pattern fit (the keys of ``configs/patterns.toml``)."""

    wthor: str = "../shared/data/wthor"
    """A folder of .wtb files, or one file."""
    extra: list[str] = field(default_factory=list)
    """More .wtb files or folders (e.g. the Logistello book games); split by game with the rest."""
    first_year: int = 0
    """Use files whose header year is at least this (0: no limit)."""
    last_year: int = 9999
    """... and at most this."""
    max_games: int = 0
    """Use at most this many games (0: all); for quick runs and tests."""
    holdout: float = 0.05
    """Fraction of games held out to measure the error."""
    seed: int = 1
    """Seeds the game split and the order of samples."""
    phases: int = 15
    """Weight sets by number of empties (equal-width bins over 0..60)."""
    target: str = "theoretical"
    """"final": final disc difference; "theoretical": the WTHOR perfect-play score of the game's
    position at ``depth`` empties (exact there, and free of the players' endgame errors before
    it) for positions with at least that many empties, the final difference after it."""
    epochs: int = 20
    learning_rate: float = 0.2
    """NLMS step at the first epoch (0 < lr < 2), decayed by ``decay`` each epoch."""
    decay: float = 0.85
    neighbour_weight: float = 0.5
    """Each position also trains the weight sets of the phases beside its own, with this share
    of the step (0: its own phase only): a phase's tables then learn from more positions, its
    rare pattern configurations most of all."""
    exact_empties: int = 0
    """Positions with at most this many empties get their perfect-play score, solved by the
    engine, as target; and the positions before them that the theoretical score does not cover
    get their game's first such score (so the players' later mistakes leave the target). 0:
    off. The solves are kept in the run folder and resume; 18 takes about 1.5 core-hours for
    the WTHOR base (``exact_scores`` in :mod:`bitflip.learn.eval_labels`)."""
    workers: int = 2
    """Processes solving positions for ``exact_empties``."""
    min_empties: int = 0
    """Skip positions with fewer empties (0: keep all)."""
    out: str = "runs/patterns"
    """Run folder: dataset cache, checkpoints, the fitted weights file and its card."""
    labels: str = ""
    """A folder of search labels (:mod:`bitflip.learn.eval_labels`): fit on those positions and
    scores instead of the WTHOR games' (the WTHOR keys then go unused; "": off)."""
    init: str = ""
    """Weights to start from: a weights file, or "default" for the shipped ones ("": zeros)."""

    @classmethod
    def from_toml(cls, path: str | Path) -> PatternsFitConfig:
        """Read a config file; unknown keys are an error naming the key and the file."""
        doc = read_toml(path)
        doc = doc.get("patterns", doc)
        check_keys(doc, cls, str(path))
        defaults = cls()
        for key, value in doc.items():
            want = type(getattr(defaults, key))
            ok = isinstance(value, want) or (want is float and type(value) is int)
            if not ok or (want is list and not all(isinstance(x, str) for x in value)):
                raise ValueError(f"{path}: {key} must be {want.__name__}, not {value!r}")
        cfg = cls(**doc)
        cfg.check()
        return cfg

    def check(self) -> None:
        if self.target not in ("final", "theoretical"):
            raise ValueError(f"target must be 'final' or 'theoretical', not {self.target!r}")
        if not 0.0 < self.holdout < 1.0:
            raise ValueError(f"holdout must be between 0 and 1, not {self.holdout}")
        if not 0.0 < self.learning_rate < 2.0:
            raise ValueError(f"learning_rate must be in (0, 2), not {self.learning_rate}")
        if not 0.0 <= self.neighbour_weight <= 1.0:
            raise ValueError(f"neighbour_weight must be in [0, 1], not {self.neighbour_weight}")
        if not 0 <= self.exact_empties <= 30:
            raise ValueError(f"exact_empties must be in [0, 30], not {self.exact_empties}")
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")
        make_phase_map(self.phases)

    def data_key(self) -> str:
        """Hash of the settings that decide the samples (the dataset cache's name)."""
        keys = (
            "wthor",
            "extra",
            "first_year",
            "last_year",
            "max_games",
            "holdout",
            "seed",
            "target",
            "exact_empties",
            "labels",
        )
        text = json.dumps({k: getattr(self, k) for k in keys}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def fit_key(self) -> str:
        """Hash of the settings a checkpoint depends on: not ``epochs`` (a finished run goes on
        when given more) nor ``out``."""
        d = {k: v for k, v in asdict(self).items() if k not in ("epochs", "out", "workers")}
        return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:12]


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


def load_games(cfg: PatternsFitConfig) -> GameArrays:
    """Read the configured WTHOR files (``bitflip.formats.wthor``; every game is replayed)."""
    from bitflip.formats.wthor import load_wtb, read_header, wtb_files

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
        solved = np.flatnonzero(e <= cfg.exact_empties)
        target[solved] = solve(batch.player[solved], batch.opponent[solved])
        # Earlier positions of the game take its first solved score: its rows run in move
        # order, so np.unique's first index is the solved position with the most empties.
        games_solved, first = np.unique(g[solved], return_index=True)
        anchor = np.full(len(games.moves), -1, dtype=np.int64)
        anchor[games_solved] = solved[first]
        back = np.flatnonzero((e > cfg.exact_empties) & ~use & (anchor[g] >= 0))
        a = anchor[g[back]]
        target[back] = target[a] * np.where(batch.side[back] == batch.side[a], 1, -1)
    keep = e >= cfg.min_empties
    samples = Samples(
        batch.player[keep],
        batch.opponent[keep],
        target[keep].astype(np.float32),
        g[keep].astype(np.int32),
    )
    return samples, len(stats.illegal or [])


def split_games(n_games: int, holdout: float, seed: int) -> np.ndarray:
    """Boolean mask of held-out games (a seeded draw of whole games)."""
    rng = np.random.default_rng(seed)
    return rng.random(n_games) < holdout


@njit(cache=True)
def _predict_one(
    raw: np.ndarray, phases: np.ndarray, a: np.uint64, b: np.uint64, idx: np.ndarray
) -> tuple[float, float, int]:
    """(value in discs, mobility difference, phase) of one position; ``idx`` gets its entries."""
    phase = phases[64 - popcount(a | b)]
    block = raw[phase]
    mob = float(popcount(legal_moves(a, b, FULL)) - popcount(legal_moves(b, a, FULL)))
    orientation_indices(a, b, idx)
    s = block[0] + block[1] * mob
    for j in range(idx.shape[0]):
        s += block[idx[j]]
    return s, mob, phase


@njit(cache=True)
def _sgd_epoch(
    raw: np.ndarray,
    phases: np.ndarray,
    p: np.ndarray,
    o: np.ndarray,
    target: np.ndarray,
    order: np.ndarray,
    lr: float,
    neighbour_weight: float,
) -> float:
    n_or = ORIENT_LEN.shape[0]
    idx = np.zeros(n_or, dtype=np.int64)
    seen = np.zeros(raw.shape[1], dtype=np.int64)
    total = 0.0
    for k in range(order.shape[0]):
        i = order[k]
        pred, mob, phase = _predict_one(raw, phases, p[i], o[i], idx)
        total += abs(target[i] - pred)
        # Normalised LMS: the step is divided by the squared norm of the input, where a table
        # entry read by c orientations at once is one input of value c.
        norm = 1.0 + mob * mob
        for j in range(n_or):
            seen[idx[j]] += 1
            norm += 2.0 * seen[idx[j]] - 1.0
        for j in range(n_or):
            seen[idx[j]] = 0
        # Its own phase, then those beside it (each with its own prediction).
        for d in range(3):
            ph = phase + (0, -1, 1)[d]
            if d > 0 and (neighbour_weight == 0.0 or ph < 0 or ph >= raw.shape[0]):
                continue
            block = raw[ph]
            if d == 0:
                guess = pred
            else:
                guess = block[0] + block[1] * mob
                for j in range(n_or):
                    guess += block[idx[j]]
            step = (1.0 if d == 0 else neighbour_weight) * lr * (target[i] - guess) / norm
            block[0] += step
            block[1] += step * mob
            for j in range(n_or):
                block[idx[j]] += step
    return float(total / max(order.shape[0], 1))


@njit(cache=True)
def predict_raw(raw: np.ndarray, phases: np.ndarray, p: np.ndarray, o: np.ndarray) -> np.ndarray:
    """Pattern values (discs) of many positions from raw weights."""
    n_or = ORIENT_LEN.shape[0]
    idx = np.zeros(n_or, dtype=np.int64)
    out = np.zeros(p.shape[0], dtype=np.float64)
    for i in range(p.shape[0]):
        out[i] = _predict_one(raw, phases, p[i], o[i], idx)[0]
    return out


def initial_weights(cfg: PatternsFitConfig) -> np.ndarray:
    """The raw weights a fit starts from: zeros, or ``cfg.init``'s (same phases)."""
    if not cfg.init:
        return np.zeros((cfg.phases, LAYOUT.raw_stride), dtype=np.float64)
    from bitflip.eval.weights import shipped_pattern_file

    path = shipped_pattern_file() if cfg.init == "default" else Path(cfg.init)
    if path is None:
        raise OSError("init = 'default' but no pattern weights are shipped")
    if not path.is_file():
        raise OSError(f"init weights {path} do not exist")
    start = PatternWeights.load(path)
    if not np.array_equal(start.phases, make_phase_map(cfg.phases)):
        raise ValueError(f"{path}: its phases differ from phases = {cfg.phases}")
    return start.raw.astype(np.float64)


@dataclass
class FitResult:
    """What a fit produced and how well it does."""

    weights_path: Path
    card_path: Path
    train_positions: int
    holdout_positions: int
    train_games: int
    holdout_games: int
    holdout_mae: float
    """Mean absolute error in discs on held-out games."""
    baseline_mae: float
    """The same error for always predicting 0 (for scale)."""
    mae_by_empties: dict[str, float]


def mae_by_empties(pred: np.ndarray, s: Samples) -> dict[str, float]:
    """Held-out MAE per band of 10 empties ("0-9", ..., "50-59")."""
    e = s.empties()
    out: dict[str, float] = {}
    for lo in range(0, MAX_EMPTIES, 10):
        sel = (e >= lo) & (e < lo + 10)
        if sel.any():
            out[f"{lo}-{lo + 9}"] = float(np.abs(pred[sel] - s.target[sel]).mean())
    return out


Progress = Callable[[int, int, str], None]
"""``progress(done, total, what)`` callback."""


def _iter_chunks(order: np.ndarray, size: int) -> Iterable[np.ndarray]:
    for start in range(0, order.shape[0], size):
        yield order[start : start + size]


def _exact_solver(
    cfg: PatternsFitConfig, progress: Progress | None, log: Callable[[str], None]
) -> ExactSolver:
    """The solver of ``exact_empties`` targets: resumable chunks of solves in ``cfg.out``."""
    from bitflip.learn.eval_labels import exact_scores

    def chunks(done: int, total: int) -> None:
        if progress:
            progress(done, total, "exact scores (chunks)")

    def solve(p: np.ndarray, o: np.ndarray) -> np.ndarray:
        log(f"solving {len(p)} positions with at most {cfg.exact_empties} empties")
        return exact_scores(p, o, cfg.out, workers=cfg.workers, progress=chunks)

    return solve


def fit_patterns(
    cfg: PatternsFitConfig, progress: Progress | None = None, log: Callable[[str], None] = print
) -> FitResult:
    """Run (or resume) a fit; writes the weights file and its card into ``cfg.out``."""
    cfg.check()
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    cache = out / f"samples-{cfg.data_key()}.npz"
    if cfg.labels:
        from bitflip.learn.eval_labels import load_labels

        lp, lo, score, game = load_labels(cfg.labels)
        keep = empties_many(lp, lo, FULL) >= cfg.min_empties
        samples = Samples(lp[keep], lo[keep], score[keep].astype(np.float32), game[keep])
        held = split_games(int(game.max(initial=0)) + 1, cfg.holdout, cfg.seed)
        files = [f"search labels in {cfg.labels}"]
        log(f"samples: {len(samples)} labelled positions from {cfg.labels}")
    elif cache.is_file():
        try:
            with np.load(cache) as z:
                samples = Samples(z["p"], z["o"], z["target"], z["game"])
                held = z["held"]
                files = [str(x) for x in z["files"]]
        except (ValueError, KeyError, OSError, EOFError) as exc:
            raise ValueError(f"{cache}: corrupt sample cache ({exc}); delete it") from exc
        log(f"samples: {len(samples)} positions from {cache}")
    else:
        games = load_games(cfg)
        solve = _exact_solver(cfg, progress, log) if cfg.exact_empties else None
        samples, bad = build_samples(games, cfg, solve)
        held = split_games(games.moves.shape[0], cfg.holdout, cfg.seed)
        files = games.files
        if bad:
            log(f"skipped {bad} games with an illegal move")
        np.savez(
            cache,
            p=samples.p,
            o=samples.o,
            target=samples.target,
            game=samples.game,
            held=held,
            files=np.array(files),
        )
        log(f"samples: {len(samples)} positions from {games.moves.shape[0]} games")
    is_held = held[samples.game]
    train = samples.subset(~is_held)
    test = samples.subset(is_held)
    if len(train) == 0 or len(test) == 0:
        raise ValueError("the split left no training or no held-out positions; use more games")

    phases = make_phase_map(cfg.phases)
    ckpt = out / f"checkpoint-{cfg.fit_key()}.npz"
    raw = initial_weights(cfg)
    start_epoch = 0
    history: list[float] = []
    if ckpt.is_file():
        try:
            with np.load(ckpt) as z:
                raw = z["raw"].copy()
                start_epoch = int(z["epoch"])
                history = [float(x) for x in z["history"]]
        except (ValueError, KeyError, OSError) as exc:
            raise ValueError(
                f"{ckpt}: corrupt checkpoint ({exc}); delete it to start over"
            ) from exc
        log(f"resuming after epoch {start_epoch} from {ckpt}")
    chunk = 200_000
    for epoch in range(start_epoch, cfg.epochs):
        rng = np.random.default_rng(cfg.seed * 1000 + epoch)
        order = rng.permutation(len(train))
        lr = cfg.learning_rate * cfg.decay**epoch
        err_sum = 0.0
        done = 0
        for part in _iter_chunks(order, chunk):
            err = _sgd_epoch(
                raw, phases, train.p, train.o, train.target, part, lr, cfg.neighbour_weight
            )
            err_sum += err * len(part)
            done += len(part)
            if progress:
                progress(done, len(order), f"epoch {epoch + 1}/{cfg.epochs}")
        pred = predict_raw(raw, phases, test.p, test.o)
        mae = float(np.abs(pred - test.target).mean())
        history.append(mae)
        log(
            f"epoch {epoch + 1}: train MAE {err_sum / len(order):.3f}, held-out MAE {mae:.3f} discs"
        )
        tmp = ckpt.with_suffix(".tmp.npz")
        np.savez(tmp, raw=raw, epoch=epoch + 1, history=np.array(history))
        tmp.replace(ckpt)

    pred = predict_raw(raw, phases, test.p, test.o)
    mae = float(np.abs(pred - test.target).mean())
    baseline = float(np.abs(test.target).mean())
    by_e = mae_by_empties(pred, test)
    n_games = int(held.shape[0])
    lineage: dict[str, object] = {
        "created": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "code": f"bitflip.learn.patterns_fit @ {git_revision(short=True) or 'unknown'}",
        "data": [Path(f).name for f in files],
        "games": n_games,
        "config": asdict(cfg),
        "history_holdout_mae": history,
    }
    metrics = {"holdout_mae": mae, "baseline_mae": baseline}
    metrics.update({f"holdout_mae_empties_{k}": v for k, v in by_e.items()})
    weights = PatternWeights(raw.astype(np.float32), phases, lineage, metrics)
    path = weights.save(out)
    result = FitResult(
        path,
        path.with_suffix(".md"),
        len(train),
        len(test),
        n_games - int(held.sum()),
        int(held.sum()),
        mae,
        baseline,
        by_e,
    )
    result.card_path.write_text(model_card(weights, result, cfg))
    return result


def model_card(weights: PatternWeights, r: FitResult, cfg: PatternsFitConfig) -> str:
    """A short Markdown card: data, config, held-out error."""
    rows = "\n".join(f"| {k} | {v:.2f} |" for k, v in r.mae_by_empties.items())
    cfg_lines = "\n".join(f"{k} = {json.dumps(v)}" for k, v in asdict(cfg).items())
    data = weights.lineage.get("data", [])
    data_list = data if isinstance(data, list) else []
    source = (
        f"the search labels in {cfg.labels} (positions of WTHOR games)"
        if cfg.labels
        else f"{len(data_list)} WTHOR files ({data_list[0] if data_list else '-'} .. "
        f"{data_list[-1] if data_list else '-'})"
    )
    return f"""# Pattern weights {r.weights_path.name}

Pattern-table evaluation (bitflip.eval.patterns, set `edax-like-v1`: edge+2X, 3x3 and 2x5
corners, rows 2-4, diagonals 4-8; all 8 orientations share a table; bias and mobility per
phase), {weights.n_phases} phases by number of empties.

- Created: {weights.lineage.get("created")} by {weights.lineage.get("code")}
- Data: {source}, {r.train_games + r.holdout_games} games; split by game:
  {r.train_games} games ({r.train_positions} positions) for training, {r.holdout_games} games
  ({r.holdout_positions} positions) held out.
- Target: {
        "the scores of the engine's own searches of the positions (bitflip.learn.eval_labels: "
        "midgame search, exact near the end)"
        if cfg.labels
        else "the WTHOR theoretical score (perfect play from the file's depth, 24 empties in the "
        "FFO base) down to that depth, then the final disc difference (throughout for files that "
        "store no depth)"
        if cfg.target == "theoretical"
        else "the final disc difference"
    }{
        f"; but positions with at most {cfg.exact_empties} empties: their perfect-play score "
        "(the engine's exact solver), and the positions before them that the theoretical score "
        "does not cover: their game's first such score"
        if cfg.exact_empties and not cfg.labels
        else ""
    }, from the side to move's view.
- Method: normalised LMS SGD, {cfg.epochs} epochs, learning rate {cfg.learning_rate} x
  {cfg.decay}^epoch, starting from {f"the weights {cfg.init}" if cfg.init else "zeros"}{
        f"; each position also trains the neighbouring phases at {cfg.neighbour_weight} of the step"
        if cfg.neighbour_weight
        else ""
    }.

## Held-out error

Mean absolute error **{r.holdout_mae:.2f} discs** (predicting 0 everywhere: {r.baseline_mae:.2f}).

| empties | MAE (discs) |
|---|---|
{rows}

## Config

```toml
{cfg_lines}
```
"""
