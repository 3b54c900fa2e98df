"""TD(lambda) on the FIREBRAND features with time weights (the FIREBRAND report), in numba.

The value of a position, in discs for the side to move, is the FIREBRAND score
``sum_i w_i F_i (2t + W_i (1 - 2t))`` (:mod:`bitflip.eval.firebrand`); TD(lambda) fits both the
weights ``w`` and the time weights ``W`` from self-play. Values are taken from Black's view so
that successive positions compare directly; the target at the end is the final disc margin.
Moves are epsilon-greedy over a one-ply lookahead; after an exploratory move the eligibility
trace is cut. Training is staged as in the report: first from positions with 10 empties left
(reached by random moves), then 20, 40, 60 (the start on 8x8); the learning rate decays as
``lr / (1 + games / lr_decay)``; each step is normalised by ``1 + |grad|^2`` (normalised LMS),
which keeps the disc-sized errors from blowing the weights up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from bitflip.core.bitboard import (
    U1,
    game_over,
    legal_moves,
    lowest_square,
    margin_with_empties,
    play,
    popcount,
    random_square,
)
from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS, board_mask, geometry
from bitflip.engine import Engine
from bitflip.eval.evaluator import KIND_FIREBRAND, Evaluation
from bitflip.eval.features import game_progress
from bitflip.eval.firebrand import (
    FIREBRAND_FEATURES,
    NUM_FIREBRAND,
    FirebrandWeights,
    firebrand_features,
    hand_firebrand_weights,
)
from bitflip.learn.figures import pyplot, save_figure
from bitflip.search.limits import Limit
from bitflip.tomlconfig import read_flat_config

N = NUM_FIREBRAND


@dataclass(frozen=True)
class TDConfig:
    """TD(lambda) settings (every key of configs/td.toml)."""

    size: int = 8
    """Board size (the FIREBRAND features serve 6x6 and 8x8)."""
    stages: tuple[int, ...] = (10, 20, 40, 60)
    """Empties left at the start of each stage's games, in training order (capped at the start)."""
    games_per_stage: int = 2000
    """Self-play games in each stage."""
    lam: float = 0.7
    """Trace decay lambda."""
    lr: float = 0.05
    """Initial learning rate (of the normalised update)."""
    lr_decay: float = 2000.0
    """Games after which the learning rate has halved."""
    epsilon: float = 0.1
    """Exploration rate of the epsilon-greedy one-ply player."""
    init: str = "hand"
    """Starting weights: 'hand' (the hand-set ones) or 'zero' (w = 0, W = 1)."""
    seed: int = 0
    """Seed of openings and exploration."""
    snapshot_every: int = 100
    """Games between weight snapshots (the trajectory plots)."""

    def __post_init__(self) -> None:
        if self.size not in (6, 8):
            raise ValueError(f"size must be 6 or 8, not {self.size}")
        if not self.stages or any(s < 1 for s in self.stages):
            raise ValueError(f"stages must be positive empties counts, not {self.stages}")
        if not 0 <= self.lam <= 1 or self.lr <= 0 or not 0 <= self.epsilon <= 1:
            raise ValueError("lam and epsilon must be in [0, 1] and lr > 0")
        if self.init not in ("hand", "zero"):
            raise ValueError(f"init must be 'hand' or 'zero', not {self.init!r}")


def load_tdconfig(path: str | Path) -> TDConfig:
    """Read a TDConfig from TOML (keys at the top level), naming unknown keys."""
    data = read_flat_config(path, TDConfig)
    if "stages" in data:
        data["stages"] = tuple(data["stages"])
    return TDConfig(**data)


@njit(cache=True)
def _grad(
    p: np.uint64, o: np.uint64, mask: np.uint64, theta: np.ndarray
) -> tuple[float, np.ndarray]:
    # Linear form of the same value: theta = (a, b) with a_i = w_i and b_i = w_i * W_i, so
    # v = sum a_i F_i 2t + b_i F_i (1 - 2t); TD on a linear value is stable.
    f = firebrand_features(p, o, mask)
    t = game_progress(p, o, mask)
    g = np.empty(2 * N)
    v = 0.0
    for i in range(N):
        g[i] = f[i] * 2.0 * t
        g[N + i] = f[i] * (1.0 - 2.0 * t)
        v += theta[i] * g[i] + theta[N + i] * g[N + i]
    return v, g


