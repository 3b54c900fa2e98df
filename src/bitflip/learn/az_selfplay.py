"""What self-play adds around the search: playout caps, Gumbel targets and exact labels.

* :class:`SelfPlaySearch` is the searcher that :func:`bitflip.search.mcts.games.play_games`
  drives when a run asks for more than plain PUCT: each move gets the full search with
  probability ``full_search_prob`` and a cheap one otherwise (KataGo's playout cap
  randomisation), and it remembers the training target of every full search (the visit
  distribution, or the Gumbel root's improved policy). :func:`keep_trained_rows` then drops the
  cheap searches' positions from the record and puts the targets in.
* :func:`exact_scores` labels positions with few empties with the exact solver's final margin
  (:mod:`bitflip.search.exact`), the value target training uses instead of the game
  result; :class:`ExactLeafValues` gives the tree's leaves those values too (blended with the
  margin as the value target is).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bitflip.core.arrays import legal_moves_many
from bitflip.core.geometry import board_mask
from bitflip.learn.az_config import SelfPlayConfig
from bitflip.learn.shards import NO_SCORE
from bitflip.search.exact import solve, solve_moves
from bitflip.search.mcts import (
    BatchedMCTS,
    BatchedSearch,
    MCTSConfig,
    PolicyValueFn,
    SearchOutput,
    make_mcts,
)
from bitflip.search.mcts.games import GameBatch

Key = tuple[int, int, int]
"""(game, player discs, opponent discs): a position of one game (positions never repeat)."""


class SelfPlaySearch(BatchedSearch):
    """Full searches (recorded) for a random fraction of the moves, cheap ones for the rest.

    It owns two searches built by :func:`~bitflip.search.mcts.make_mcts`, ``full`` and
    ``cheap`` (None when every move gets the full search), and asks each for its moves.

    Args:
        policy_value: the network.
        num_games: games searched in lockstep.
        config: the full search.
        full_search_prob: chance that a move gets the full search (1: every move).
        cheap_sims: simulations of the other moves' search (no noise, not trained on).
        seed: seeds the choice of full searches and both searches.
    """

    def __init__(
        self,
        policy_value: PolicyValueFn,
        num_games: int,
        config: MCTSConfig,
        full_search_prob: float = 1.0,
        cheap_sims: int = 16,
        *,
        seed: int = 0,
    ) -> None:
        super().__init__(policy_value, num_games, config, seed=seed)
        self.full = make_mcts(policy_value, num_games, config, seed=seed)
        self.cheap: BatchedSearch | None = None
        if full_search_prob < 1.0:
            cheap = replace(config, sims=min(cheap_sims, config.sims))
            self.cheap = make_mcts(policy_value, num_games, cheap, seed=seed + 1)
        self.full_search_prob = full_search_prob
        self.targets: dict[Key, np.ndarray] = {}
        self.cheap_keys: set[Key] = set()

    def _search(
        self, p: np.ndarray, o: np.ndarray, active: np.ndarray, noise: bool
    ) -> SearchOutput:
        g_count = p.shape[0]
        full = active.copy()
        if self.cheap is not None:
            full &= self.rng.random(g_count) < self.full_search_prob
        cheap = active & ~full
        outs = [(full, self.full.search(p, o, full, noise=noise))] if full.any() else []
        if cheap.any() and self.cheap is not None:
            outs.append((cheap, self.cheap.search(p, o, cheap, noise=False)))
        visits = np.zeros((g_count, 65), np.float32)
        policy = np.zeros((g_count, 65), np.float32)
        value = np.zeros(g_count, np.float32)
        evaluations = batches = 0
        for rows, out in outs:
            visits[rows] = out.visits[rows]
            policy[rows] = out.target()[rows]
            value[rows] = out.value[rows]
            evaluations += out.evaluations
            batches += out.batches
        for g in np.flatnonzero(full):
            self.targets[(int(g), int(p[g]), int(o[g]))] = policy[g].copy()
        for g in np.flatnonzero(cheap):
            self.cheap_keys.add((int(g), int(p[g]), int(o[g])))
        return SearchOutput(visits, value, evaluations, batches, policy)


def keep_trained_rows(games: GameBatch, search: SelfPlaySearch) -> GameBatch:
    """The record without the cheap searches' positions, with each full search's target."""
    keys = zip(games.game.tolist(), games.player.tolist(), games.opponent.tolist(), strict=True)
    keep = np.ones(len(games.player), np.bool_)
    policy = games.policy.copy()
    for i, key in enumerate(keys):
        if key in search.cheap_keys:
            keep[i] = False
        elif key in search.targets:
            policy[i] = search.targets[key]
    return replace(
        games, player=games.player[keep], opponent=games.opponent[keep], side=games.side[keep],
        legal=games.legal[keep], policy=policy[keep], move=games.move[keep],
        game=games.game[keep], ply=games.ply[keep],
    )  # fmt: skip


def empties(p: np.ndarray, o: np.ndarray, size: int) -> np.ndarray:
    """Empty squares of each position."""
    occupied = np.array([int(x).bit_count() for x in (p | o)], np.int64)
    return np.asarray(size * size - occupied)


def exact_scores(
    p: np.ndarray, o: np.ndarray, size: int, max_empties: int, known: np.ndarray | None = None
) -> np.ndarray:
    """Perfect-play final margin (mover's view, empties to the winner) of every position with
    at most ``max_empties`` empty squares (:func:`bitflip.search.exact.solve`); ``NO_SCORE``
    for the others. ``known``: margins already solved (``NO_SCORE`` where not), kept as they are."""
    out = np.full(len(p), NO_SCORE, np.int64) if known is None else known.astype(np.int64)
    mask = int(board_mask(size))
    for i in np.flatnonzero((empties(p, o, size) <= max_empties) & (out == NO_SCORE)):
        out[i] = solve(int(p[i]), int(o[i]), mask)
    return out


def exact_policies(
    p: np.ndarray, o: np.ndarray, size: int, max_empties: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The solver's policy targets: for each position with at most ``max_empties`` empties and
    two or more legal moves, equal weight on every move that keeps the exact margin
    (:func:`bitflip.search.exact.solve_moves`). Returns the rows, their (rows, 65) targets in
    the search's square numbering (pass at 64, never perfect here: a pass is the only move) and
    their exact margins (the best move's, so :func:`exact_scores` need not solve them again)."""
    mask = int(board_mask(size))
    legal = legal_moves_many(p, o, board_mask(size))
    counts = np.array([int(m).bit_count() for m in legal], np.int64)
    rows = np.flatnonzero((empties(p, o, size) <= max_empties) & (counts >= 2))
    targets = np.zeros((len(rows), 65), np.float32)
    margins = np.zeros(len(rows), np.int64)
    for k, i in enumerate(rows):
        values = solve_moves(int(p[i]), int(o[i]), mask)
        margins[k] = values.max()
        best = values == margins[k]
        targets[k, :64] = best / best.sum()
    return rows, targets, margins


class ExactLeafValues:
    """A policy-value function whose values are exact with few empties.

    The priors still come from ``inner``; a position with at most ``max_empties`` empty squares
    gets its solved value: ``(1 - x) * sign(margin) + x * margin / squares`` with
    ``x = value_margin``, the blend training uses for its value target (0: +1 / 0 / -1 only).
    Solved values are cached by position; the cache is emptied when it holds ``max_cache``
    of them, so a long run's memory stays bounded.
    """

    def __init__(
        self, inner: PolicyValueFn, max_empties: int, value_margin: float = 0.0,
        max_cache: int = 1 << 20,
    ) -> None:  # fmt: skip
        if not 0.0 <= value_margin <= 1.0:
            raise ValueError(f"value_margin must be in [0, 1], not {value_margin}")
        if max_cache < 1:
            raise ValueError(f"max_cache must be >= 1, not {max_cache}")
        self.inner = inner
        self.size = inner.size
        self.max_empties = max_empties
        self.value_margin = value_margin
        self.max_cache = max_cache
        self.mask = int(board_mask(inner.size))
        self.cache: dict[tuple[int, int], float] = {}

    def exact_value(self, p: int, o: int) -> float:
        """The blended exact value of (p, o) for its side to move (solved or cached)."""
        key = (p, o)
        value = self.cache.get(key)
        if value is None:
            margin = solve(p, o, self.mask)
            x = self.value_margin
            value = (1.0 - x) * float(np.sign(margin)) + x * margin / (self.size * self.size)
            if len(self.cache) >= self.max_cache:
                self.cache.clear()
            self.cache[key] = value
        return value

    def evaluate(self, p: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        policy, value = self.inner.evaluate(p, o)
        value = np.array(value, np.float32)
        for i in np.flatnonzero(empties(p, o, self.size) <= self.max_empties):
            value[i] = self.exact_value(int(p[i]), int(o[i]))
        return policy, value


def selfplay_search(
    policy_value: PolicyValueFn,
    num_games: int,
    mcts: MCTSConfig,
    selfplay: SelfPlayConfig | None = None,
    seed: int = 0,
    value_margin: float = 0.0,
) -> BatchedSearch:
    """The searcher of a self-play shard: plain PUCT as before unless a switch of
    ``selfplay`` (exact leaf values, playout caps) or a Gumbel root asks for more.
    ``value_margin`` is ``train.value_margin``: exact leaves get the value target's blend."""
    sp = selfplay if selfplay is not None else SelfPlayConfig()
    if sp.exact_leaf_empties > 0:
        policy_value = ExactLeafValues(policy_value, sp.exact_leaf_empties, value_margin)
    if mcts.root == "puct" and sp.full_search_prob >= 1.0:
        return BatchedMCTS(policy_value, num_games, mcts, seed=seed)
    return SelfPlaySearch(
        policy_value, num_games, mcts, sp.full_search_prob, sp.cheap_sims, seed=seed
    )
