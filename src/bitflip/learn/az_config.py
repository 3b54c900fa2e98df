"""Typed configuration of an AlphaZero run, read from a commented TOML file."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bitflip.nn.alphazero import AZNetConfig
from bitflip.search.mcts import MCTSConfig
from bitflip.tomlconfig import build, read_toml


@dataclass(frozen=True)
class SelfPlayConfig:
    """How self-play games are generated."""

    games_per_iteration: int = 256
    """Games played with the current best net in each iteration."""
    concurrent_games: int = 128
    """Games searched in lockstep (one shard each batch); bigger batches feed a GPU better."""
    temp_moves: int = 10
    """Moves per game chosen in proportion to visits (temperature 1); then the most visited.
    Ignored under ``mcts.root = 'gumbel'``, where the Gumbel noise picks the move played."""
    full_search_prob: float = 1.0
    """Playout cap randomisation (KataGo): the chance that a move gets the full ``mcts.sims``
    search and becomes a training position; the other moves get a ``cheap_sims`` search
    without noise and are not trained on. 1.0: every move searched fully (off)."""
    cheap_sims: int = 16
    """Simulations of the cheap searches (when ``full_search_prob`` < 1)."""
    exact_empties: int = 0
    """Positions with at most this many empty squares get the exact solver's result as their
    value (and score) target instead of the game's (0: off; e.g. 14 on 8x8, 10 on 6x6)."""
    exact_policy_empties: int = 0
    """Positions with at most this many empty squares and two or more moves get the exact
    solver's policy target instead of the search's: equal weight on every move that keeps the
    exact margin, none on the others (0: off; about 3 ms a position at 14 empties on 6x6).
    The net then learns which moves are perfect where the search alone cannot tell."""
    exact_leaf_empties: int = 0
    """Leaves of the self-play tree with at most this many empties get their exact value
    instead of the net's: +1 / 0 / -1 blended with the margin by ``train.value_margin``, as the
    value target is (0: off; costs a solve per new leaf position)."""
    workers: int = 1
    """Local processes producing shards in parallel (1: in this process)."""
    backend: str = "local"
    """'local' (processes on this machine) or 'ray' (workers on a Ray cluster)."""
    ray_address: str = ""
    """Ray cluster to join under backend 'ray' ('auto', 'ray://host:10001'); empty: start a
    local Ray instance with ``workers`` CPUs for the step and stop it afterwards."""


@dataclass(frozen=True)
class NetTrainConfig:
    """How a candidate net is trained from recent shards."""

    window: int = 4
    """Iterations of self-play shards that training samples from (the newest ones)."""
    steps: int = 400
    """Optimizer steps per iteration."""
    batch_size: int = 256
    """Positions per step."""
    lr: float = 1e-3
    """Adam learning rate."""
    weight_decay: float = 1e-4
    """L2 penalty (Adam's weight_decay)."""
    augment: bool = True
    """Train each position under a random one of the 8 board symmetries."""
    score_weight: float = 0.0
    """Weight of the score head's loss (MSE on final margin / squares); needs
    ``net.score_head = true`` (0: not trained)."""
    value_margin: float = 0.0
    """Blend of the value target: ``(1 - x) * result + x * margin / squares`` (0: the result
    alone, AlphaZero's target)."""
    average: int = 1
    """Gate the weight average of the nets trained in the last ``average`` iterations (SWA)
    instead of the newest one; training goes on from the newest, not the average (1: off).
    Consecutive candidates of an 8x8 run scatter around a plateau; their average played as
    well as the best of them (``benchmarks/az_curve.md``)."""
    keep_optimizer: bool = False
    """Each iteration's Adam goes on from the moment estimates of the iteration before (kept in
    ``checkpoints/``) instead of starting afresh: one optimiser for the whole run, as in
    AlphaZero's own training (False: a fresh Adam every iteration, as the shipped nets were
    trained)."""
    backfill_exact: bool = False
    """Positions before a game's first exactly solved one (``selfplay.exact_empties``) take its
    exact margin as their game's result: the game as if finished perfectly from there, so the
    opening learns from perfect endings instead of the net's noisy ones (False: the result
    played)."""


@dataclass(frozen=True)
class GateConfig:
    """How a candidate is accepted or rejected against the current best net."""

    rule: str = "sprt"
    """'sprt': a sequential test over Elo bounds, played in rounds of ``pairs`` pairs until it
    decides or ``max_games`` are played (undecided there: rejected); 'score': one match of
    ``pairs`` pairs, accepted when the score is >= threshold; 'report': the report's rule, at
    least 60% of the decisive games won; 'always': accept every candidate."""
    pairs: int = 20
    """Pairs of games (colours swapped) from distinct random openings: a round of the test
    under 'sprt', the whole match under the other rules."""
    opening_plies: int = 4
    """Random plies played before the nets take over, so that the games differ."""
    elo0: float = 0.0
    """Under 'sprt': H0, the candidate is this much better than the best net (reject)."""
    elo1: float = 40.0
    """Under 'sprt': H1, the candidate is this much better (accept); the test needs fewer games
    the farther apart elo0 and elo1 are."""
    alpha: float = 0.05
    """Under 'sprt': the chance of accepting a candidate that is only elo0 better."""
    beta: float = 0.05
    """Under 'sprt': the chance of rejecting a candidate that is elo1 better."""
    max_games: int = 200
    """Under 'sprt': the cap on games; a test undecided there rejects the candidate."""
    threshold: float = 0.55
    """Points per game needed under rule 'score' (draws count half)."""
    sims: int = 0
    """Simulations per move in gating games (0: same as self-play)."""
    every: int = 1
    """Gate every ``every``-th iteration's candidate only (iterations ``every - 1``,
    ``2 * every - 1`` ...); the others only self-play and train, so more of the run's time goes
    to new games (1: gate every iteration)."""