def to_linear(w: np.ndarray) -> np.ndarray:
    """(w, W) -> theta = (w, w * W)."""
    return np.concatenate([w[:N], w[:N] * w[N:]])


def from_linear(theta: np.ndarray) -> np.ndarray:
    """theta = (a, b) -> (w, W) with W = b / a (W = 1 where a is 0)."""
    a, b = theta[:N], theta[N:]
    safe = np.where(np.abs(a) > 1e-9, a, 1.0)
    return np.concatenate([a, np.where(np.abs(a) > 1e-9, b / safe, 1.0)])


@njit(cache=True)
def _greedy(p: np.uint64, o: np.uint64, mask: np.uint64, w: np.ndarray) -> int:
    # One-ply on the linear weights: the move after which the opponent's value is lowest.
    # Not the engine's search: it runs inside the compiled training loop, on the float
    # weights as they are being updated.
    moves = legal_moves(p, o, mask)
    best = 1e30
    pick = lowest_square(moves)
    while moves:
        sq = lowest_square(moves)
        moves &= moves - U1
        q, r = play(p, o, sq)
        if game_over(q, r, mask):
            v = 1000.0 * (popcount(q) - popcount(r))
        else:
            v = _grad(q, r, mask, w)[0]
        if v < best:
            best = v
            pick = sq
    return pick


@njit(cache=True)
def td_games(
    w: np.ndarray,
    start: tuple[np.uint64, np.uint64, np.uint64],
    empties: int,
    games: tuple[int, int],
    rates: tuple[float, float, float, float],
    seed: int,
    snap_every: int,
    snaps: np.ndarray,
) -> int:
    """Play ``games = (count, played before)`` TD(lambda) games from positions with
    ``empties`` empties, reached by random moves from ``start = (p, o, mask)``.

    ``w`` holds the linear weights (see :func:`to_linear`) and is updated in place;
    ``rates = (lambda, lr, lr_decay, epsilon)``. Writes a copy of ``w`` into ``snaps[k]`` every
    ``snap_every`` games; returns the count.
    """
    p0, o0, mask = start
    lam, lr, lr_decay, eps = rates
    np.random.seed(seed)
    n_snap = 0
    squares = popcount(mask)
    for gi in range(games[0]):
        alpha = lr / (1.0 + (games[1] + gi) / lr_decay)
        # Random moves down to the stage's number of empties (restart if the game ends first).
        while True:
            p, o, black = p0, o0, True
            while squares - popcount(p | o) > empties:
                m = legal_moves(p, o, mask)
                if m == 0:
                    if legal_moves(o, p, mask) == 0:
                        break
                else:
                    p, o = play(p, o, random_square(m))
                    black = not black
                    continue
                p, o = o, p
                black = not black
            if not game_over(p, o, mask):
                break
        e = np.zeros(2 * N)
        v, g = _grad(p, o, mask, w)
        sign = 1.0 if black else -1.0
        vb = sign * v
        while True:
            e = lam * e + sign * g
            norm = 1.0 + (e * e).sum()
            m = legal_moves(p, o, mask)
            explored = False
            if m == 0:
                p, o = o, p
            else:
                if np.random.random() < eps:
                    sq = random_square(m)
                    explored = True
                else:
                    sq = _greedy(p, o, mask, w)
                p, o = play(p, o, sq)
            black = not black
            sign = -sign
            over = game_over(p, o, mask)
            if over:
                d = margin_with_empties(popcount(p) - popcount(o), squares - popcount(p | o))
                target = sign * d
                w += alpha * (target - vb) * e / norm
                break
            w += alpha * (sign * _grad(p, o, mask, w)[0] - vb) * e / norm
            v, g = _grad(p, o, mask, w)
            vb = sign * v
            if explored:
                e[:] = 0.0
        if (gi + 1) % snap_every == 0 and n_snap < snaps.shape[0]:
            snaps[n_snap] = w
            n_snap += 1
    return n_snap


@dataclass
class TDResult:
    """Learned weights and their trajectory (one row per snapshot: w then W)."""

    weights: FirebrandWeights
    trajectory: np.ndarray
    games: np.ndarray
    """Games played at each snapshot."""
    stage_starts: list[int] = field(default_factory=list)


