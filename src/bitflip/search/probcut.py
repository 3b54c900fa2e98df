"""Multi-ProbCut parameters: the table the midgame kernel reads, loaded from fitted files.

ProbCut (Buro) predicts the value ``v_d`` of a depth-``d`` search from a shallow search at
depth ``d'``: ``v_d = a * v_d' + b + e`` with ``e`` roughly normal of deviation ``sigma``. A
node whose shallow value is beyond ``(beta + t * sigma - b) / a`` is cut as failing high
(and likewise low), with confidence set by ``t`` (the level's selectivity). Depth 2 is
predicted by the static evaluation itself (``d' = 0``): a cut there costs no search at all.

The fitting lives in :mod:`bitflip.learn.probcut_fit` (``python -m bitflip.learn.probcut_fit``),
which writes ``src/bitflip/data/mpc-<eval>.json`` with how it was made; search only reads
those files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

import numpy as np

MAX_MPC_DEPTH = 24
MIN_MPC_DEPTH = 2
SIGMA = 3
"""The table's column of sigma at 0 empties: column ``SIGMA + e`` holds sigma at ``e`` empties
(a prediction's error grows as the game goes on and fewer squares are left)."""
TABLE_COLUMNS = SIGMA + 65


def shallow_depth(depth: int) -> int:
    """The depth of the shallow search that predicts a search of ``depth`` (as in Edax); depth
    2 is predicted by the static evaluation (shallow depth 0)."""
    return 2 * (depth // 4) + (depth & 1)


@dataclass(frozen=True)
class ProbCutFit:
    """``v_depth = a * v_shallow + b``, residual deviation ``sigma`` (eval units), or, with
    ``sigma_slope``, ``sigma + sigma_slope * (empties - empties_ref)`` (never below a quarter
    of ``sigma``)."""

    depth: int
    shallow: int
    a: float
    b: float
    sigma: float
    samples: int
    sigma_slope: float = 0.0
    empties_ref: float = 40.0

    def sigma_at(self, empties: np.ndarray) -> np.ndarray:
        """Sigma at each count of empties."""
        s = self.sigma + self.sigma_slope * (empties - self.empties_ref)
        return np.maximum(s, self.sigma / 4)


def table_from_fits(fits: list[ProbCutFit]) -> np.ndarray:
    """The float64 table the kernel reads, a row per depth: shallow depth, a, b, then sigma at
    0..64 empties (columns ``SIGMA`` on). A row of zeros (``a == 0``) is a depth without
    ProbCut."""
    table = np.zeros((MAX_MPC_DEPTH + 1, TABLE_COLUMNS), dtype=np.float64)
    empties = np.arange(65, dtype=np.float64)
    if not fits:
        return table
    by_depth = {f.depth: f for f in fits}
    deepest = max(by_depth)
    # Beyond the fitted depths: the deepest fit's a and b, and sigma extrapolated linearly
    # in depth (never shrinking), since the error of the prediction grows with the gap.
    ds = np.array(sorted(by_depth), dtype=np.float64)
    slope = float(np.polyfit(ds, [by_depth[int(d)].sigma for d in ds], 1)[0]) if len(ds) > 1 else 0
    for d in range(MIN_MPC_DEPTH, MAX_MPC_DEPTH + 1):
        if d in by_depth:
            f = by_depth[d]
            table[d, :SIGMA] = (shallow_depth(d), f.a, f.b)
            table[d, SIGMA:] = f.sigma_at(empties)
        elif d > deepest:
            f = by_depth[deepest]
            grown = f.sigma + max(slope, 0.0) * (d - deepest)
            table[d, :SIGMA] = (shallow_depth(d), f.a, f.b)
            table[d, SIGMA:] = replace(f, sigma=grown).sigma_at(empties)
    return table


def params_path(evaluation: str) -> Path:
    return Path(str(resources.files("bitflip") / "data" / f"mpc-{evaluation}.json"))


def load_fits(evaluation: str) -> list[ProbCutFit] | None:
    """The ProbCut fits (a line a depth) of an evaluation, or None when it has none."""
    path = params_path(evaluation)
    if not path.is_file():
        return None
    doc = json.loads(path.read_text())
    return [ProbCutFit(**f) for f in doc["fits"]]


def load_table(evaluation: str) -> np.ndarray | None:
    """The ProbCut table fitted for an evaluation, or None when it has none."""
    fits = load_fits(evaluation)
    return None if fits is None else table_from_fits(fits)
