"""Batched PUCT search over many games: the Python driver of :mod:`.tree`.

Each round collects the pending leaves of every tree into one batch, calls the
:class:`PolicyValueFn` once, and backs the results up. No torch here: a policy-value function is
anything with an ``evaluate`` method (a network in :mod:`bitflip.nn.policy_value`, random
rollouts in :mod:`.rollout`). "Evaluation" without more words means the static evaluation of
:mod:`bitflip.eval`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from bitflip.core import parallel
from bitflip.core.geometry import board_mask
from bitflip.search.mcts import tree as t

NUM_MOVES = 65
"""Policy columns: squares 0-63 in 8x8 numbering (a1 = 0), then PASS = 64."""


@runtime_checkable
class PolicyValueFn(Protocol):
    """Evaluates a batch of positions for the search (lc0's AddInput + ComputeBlocking).

    ``evaluate(p, o)`` takes two uint64 arrays of shape (B,), the side to move's discs and the
    opponent's, and returns ``(policy, value)``: float32 arrays of shape (B, 65) and (B,).
    ``policy`` holds non-negative prior weights per move (squares in 8x8 numbering, PASS = 64);
    the search masks illegal moves and renormalises, so they need not sum to 1. ``value`` is the
    expected result in [-1, 1] for the side to move.
    """

    size: int

    def evaluate(self, p: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...


@dataclass(frozen=True)
class MCTSConfig:
    """Search parameters (AlphaZero defaults where the paper gives them)."""

    sims: int = 100
    """Completed simulations per move (leaf evaluations and terminal visits)."""
    cpuct: float = 1.5
    """Exploration constant of PUCT."""
    leaves_per_game: int = 1
    """Descents per tree per round, spread by virtual loss (more: bigger batches per game)."""
    virtual_loss: float = 1.0
    """Visits counted as losses on a path while its leaf waits for evaluation."""
    fpu: float = 0.0
    """Value assumed for unvisited moves; with ``fpu_parent``, how far below the net's value of
    the position they leave."""
    fpu_parent: bool = False
    """Unvisited moves are worth the net's value of their position minus ``fpu`` (Leela Chess
    Zero, KataGo) instead of the constant ``fpu``."""
    dirichlet_alpha: float = 0.5
    """Root noise concentration (AlphaZero: 0.3 chess, 0.03 Go; ~10 / typical move count)."""
    dirichlet_eps: float = 0.25
    """Weight of the root noise when noise is on (self-play); 0 turns it off."""
    root: str = "puct"
    """'puct': PUCT at the root too, ``sims`` simulations counting the root's evaluation;
    'gumbel': Gumbel top-k sampling and sequential halving of ``sims`` visits among the root's
    moves, PUCT below them (:mod:`.gumbel`; Danihelka et al. 2022)."""
    gumbel_m: int = 16
    """Root moves sampled (Gumbel top-k) and halved under root 'gumbel'."""
    gumbel_c_visit: float = 50.0
    """c_visit of sigma(q) = (c_visit + max_b N(b)) * c_scale * q under root 'gumbel'."""
    gumbel_c_scale: float = 1.0
    """c_scale of sigma(q), with q mapped from [-1, 1] to [0, 1], under root 'gumbel'."""
    value_margin: float = 0.0
    """Finished games in the tree are worth ``(1 - x) * result + x * margin / squares``: set it
    to the net's value target (an AlphaZero run's ``train.value_margin``), else the search
    weighs the net's leaves and the game's ends on two scales (0: +1 / 0 / -1, AlphaZero's)."""
    solver: bool = False
    """Score bounds proved from the finished games the tree reaches (:mod:`.tree`): solved
    positions are backed up with their exact value, moves proved worse are not searched again
    and never played. No solver is called; the simulations are the same."""

    def __post_init__(self) -> None:
        if self.root not in ("puct", "gumbel"):
            raise ValueError(f"root must be puct or gumbel, not {self.root!r}")
        if self.gumbel_m < 1:
            raise ValueError(f"gumbel_m must be >= 1, not {self.gumbel_m}")
        if self.sims < 1:
            raise ValueError(f"sims must be >= 1, not {self.sims}")
        if self.leaves_per_game < 1:
            raise ValueError(f"leaves_per_game must be >= 1, not {self.leaves_per_game}")
        if self.cpuct <= 0:
            raise ValueError(f"cpuct must be > 0, not {self.cpuct}")
        if not 0.0 <= self.value_margin <= 1.0:
            raise ValueError(f"value_margin must be in [0, 1], not {self.value_margin}")


@dataclass
class SearchOutput:
    """Root statistics of one batched search: visits per move and the root value per game."""

    visits: np.ndarray
    """(G, 65) float32 visit counts."""
    value: np.ndarray
    """(G,) mean backed-up value at the root, for its side to move."""
    evaluations: int
    """Positions sent to the policy-value function."""
    batches: int
    """PolicyValueFn calls."""
    policy: np.ndarray | None = None
    """(G, 65) the search's policy training target when it is not the visit distribution
    (the Gumbel root's improved policy); None: ``visits`` normalised."""

    def target(self) -> np.ndarray:
        """(G, 65) the policy training target of each searched row (zeros where not searched)."""
        if self.policy is not None:
            return self.policy
        total = self.visits.sum(axis=1, keepdims=True)
        return np.asarray(self.visits / np.maximum(total, 1e-12), np.float32)


class BatchedSearch(ABC):
    """A search over up to ``num_games`` positions at once, one policy-value batch a round.

    What :func:`~bitflip.search.mcts.games.play_games` drives: :class:`BatchedMCTS` (PUCT),
    :class:`~bitflip.search.mcts.gumbel.GumbelMCTS` (the Gumbel root over PUCT trees it owns)
    and self-play's searcher, which holds two of these.

    Args:
        policy_value: priors and values of leaf batches; its ``size`` is the board size.
        num_games: positions one ``search`` takes at most.
        config: the search parameters.
        seed: seeds the search's own random choices (root noise, Gumbel variables).
    """

    def __init__(
        self, policy_value: PolicyValueFn, num_games: int, config: MCTSConfig, *, seed: int = 0
    ) -> None:
        self.policy_value = policy_value
        self.num_games = num_games
        self.config = config
        self.size = policy_value.size
        self.mask = board_mask(self.size)
        self.rng = np.random.default_rng(seed)

    def search(
        self,
        p: np.ndarray,
        o: np.ndarray,
        active: np.ndarray | None = None,
        *,
        noise: bool = False,
    ) -> SearchOutput:
        """Search every active position ``(p[g], o[g])`` from fresh trees.

        Args:
            p: uint64 (G,) discs of the side to move; G <= num_games.
            o: uint64 (G,) discs of the opponent.
            active: bool (G,) which games to search (default all); finished games must be off.
            noise: root exploration noise (self-play).
        """
        g_count = p.shape[0]
        if g_count > self.num_games:
            raise ValueError(f"{g_count} positions but the search holds {self.num_games} games")
        act = np.ones(g_count, np.bool_) if active is None else np.asarray(active, np.bool_)
        return self._search(p, o, act, noise)

    @abstractmethod
    def _search(
        self, p: np.ndarray, o: np.ndarray, active: np.ndarray, noise: bool
    ) -> SearchOutput:
        """:meth:`search` once its arguments are checked; ``active`` is a bool (G,) array."""


class BatchedMCTS(BatchedSearch):
    """PUCT search run in lockstep for up to ``num_games`` positions, one network batch a round.

    >>> from bitflip.search.mcts.rollout import RolloutPolicyValue
    >>> from bitflip.core.board import Board
    >>> b = Board(size=6)
    >>> mcts = BatchedMCTS(RolloutPolicyValue(6, seed=1), 1, MCTSConfig(sims=50))
    >>> out = mcts.search(np.array([b.black], np.uint64), np.array([b.white], np.uint64))
    >>> int(out.visits.sum()) >= 49 and bool(out.visits[0, 64] == 0)
    True
    """

    def __init__(
        self, policy_value: PolicyValueFn, num_games: int, config: MCTSConfig, *, seed: int = 0
    ) -> None:
        if config.root != "puct":
            raise ValueError(f"root {config.root!r}: build the search with make_mcts")
        super().__init__(policy_value, num_games, config, seed=seed)
        nodes = config.sims + config.leaves_per_game + 8
        self.pool = t.TreePool(num_games, nodes, nodes * 16 + 64, config.leaves_per_game)

    def _search(
        self, p: np.ndarray, o: np.ndarray, active: np.ndarray, noise: bool
    ) -> SearchOutput:
        # ``noise`` mixes Dirichlet noise into the root priors.
        pool, cfg = self.pool, self.config
        g_count = p.shape[0]
        act = np.zeros(pool.games, np.bool_)
        act[:g_count] = active
        pp = np.zeros(pool.games, np.uint64)
        oo = np.zeros(pool.games, np.uint64)
        pp[:g_count] = p
        oo[:g_count] = o
        pool.reset(pp, oo, act)
        evaluations = batches = 0
        noised = not (noise and cfg.dirichlet_eps > 0)
        k_leaves = 1  # the first round only evaluates the roots
        while True:
            todo = act & (pool.sims < cfg.sims)
            if not todo.any():
                break
            self.select(todo, k_leaves)
            gk = np.nonzero(pool.leaf_node >= 0)
            n = len(gk[0])
            if n:
                pol, val = self.policy_value.evaluate(pool.leaf_p[gk], pool.leaf_o[gk])
                slot = np.zeros(pool.leaf_node.shape, np.int64)
                slot[gk] = np.arange(n)
                self.expand(slot, np.asarray(pol, np.float32), np.asarray(val, np.float32))
                evaluations += n
                batches += 1
            if not noised:
                t.add_root_noise(pool.nfirst, pool.nnum, pool.nstate, pool.eprior, act,
                                 cfg.dirichlet_alpha, cfg.dirichlet_eps,
                                 int(self.rng.integers(2**31)))  # fmt: skip
                noised = True
            k_leaves = cfg.leaves_per_game
        visits = np.zeros((pool.games, 65), np.float32)
        q = np.zeros(pool.games, np.float32)
        t.root_stats(pool.nfirst, pool.nnum, pool.nstate, pool.emove, pool.en, pool.ew, visits, q)
        if cfg.solver:
            t.drop_disproved_root_moves(pool.nfirst, pool.nnum, pool.nstate, pool.emove,
                                        pool.echild, pool.nlow, pool.nhigh, self.mask,
                                        cfg.value_margin, visits, q)  # fmt: skip
        return SearchOutput(visits[:g_count], q[:g_count], evaluations, batches)

    def select(self, todo: np.ndarray, k_leaves: int) -> None:
        """Descend ``k_leaves`` times in every tree where ``todo``; fill the pool's leaf slots."""
        pool, cfg = self.pool, self.config
        work = int(todo.sum()) * k_leaves * t.SELECT_WORK
        parallel.call(
            t.select_leaves, t.select_leaves_parallel, work, pool.node_arrays, pool.bound_arrays,
            pool.edge_arrays, pool.leaf_arrays, pool.ncount, pool.sims, todo, cfg.sims, k_leaves,
            cfg.cpuct, cfg.fpu, cfg.fpu_parent, cfg.virtual_loss, self.mask, cfg.value_margin,
            cfg.solver,
        )  # fmt: skip

    def expand(self, slot: np.ndarray, pol: np.ndarray, val: np.ndarray) -> None:
        """Expand the pending leaves with their evaluations (leaf ``(g, k)`` at row
        ``slot[g, k]``) and back the values up."""
        pool, cfg = self.pool, self.config
        parallel.call(
            t.expand_backup, t.expand_backup_parallel, len(val) * t.SELECT_WORK,
            pool.node_arrays, pool.edge_arrays, pool.leaf_arrays, pool.ecount, pool.sims,
            cfg.virtual_loss, self.mask, slot, pol, val,
        )  # fmt: skip


def choose_moves(
    visits: np.ndarray, temperature: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """A move per row: sampled in proportion to visits where temperature > 0, else most visited.

    Ties among the most visited moves are broken at random. A row without visits (a game the
    search left out this round) has no proportions: it takes the tie-break too.
    """
    moves = np.empty(visits.shape[0], np.int64)
    for g in range(visits.shape[0]):
        v = visits[g].astype(np.float64)
        if temperature[g] > 0 and v.any():
            w = v ** (1.0 / temperature[g])
            moves[g] = rng.choice(len(v), p=w / w.sum())
        else:
            best = np.flatnonzero(v == v.max())
            moves[g] = best[rng.integers(len(best))]
    return moves
