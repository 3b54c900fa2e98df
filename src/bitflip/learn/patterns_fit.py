"""Fit the pattern evaluation by regression on positions of WTHOR games (or search labels).

The samples and their split by game come from :mod:`bitflip.learn.patterns_data`. The fit is
normalised least-mean-squares SGD in numba over the raw pattern tables (all 8 orientations
share a table), one set per phase; after each epoch a checkpoint is written, so a killed run
resumes where it stopped. The result is a weights file with its card
(:mod:`bitflip.learn.patterns_card`).

Use ``bitflip train patterns --config configs/patterns.toml``.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from bitflip._atomic import atomic_path
from bitflip._npz import read_npz
from bitflip.core.bitboard import FULL, legal_moves, popcount
from bitflip.eval.patterns import (
    FEATURE_OFFSETS,
    FEATURES,
    LAYOUT,
    ORIENT_LEN,
    RAW_FEATURES,
    feature_values,
    orientation_indices,
)
from bitflip.eval.patterns import phase_map as make_phase_map
from bitflip.eval.weights import PatternWeights, shipped_pattern_file
from bitflip.learn.patterns_card import FitResult, mae_by_empties, model_card
from bitflip.learn.patterns_config import PatternsFitConfig
from bitflip.learn.patterns_data import FitData, Progress, Samples, fit_data
from bitflip.learn.runinfo import git_revision

_CHUNK = 200_000
"""Positions per call of the SGD kernel (between two progress reports)."""


@njit(cache=True)
def _predict_one(
    raw: np.ndarray, phases: np.ndarray, a: np.uint64, b: np.uint64, idx: np.ndarray
) -> tuple[float, int]:
    """(value in discs, phase) of one position; ``idx`` gets the raw entries it reads: every
    orientation's pattern entry, then one entry of each feature table."""
    phase = phases[64 - popcount(a | b)]
    block = raw[phase]
    orientation_indices(a, b, idx)
    n_or = ORIENT_LEN.shape[0]
    f = feature_values(a, b, FULL, legal_moves(a, b, FULL), legal_moves(b, a, FULL))
    for k in range(len(f)):
        idx[n_or + k] = RAW_FEATURES + FEATURE_OFFSETS[k] + f[k]
    s = block[0]
    for j in range(idx.shape[0]):
        s += block[idx[j]]
    return s, phase


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
    n_in = ORIENT_LEN.shape[0] + len(FEATURES)
    idx = np.zeros(n_in, dtype=np.int64)
    seen = np.zeros(raw.shape[1], dtype=np.int64)
    total = 0.0
    for k in range(order.shape[0]):
        i = order[k]
        pred, phase = _predict_one(raw, phases, p[i], o[i], idx)
        total += abs(target[i] - pred)
        # Normalised LMS: the step is divided by the squared norm of the input (the bias is
        # one input of value 1; a table entry read by c lookups at once is one of value c).
        norm = 1.0
        for j in range(n_in):
            seen[idx[j]] += 1
            norm += 2.0 * seen[idx[j]] - 1.0
        for j in range(n_in):
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
                guess = block[0]
                for j in range(n_in):
                    guess += block[idx[j]]
            step = (1.0 if d == 0 else neighbour_weight) * lr * (target[i] - guess) / norm
            block[0] += step
            for j in range(n_in):
                block[idx[j]] += step
    return float(total / max(order.shape[0], 1))


@njit(cache=True)
def predict_raw(raw: np.ndarray, phases: np.ndarray, p: np.ndarray, o: np.ndarray) -> np.ndarray:
    """Pattern values (discs) of many positions from raw weights."""
    idx = np.zeros(ORIENT_LEN.shape[0] + len(FEATURES), dtype=np.int64)
    out = np.zeros(p.shape[0], dtype=np.float64)
    for i in range(p.shape[0]):
        out[i] = _predict_one(raw, phases, p[i], o[i], idx)[0]
    return out


def initial_weights(cfg: PatternsFitConfig) -> np.ndarray:
    """The raw weights a fit starts from: zeros, or ``cfg.init``'s (same phases)."""
    if not cfg.init:
        return np.zeros((cfg.phases, LAYOUT.raw_stride), dtype=np.float64)
    path = shipped_pattern_file() if cfg.init == "default" else Path(cfg.init)
    if path is None:
        raise OSError("init = 'default' but no pattern weights are shipped")
    if not path.is_file():
        raise OSError(f"init weights {path} do not exist")
    start = PatternWeights.load(path)
    if not np.array_equal(start.phases, make_phase_map(cfg.phases)):
        raise ValueError(f"{path}: its phases differ from phases = {cfg.phases}")
    return start.raw.astype(np.float64)


def _iter_chunks(order: np.ndarray, size: int) -> Iterable[np.ndarray]:
    for start in range(0, order.shape[0], size):
        yield order[start : start + size]


