"""One entry point for every static evaluation, callable from numba search kernels.

Search kernels call ``evaluate(p, o, mask, kind, weights)``: ``kind`` picks the evaluation and
``weights`` is its flat float32 parameter vector, so one compiled search serves every
evaluation. Scores are integers in eval units (``EVAL_SCALE`` per disc), from the side to
move's view.

Kinds: ``positional`` (disc squares + mobility), ``features`` (hand-weighted classic features,
phase-dependent), ``firebrand`` (the FIREBRAND report's 8 features with time weights),
``patterns`` (Logistello/Edax-style pattern tables fitted on WTHOR games; 8x8 only).
``load_evaluation("default")`` gives the strongest one available.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bitflip.core.bitboard import legal_moves, popcount
from bitflip.core.jit import kernel
from bitflip.eval.features import default_feature_weights, features_score
from bitflip.eval.firebrand import FirebrandWeights, firebrand_score, hand_firebrand_weights
from bitflip.eval.pattern_indices import indexed_patterns_score
from bitflip.eval.patterns import patterns_score
from bitflip.eval.positional import TABLES, disc_square_score
from bitflip.eval.weights import PatternWeights, shipped_firebrand_file, shipped_pattern_file

EVAL_SCALE = 100
"""Eval units per disc of final disc difference."""

KIND_POSITIONAL = 0
KIND_FEATURES = 1
KIND_FIREBRAND = 2
KIND_PATTERNS = 3

KINDS: dict[str, int] = {
    "positional": KIND_POSITIONAL,
    "features": KIND_FEATURES,
    "firebrand": KIND_FIREBRAND,
    "patterns": KIND_PATTERNS,
}
"""Evaluation names and their kind numbers (``load_evaluation`` also takes "default" or a path)."""


@dataclass(frozen=True)
class Evaluation:
    """A loaded evaluation: what ``evaluate`` needs, plus a name for logs and files."""

    name: str
    kind: int
    weights: np.ndarray
    """The flat parameter vector, ``float32[::1]`` (any float array given is converted)."""
    size: int = 8
    source: str = ""
    """The weights file it came from ("" for built-in weights)."""

    def __post_init__(self) -> None:
        # float32 halves the tables a search reads at every leaf: a phase of the pattern tables
        # is 0.67 MB instead of 1.34, so it stays in a 1 MB L2 cache (the default level's games
        # in 0.85x the time there; benchmarks/RESULTS-ntest.md, step 23). Sums stay float64.
        object.__setattr__(self, "weights", np.ascontiguousarray(self.weights, dtype=np.float32))


@kernel()
def _positional(p: np.uint64, o: np.uint64, mask: np.uint64, w: np.ndarray) -> int:
    # w[0:64]: disc-square table; w[64]: weight of one move of mobility; w[65]: overall scale.
    mob = popcount(legal_moves(p, o, mask)) - popcount(legal_moves(o, p, mask))
    return int((disc_square_score(p, o, w) + w[64] * mob) * w[65])


@kernel()
def evaluate(p: np.uint64, o: np.uint64, mask: np.uint64, kind: int, weights: np.ndarray) -> int:
    """Static score of (p, o) in eval units, side to move's view."""
    if kind == KIND_POSITIONAL:
        return _positional(p, o, mask, weights)
    if kind == KIND_FEATURES:
        return round(features_score(p, o, mask, weights) * EVAL_SCALE)
    if kind == KIND_FIREBRAND:
        return round(firebrand_score(p, o, mask, weights) * EVAL_SCALE)
    if kind == KIND_PATTERNS:
        return round(patterns_score(p, o, mask, weights) * EVAL_SCALE)
    return 0


@kernel()
def evaluate_indexed(
    p: np.uint64,
    o: np.uint64,
    mask: np.uint64,
    kind: int,
    weights: np.ndarray,
    rows: np.ndarray,
    ply: int,
    moves: np.uint64,
) -> int:
    """:func:`evaluate`, reading the pattern indices a search keeps up to date in ``rows[ply]``
    (see :mod:`bitflip.eval.pattern_indices`) instead of gathering them; ``moves`` are the side
    to move's legal moves, which the search has already made."""
    if kind == KIND_PATTERNS:
        return round(indexed_patterns_score(p, o, mask, weights, rows, ply, moves) * EVAL_SCALE)
    return evaluate(p, o, mask, kind, weights)


def positional_evaluation(size: int = 8) -> Evaluation:
    w = np.zeros(66, dtype=np.float64)
    w[:64] = TABLES[size]
    w[64] = 5.0
    w[65] = 0.1  # a corner (100) is worth about 10 discs
    return Evaluation("positional", KIND_POSITIONAL, w, size)


def features_evaluation(size: int = 8) -> Evaluation:
    """The hand-weighted classic features (any board size)."""
    return Evaluation("features", KIND_FEATURES, default_feature_weights(), size)


def firebrand_evaluation(size: int = 8, path: str | Path | None = None) -> Evaluation:
    """FIREBRAND with weights from ``path``, else the shipped file, else hand weights."""
    src = Path(path) if path is not None else shipped_firebrand_file()
    weights = FirebrandWeights.load(src) if src is not None else hand_firebrand_weights()
    return Evaluation("firebrand", KIND_FIREBRAND, weights.vector(), size, str(src or ""))


def patterns_evaluation(size: int = 8, path: str | Path | None = None) -> Evaluation:
    """Pattern tables from ``path`` or the shipped file (8x8 only; raises if there are none)."""
    if size != 8:
        raise ValueError(f"pattern evaluation exists for 8x8 only, not {size}x{size}")
    src = Path(path) if path is not None else shipped_pattern_file()
    if src is None:
        raise ValueError(
            "no pattern weights are shipped; fit them with "
            "`bitflip train patterns --config configs/patterns.toml`"
        )
    return Evaluation("patterns", KIND_PATTERNS, PatternWeights.load(src).vector(), size, str(src))


def _load_file(path: Path, size: int) -> Evaluation:
    if not path.is_file():
        raise OSError(f"evaluation weights file {path} does not exist")
    if path.suffix == ".npz":
        return patterns_evaluation(size, path)
    if path.suffix == ".json":
        try:
            fmt = json.loads(path.read_text()).get("format")
        except (json.JSONDecodeError, AttributeError) as exc:
            raise ValueError(f"{path}: not an evaluation weights file ({exc})") from exc
        if fmt == "bitflip-firebrand":
            return firebrand_evaluation(size, path)
        raise ValueError(f"{path}: unknown weights format {fmt!r}")
    raise ValueError(f"{path}: weights files are .npz (patterns) or .json (firebrand)")


def load_evaluation(name: str = "default", size: int = 8) -> Evaluation:
    """An evaluation by name ("default", "positional", "features", "firebrand", "patterns")
    or by the path of a weights file.

    "default" is the fitted patterns on 8x8 when weights are shipped, else "features". Other
    board sizes have no pattern weights, so "patterns" falls back to "features" there.
    """
    if name == "default":
        if size == 8 and shipped_pattern_file() is not None:
            return patterns_evaluation(size)
        return features_evaluation(size)
    if name == "positional":
        return positional_evaluation(size)
    if name == "features":
        return features_evaluation(size)
    if name == "firebrand":
        return firebrand_evaluation(size)
    if name == "patterns":
        return patterns_evaluation(size) if size == 8 else features_evaluation(size)
    if "/" in name or name.endswith((".npz", ".json")):
        return _load_file(Path(name), size)
    raise ValueError(
        f"unknown evaluation {name!r}; known: default, {', '.join(KINDS)} "
        "or the path of a weights file"
    )