@dataclass(frozen=True)
class RunConfig:
    """Everything one AlphaZero run needs."""

    dir: str = "runs/az"
    """Run directory: shards/, checkpoints/, accepted/ and gating/ live in it."""
    iterations: int = 10
    """Iterations of self-play -> train -> gate that ``bitflip train alphazero`` runs."""
    seed: int = 0
    """Seed of every random choice (noise, temperature, openings, batches)."""
    device: str = "auto"
    """'auto' (CUDA when present), 'cpu' or 'cuda'."""
    init_net: str = ""
    """Generation 0 of a new run directory: '' a fresh net (seeded); 'builtin' the net the
    package ships for ``net.size``; a net file, or the name of one in the package's data
    (``az-1ed22e5ff532.pt``). It must be the net ``[net]`` describes. A run that
    already has accepted nets goes on from its own last one."""
    net: AZNetConfig = field(default_factory=AZNetConfig)
    mcts: MCTSConfig = field(default_factory=MCTSConfig)
    selfplay: SelfPlayConfig = field(default_factory=SelfPlayConfig)
    train: NetTrainConfig = field(default_factory=NetTrainConfig)
    gate: GateConfig = field(default_factory=GateConfig)

    def __post_init__(self) -> None:
        gate = self.gate
        if gate.rule not in ("sprt", "score", "report", "always"):
            raise ValueError(f"gate.rule must be sprt, score, report or always, not {gate.rule!r}")
        if gate.pairs < 1 or gate.max_games < 2 * gate.pairs:
            raise ValueError(
                f"gate.pairs must be >= 1 and gate.max_games >= 2 * pairs, not {gate.pairs} "
                f"and {gate.max_games}"
            )
        if gate.elo1 <= gate.elo0 or not (0 < gate.alpha < 1 and 0 < gate.beta < 1):
            raise ValueError(
                f"gate needs elo1 > elo0 and alpha, beta in (0, 1), not elo0 {gate.elo0}, "
                f"elo1 {gate.elo1}, alpha {gate.alpha}, beta {gate.beta}"
            )
        if gate.every < 1:
            raise ValueError(f"gate.every must be >= 1 (1: every iteration), not {gate.every}")
        sp, tc = self.selfplay, self.train
        if not 0.0 < sp.full_search_prob <= 1.0:
            raise ValueError(
                f"selfplay.full_search_prob must be in (0, 1], not {sp.full_search_prob}"
            )
        if sp.cheap_sims < 1 or min(sp.exact_empties, sp.exact_leaf_empties) < 0:
            raise ValueError("selfplay.cheap_sims must be >= 1 and the exact empties >= 0")
        if not 0 <= sp.exact_policy_empties <= sp.exact_empties:
            raise ValueError(
                f"selfplay.exact_policy_empties must be in [0, exact_empties = "
                f"{sp.exact_empties}], not {sp.exact_policy_empties}: a perfect move needs its "
                f"position's exact value as the value target too"
            )
        if tc.score_weight > 0 and not self.net.score_head:
            raise ValueError("train.score_weight > 0 needs a net with score_head = true")
        if tc.backfill_exact and sp.exact_empties <= 0:
            raise ValueError("train.backfill_exact needs selfplay.exact_empties > 0")
        if tc.average < 1:
            raise ValueError(f"train.average must be >= 1 (1: off), not {tc.average}")
        if not 0.0 <= tc.value_margin <= 1.0:
            raise ValueError(f"train.value_margin must be in [0, 1], not {tc.value_margin}")
        if self.mcts.value_margin not in (0.0, tc.value_margin):
            raise ValueError(
                f"mcts.value_margin must be 0 (the old +1 / -1 ends) or train.value_margin "
                f"({tc.value_margin}), not {self.mcts.value_margin}"
            )
        if self.selfplay.backend not in ("local", "ray"):
            raise ValueError(
                f"selfplay.backend must be local or ray, not {self.selfplay.backend!r}"
            )


_SECTIONS: dict[str, type] = {
    "net": AZNetConfig,
    "mcts": MCTSConfig,
    "selfplay": SelfPlayConfig,
    "train": NetTrainConfig,
    "gate": GateConfig,
}


def config_from_dict(data: dict[str, Any], where: str = "config") -> RunConfig:
    """A RunConfig from parsed TOML: top-level keys under [run], one table per section."""
    data = dict(data)
    run = dict(data.pop("run", {}))
    for name, cls in _SECTIONS.items():
        run[name] = build(cls, dict(data.pop(name, {})), f"{where} [{name}]")
    if data:
        raise ValueError(f"{where}: unknown sections {sorted(data)}")
    return build(RunConfig, run, f"{where} [run]")


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> RunConfig:
    """Read a TOML run config; ``overrides`` replace [run] keys (e.g. dir, iterations)."""
    data = read_toml(path)
    if overrides:
        data.setdefault("run", {}).update({k: v for k, v in overrides.items() if v is not None})
    return config_from_dict(data, str(path))