def train_td(cfg: TDConfig, log: Callable[[str], None] | None = None) -> TDResult:
    """Run every stage in turn and return the weights and their trajectory."""
    hand = to_linear(hand_firebrand_weights().vector())
    w = hand if cfg.init == "hand" else np.zeros(2 * N)
    g = geometry(cfg.size)
    p0, o0 = (np.uint64(x) for x in g.start_position())
    start = (p0, o0, np.uint64(board_mask(cfg.size)))
    start_empties = cfg.size * cfg.size - 4
    traj, games_at, stage_starts = [from_linear(w)], [0], []
    done = 0
    for k, empties in enumerate(cfg.stages):
        stage_starts.append(done)
        snaps = np.zeros((cfg.games_per_stage // cfg.snapshot_every + 1, 2 * N))
        rates = (cfg.lam, cfg.lr, cfg.lr_decay, cfg.epsilon)
        n = td_games(w, start, min(empties, start_empties), (cfg.games_per_stage, done), rates,
                     cfg.seed * 7919 + k, cfg.snapshot_every, snaps)  # fmt: skip
        for j in range(n):
            traj.append(from_linear(snaps[j]))
            games_at.append(done + (j + 1) * cfg.snapshot_every)
        done += cfg.games_per_stage
        if not np.isfinite(w).all():
            raise ValueError(f"TD diverged in stage {k} ({empties} empties): lower lr")
        if log is not None:
            ww = from_linear(w)
            log(f"stage {k + 1}/{len(cfg.stages)} ({empties} empties): w={np.round(ww[:N], 3)} "
                f"W={np.round(ww[N:], 3)}")  # fmt: skip
    lineage = {"source": "TD(lambda) self-play, bitflip.learn.td", "config": repr(cfg)}
    ww = from_linear(w)
    weights = FirebrandWeights(ww[:N].copy(), ww[N:].copy(), lineage)
    return TDResult(weights, np.array(traj), np.array(games_at), stage_starts)


def plot_trajectory(result: TDResult, path: str | Path) -> Path:
    """The weight trajectories (w and W per feature against games), as the report's figures."""
    plt = pyplot()

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, off, title in ((axes[0], 0, "w (mid-game weight)"), (axes[1], N, "W (start factor)")):
        for i, name in enumerate(FIREBRAND_FEATURES):
            ax.plot(result.games, result.trajectory[:, off + i], label=name)
        for s in result.stage_starts[1:]:
            ax.axvline(s, color="grey", lw=0.5, ls="--")
        ax.set_xlabel("self-play games")
        ax.set_title(title)
    axes[1].legend(fontsize=7, loc="best")
    return save_figure(fig, path, dpi=110)


# --- the td agent -----------------------------------------------------------------------------


class TDAgent:
    """Alpha-beta to ``depth`` on FIREBRAND weights (``td:weights=FILE,depth=N``).

    Without ``weights`` it uses the hand-set weights, the baseline TD is compared with. The
    search is the engine's, with the weights as its FIREBRAND evaluation: every move scored at
    the fixed depth (a fresh table each move), ties broken at random.
    """

    def __init__(self, weights: str | None = None, depth: int = 2, seed: int | None = None):
        if not isinstance(depth, int) or depth < 1:
            raise ValueError(f"td depth must be a whole number >= 1, not {depth!r}")
        fw = FirebrandWeights.load(weights) if weights else hand_firebrand_weights()
        self.w = fw.vector()
        self.source = weights or ""
        self.depth = depth
        self.rng = np.random.default_rng(seed)
        self.name = f"td:weights={weights},depth={depth}" if weights else f"td:depth={depth}"
        self._engines: dict[int, Engine] = {}

    def new_game(self) -> None:
        pass

    def _engine(self, size: int) -> Engine:
        if size not in self._engines:
            ev = Evaluation("firebrand", KIND_FIREBRAND, self.w, size, self.source)
            self._engines[size] = Engine(evaluation=ev, tt_mb=1, size=size)
        return self._engines[size]

    def select_move(self, board: Board) -> Move:
        moves = list(board.legal_moves)
        if moves == [PASS]:
            return PASS
        engine = self._engine(board.size)
        engine.new_game()
        engine.set_position(board)
        scores = {s.move: s.score for s in engine.hint(64, Limit(depth=self.depth))}
        best = max(scores.values())
        ties = [m for m in moves if scores[m] >= best - 1e-9]
        return int(ties[int(self.rng.integers(len(ties)))])
