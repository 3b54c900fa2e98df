"""The directories of an AlphaZero run (:mod:`bitflip.learn.alphazero`) and their records.

::

    RUN/accepted/   0000.json, 0001.json ... -> az-<hash>.pt   the best net of each generation
    RUN/checkpoints/it0003.json -> az-<hash>.pt                the net trained in iteration 3
                                   (and its average with earlier ones: the candidate gated)
    RUN/gating/     it0003.json                                its match against the best net

Records are JSON written whole (:func:`write_json`, through :mod:`bitflip._atomic`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import torch

from bitflip._atomic import atomic_path, is_temporary, write_text
from bitflip.learn.az_config import RunConfig
from bitflip.nn.alphazero import AZNet
from bitflip.nn.checkpoint import load_az_model, save_model


def write_json(path: Path, obj: object) -> None:
    """Write ``obj`` as JSON whole: to a temporary name, then renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(obj, indent=1, sort_keys=True))


def _record_net(path: Path, key: str = "net") -> str:
    """The net file name that a generation or checkpoint record points to (``key``: the
    checkpoint's averaged candidate, falling back to its trained net)."""
    try:
        record = json.loads(path.read_text())
        name = record.get(key, record.get("net"))
    except (json.JSONDecodeError, AttributeError):
        name = None
    if not isinstance(name, str):
        raise ValueError(f"{path}: not a net record (no 'net' file name)")
    return name


class RunDir:
    """The directories of one run and what they say about its state."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.shards = self.root / "shards"
        self.checkpoints = self.root / "checkpoints"
        self.accepted = self.root / "accepted"
        self.gating = self.root / "gating"

    def generations(self) -> list[Path]:
        """Accepted generation records, oldest first (only those whose net file exists)."""
        out = []
        for j in sorted(self.accepted.glob("[0-9][0-9][0-9][0-9].json")):
            if (self.accepted / _record_net(j)).exists():
                out.append(j)
        return out

    def best_net(self) -> Path:
        gens = self.generations()
        if not gens:
            raise FileNotFoundError(f"{self.accepted}: no accepted net (run the loop to start one)")
        return self.accepted / _record_net(gens[-1])

    def shard_paths(self, iterations: range) -> list[Path]:
        """The finished self-play shards of these iterations, in order (none half-written)."""
        return [
            p
            for i in iterations
            for p in sorted(self.shards.glob(f"it{i:04d}-*.npz"))
            if not is_temporary(p)
        ]

    def candidate(self, iteration: int) -> Path | None:
        """The net that iteration ``iteration`` gates: its trained net, or the average of the
        last trained nets under ``train.average``."""
        j = self.checkpoints / f"it{iteration:04d}.json"
        if not j.exists():
            return None
        return self.checkpoints / _record_net(j, "average")

    def trained(self, iteration: int) -> Path | None:
        """The net that iteration ``iteration`` trained (the next one trains on from it)."""
        j = self.checkpoints / f"it{iteration:04d}.json"
        if not j.exists():
            return None
        return self.checkpoints / _record_net(j)

    def optimizer_state(self, iteration: int) -> Path:
        """Where iteration ``iteration`` keeps its optimiser's state (``train.keep_optimizer``;
        only the newest iteration's is kept)."""
        return self.checkpoints / f"opt-it{iteration:04d}.pt"

    def gated(self, iteration: int) -> dict[str, object] | None:
        j = self.gating / f"it{iteration:04d}.json"
        if not j.exists():
            return None
        decision = json.loads(j.read_text())
        if not isinstance(decision, dict):
            raise ValueError(f"{j}: not a gating record")
        return decision

    def iterations_done(self) -> int:
        """Iterations whose gating decision is written (the next one to run is this number)."""
        n = 0
        while (self.gating / f"it{n:04d}.json").exists():
            n += 1
        return n


def initial_net(cfg: RunConfig, run: RunDir) -> Path:
    """Generation 0, accepted once and for all: a copy of ``cfg.init_net`` (``builtin``: the net
    the package ships for the board size; a bare file name: that file of the package's data),
    or a freshly initialised net (seeded).

    A run whose directory is gone (a new machine) thus starts again from the last net the
    repository keeps instead of from nothing.
    """
    gens = run.generations()
    if gens:
        return run.best_net()
    if cfg.init_net:
        source = _init_source(cfg)
        path = run.accepted / source.name
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(path) as tmp:
                shutil.copyfile(source, tmp)
        write_json(run.accepted / "0000.json",
                   {"net": path.name, "iteration": -1, "from": str(source)})  # fmt: skip
        return path
    torch.manual_seed(cfg.seed)
    path = save_model(AZNet(cfg.net), run.accepted, lineage={"generation": 0, "parent": None})
    write_json(run.accepted / "0000.json", {"net": path.name, "iteration": -1})
    return path


def _init_source(cfg: RunConfig) -> Path:
    """The net file that ``cfg.init_net`` names, checked against the run's net config."""
    from bitflip.nn.agents import DATA_DIR, shipped_az_net

    source = shipped_az_net(cfg.net.size) if cfg.init_net == "builtin" else Path(cfg.init_net)
    if not source.exists() and (DATA_DIR / source).exists():
        source = DATA_DIR / source  # a net the package ships, by its file name
    if not source.exists():
        raise ValueError(f"run.init_net: no net file {source} (nor in {DATA_DIR})")
    config = load_az_model(source).config
    if config != cfg.net:
        raise ValueError(
            f"run.init_net: {source.name} is not the net that [net] describes "
            f"({config} against {cfg.net})"
        )
    return source
