"""The settings of a pattern fit (:mod:`bitflip.learn.patterns_fit`), read from
``configs/patterns.toml``, and the hashes that name its sample cache and checkpoints."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bitflip.eval.patterns import phase_map as make_phase_map
from bitflip.tomlconfig import read_table


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
    with_games: bool = False
    """With ``labels``: fit on the WTHOR games' positions too (the labels then add the
    positions games do not reach; their source games are split with the same seed)."""
    init: str = ""
    """Weights to start from: a weights file, or "default" for the shipped ones ("": zeros)."""

    @classmethod
    def from_toml(cls, path: str | Path) -> PatternsFitConfig:
        """Read the ``[patterns]`` table of a config file (errors name the key and the file)."""
        return read_table(path, "patterns", cls)

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
        """Hash of the settings that decide the games' samples (the name of their cache, which
        fits with and without labels share)."""
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
        )
        text = json.dumps({k: getattr(self, k) for k in keys}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def fit_key(self) -> str:
        """Hash of the settings a checkpoint depends on: not ``epochs`` (a finished run goes on
        when given more) nor ``out``."""
        d = {k: v for k, v in asdict(self).items() if k not in ("epochs", "out", "workers")}
        return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:12]