@dataclass
class _Checkpoint:
    """Where a fit stands: the weights, the epochs done and the held-out MAE after each."""

    raw: np.ndarray
    epoch: int = 0
    history: list[float] = field(default_factory=list)

    @classmethod
    def resume(cls, cfg: PatternsFitConfig, path: Path, log: Callable[[str], None]) -> _Checkpoint:
        """The checkpoint at ``path`` if there is one, else a start from the initial weights."""
        start = cls(initial_weights(cfg))
        if not path.is_file():
            return start
        advice = "delete it to start over"
        z = read_npz(path, "fit checkpoint", ("raw", "epoch", "history"), advice=advice)
        start = cls(z["raw"], int(z["epoch"]), [float(x) for x in z["history"]])
        log(f"resuming after epoch {start.epoch} from {path}")
        return start

    def save(self, path: Path) -> None:
        """Write the checkpoint whole (a temporary file renamed)."""
        with atomic_path(path, ".npz") as tmp:
            np.savez(tmp, raw=self.raw, epoch=self.epoch, history=np.array(self.history))


def fit_patterns(
    cfg: PatternsFitConfig, progress: Progress | None = None, log: Callable[[str], None] = print
) -> FitResult:
    """Run (or resume) a fit; writes the weights file and its card into ``cfg.out``."""
    cfg.check()
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    data = fit_data(cfg, progress, log)
    phases = make_phase_map(cfg.phases)
    start = {"": "zeros", "default": "the shipped weights"}.get(cfg.init, cfg.init)
    for first, last in untrained_empties(phases, data.train):
        log(
            f"warning: no training position has {first}-{last} empties: the weight sets there "
            f"keep their start ({start}) but for what neighbour_weight passes on from the "
            "phases beside them, and a search reads them in every game; add positions there "
            "(with_games = true, or labels with a lower min_empties)"
        )
    ckpt = out / f"checkpoint-{cfg.fit_key()}.npz"
    state = _Checkpoint.resume(cfg, ckpt, log)
    while state.epoch < cfg.epochs:
        _train_epoch(cfg, state, phases, data, progress, log)
        state.save(ckpt)
    return _write_result(cfg, state, phases, data)


def untrained_empties(phases: np.ndarray, train: Samples) -> list[tuple[int, int]]:
    """Runs of empties (first, last) whose weight set no training position belongs to.

    A fit on search labels alone (made at 14-56 empties) left the sets of 0-12 empties at zero
    but for their neighbour's share: the evaluation then plays the endgame blind (11.5% at
    depth 4 against the shipped weights, benchmarks/RESULTS-ntest.md step 29)."""
    counts = np.bincount(phases[train.empties()], minlength=int(phases.max()) + 1)
    empty = counts[phases] == 0
    runs: list[tuple[int, int]] = []
    for e in np.flatnonzero(empty).tolist():
        if runs and runs[-1][1] == e - 1:
            runs[-1] = (runs[-1][0], e)
        else:
            runs.append((e, e))
    return runs


def _held_out(raw: np.ndarray, phases: np.ndarray, test: Samples) -> tuple[np.ndarray, float]:
    """Predictions on the held-out samples and their mean absolute error (discs)."""
    pred = predict_raw(raw, phases, test.p, test.o)
    return pred, float(np.abs(pred - test.target).mean())


def _train_epoch(
    cfg: PatternsFitConfig,
    state: _Checkpoint,
    phases: np.ndarray,
    data: FitData,
    progress: Progress | None,
    log: Callable[[str], None],
) -> None:
    """One pass over the training samples in a seeded order; records the held-out MAE."""
    epoch, train = state.epoch, data.train
    rng = np.random.default_rng(cfg.seed * 1000 + epoch)
    order = rng.permutation(len(train))
    lr = cfg.learning_rate * cfg.decay**epoch
    err_sum = 0.0
    done = 0
    for part in _iter_chunks(order, _CHUNK):
        err = _sgd_epoch(
            state.raw, phases, train.p, train.o, train.target, part, lr, cfg.neighbour_weight
        )
        err_sum += err * len(part)
        done += len(part)
        if progress:
            progress(done, len(order), f"epoch {epoch + 1}/{cfg.epochs}")
    mae = _held_out(state.raw, phases, data.test)[1]
    state.history.append(mae)
    state.epoch = epoch + 1
    log(f"epoch {epoch + 1}: train MAE {err_sum / len(order):.3f}, held-out MAE {mae:.3f} discs")


def _write_result(
    cfg: PatternsFitConfig, state: _Checkpoint, phases: np.ndarray, data: FitData
) -> FitResult:
    """Measure the fitted weights on the held-out games; write them and their card."""
    pred, mae = _held_out(state.raw, phases, data.test)
    baseline = float(np.abs(data.test.target).mean())
    by_e = mae_by_empties(pred, data.test)
    n_games = int(data.held.shape[0])
    lineage: dict[str, object] = {
        "created": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "code": f"bitflip.learn.patterns_fit @ {git_revision(short=True) or 'unknown'}",
        "data": [Path(f).name for f in data.files],
        "games": n_games,
        "config": asdict(cfg),
        "history_holdout_mae": state.history,
    }
    metrics = {"holdout_mae": mae, "baseline_mae": baseline}
    metrics.update({f"holdout_mae_empties_{k}": v for k, v in by_e.items()})
    weights = PatternWeights(state.raw.astype(np.float32), phases, lineage, metrics)
    path = weights.save(cfg.out)
    n_held = int(data.held.sum())
    result = FitResult(
        path,
        path.with_suffix(".md"),
        len(data.train),
        len(data.test),
        n_games - n_held,
        n_held,
        mae,
        baseline,
        by_e,
    )
    result.card_path.write_text(model_card(weights, result, cfg))
    return result
