"""What a pattern fit produced: its result, held-out error by empties, and its model card."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from bitflip.eval.patterns import MAX_EMPTIES
from bitflip.eval.weights import PatternWeights
from bitflip.learn.patterns_config import PatternsFitConfig
from bitflip.learn.patterns_data import Samples


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


def model_card(weights: PatternWeights, r: FitResult, cfg: PatternsFitConfig) -> str:
    """A short Markdown card: data, config, held-out error."""
    rows = "\n".join(f"| {k} | {v:.2f} |" for k, v in r.mae_by_empties.items())
    cfg_lines = "\n".join(f"{k} = {json.dumps(v)}" for k, v in asdict(cfg).items())
    data = weights.lineage.get("data", [])
    # The lineage lists the labels folder after the games' files; only .wtb files are games.
    names = [str(f) for f in data] if isinstance(data, list) else []
    wtb = [f for f in names if f.lower().endswith(".wtb")]
    games = (
        f"{len(wtb)} WTHOR file{'' if len(wtb) == 1 else 's'} "
        f"({wtb[0] if wtb else '-'} .. {wtb[-1] if wtb else '-'})"
    )
    labels = f"the search labels in {cfg.labels} (positions off the lines of WTHOR games)"
    if not cfg.labels:
        source = games
    elif cfg.with_games:
        source = f"{games} and {labels}"
    else:
        source = labels
    game_target = (
        "the WTHOR theoretical score (perfect play from the file's depth, 24 empties in the "
        "FFO base) down to that depth, then the final disc difference (throughout for files "
        "that store no depth)"
        if cfg.target == "theoretical"
        else "the final disc difference"
    )
    label_target = (
        "the scores of the engine's own searches of the positions (bitflip.learn.eval_labels: "
        "midgame search, exact near the end)"
    )
    if not cfg.labels:
        target = game_target
    elif cfg.with_games:
        target = f"for game positions {game_target}; for the labelled ones {label_target}"
    else:
        target = label_target
    return f"""# Pattern weights {r.weights_path.name}

Pattern-table evaluation (bitflip.eval.patterns, set `edax-like-v1`: edge+2X, 3x3 and 2x5
corners, rows 2-4, diagonals 4-8; all 8 orientations share a table; per phase a bias and
tables of each side's mobility and potential mobility and of the empties' parity),
{weights.n_phases} phases by number of empties.

- Created: {weights.lineage.get("created")} by {weights.lineage.get("code")}
- Data: {source}, {r.train_games + r.holdout_games} games; split by game:
  {r.train_games} games ({r.train_positions} positions) for training, {r.holdout_games} games
  ({r.holdout_positions} positions) held out.
- Target: {target}{
        f"; but positions with at most {cfg.exact_empties} empties: their perfect-play score "
        "(the engine's exact solver), and the positions before them that the theoretical score "
        "does not cover: their game's first such score"
        if cfg.exact_empties and (cfg.with_games or not cfg.labels)
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
