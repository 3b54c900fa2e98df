"""Train a shipped AlphaZero net again from what its file says, and compare the two.

A net file's lineage holds the whole config of the run that trained it and the iteration that
made it (:func:`bitflip.learn.alphazero.train_step`); every random choice of a run is seeded
and a run on one thread is deterministic, so running that config to that iteration makes the
same net. ``bitflip train alphazero --reproduce NET`` does it (and resumes like any run).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bitflip.learn.az_config import RunConfig, config_from_dict
from bitflip.nn.checkpoint import load_az_model


@dataclass(frozen=True)
class Recipe:
    """How a net was made: its run's config and the iteration whose candidate it is."""

    config: RunConfig
    iteration: int


def recipe(net: str | Path) -> Recipe:
    """The run config and iteration recorded in ``net``'s lineage."""
    lineage = load_az_model(net).lineage
    config = lineage.get("config")
    iteration = lineage.get("iteration")
    if not isinstance(config, dict) or not isinstance(iteration, int):
        raise ValueError(f"{net}: its lineage has no run config and iteration to train it again")
    sections = ("net", "mcts", "selfplay", "train", "gate")
    data: dict[str, Any] = {k: v for k, v in config.items() if k in sections}
    data["run"] = {k: v for k, v in config.items() if k not in sections}
    return Recipe(config_from_dict(data, f"{net} (lineage)"), iteration)


def reproduction_config(net: str | Path, out: str | None = None) -> tuple[RunConfig, int]:
    """The config that trains ``net`` again in ``out`` (default ``runs/reproduce-<name>``),
    stopping after its iteration, and that iteration."""
    r = recipe(net)
    folder = out or f"runs/reproduce-{Path(net).stem}"
    return replace(r.config, dir=folder, iterations=r.iteration + 1), r.iteration


def weight_difference(a: str | Path, b: str | Path) -> float:
    """The largest absolute difference between two nets' weights (inf: other shapes)."""
    sa, sb = (load_az_model(p).model.state_dict() for p in (a, b))
    if sa.keys() != sb.keys() or any(sa[k].shape != sb[k].shape for k in sa):
        return float("inf")
    diffs = [float((sa[k].double() - sb[k].double()).abs().max()) for k in sa if sa[k].numel()]
    return max(diffs, default=0.0)
