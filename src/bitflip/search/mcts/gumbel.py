"""Gumbel AlphaZero's root (Danihelka et al. 2022, "Policy improvement by planning with Gumbel").

At the root, ``m`` moves are drawn without replacement by the Gumbel top-k trick (the top ``m``
of ``g(a) + logits(a)``, ``g`` Gumbel(0, 1) noise in self-play, 0 otherwise), and ``n =
sims`` visits are shared among them by sequential halving: each phase gives every remaining
move ``max(1, floor(n / (ceil(log2 m) * remaining)))`` visits, then keeps the better half
(never fewer than 2) by ``g + logits + sigma(q)``; the last pass is cut where the budget ends
(mctx's ``get_sequence_of_considered_visits``). The move played is the best survivor,
``argmax g + logits + sigma(q)`` among the most visited; the policy target is the improved policy
``softmax(logits + sigma(completed q))``, where unvisited moves get the mixed value ``v_mix``
and ``sigma(q) = (c_visit + max_b N(b)) * c_scale * (q + 1) / 2`` (values in [-1, 1] mapped to
[0, 1]: the game's value range is known, so no min-max normalisation is needed).

Below the root the search is the ordinary PUCT of :mod:`.tree` (a documented simplification
of the paper's deterministic non-root rule): each sampled root move owns one PUCT tree rooted
at its child position, and every pass of sequential halving is one round of the same kernels,
so the leaves of all games and all their root moves go to the network in one batch.

Unlike PUCT, the root's own evaluation is not one of the ``sims``: a search makes
``sims + 1`` evaluations (fewer when visits reach finished games). The Dirichlet settings
and ``leaves_per_game`` are not used (the Gumbel noise explores; a pass is one descent per
sampled move); the pool holds ``num_games * gumbel_m`` trees of about ``sims / 2`` nodes.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from bitflip.core.arrays import game_over_many, legal_moves_many, play_many
from bitflip.core.geometry import PASS
from bitflip.search.mcts import tree as t
from bitflip.search.mcts.search import (
    NUM_MOVES,
    BatchedMCTS,
    BatchedSearch,
    MCTSConfig,
    PolicyValueFn,
    SearchOutput,
)

_TINY = 1e-30


def halving_schedule(m: int, n: int) -> list[int]:
    """Moves visited in each pass of sequential halving over ``m`` moves with ``n`` visits.

    >>> halving_schedule(4, 8), halving_schedule(16, 16), halving_schedule(2, 5)
    ([4, 2, 2], [16], [2, 2, 1])
    """
    if n <= 0 or m <= 0:
        return []
    if m == 1:
        return [1] * n
    log2m = math.ceil(math.log2(m))
    passes: list[int] = []
    used, c = 0, m
    while used < n:
        for _ in range(max(1, n // (log2m * c))):
            k = min(c, n - used)
            passes.append(k)
            used += k
            if used >= n:
                break
        c = max(2, c // 2)
    return passes


def mixed_value(v_root: np.ndarray, q: np.ndarray, n: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """v_mix per row: ``(v + sum N / sum_{visited} pi * sum_{visited} pi q) / (1 + sum N)``."""
    total = n.sum(axis=1)
    seen = n > 0
    pr = np.maximum(prior, _TINY)
    mass = np.where(seen, pr, 0.0).sum(axis=1)
    weighted = np.where(seen, pr * q, 0.0).sum(axis=1) / np.where(mass > 0, mass, 1.0)
    return np.asarray((v_root + total * weighted) / (1.0 + total))


def sigma(q: np.ndarray, n_max: np.ndarray, c_visit: float, c_scale: float) -> np.ndarray:
    """The paper's monotone transform of values in [-1, 1]: (c_visit + max N) c_scale q01."""
    return np.asarray((c_visit + n_max[:, None]) * c_scale * (q + 1.0) / 2.0)


def make_mcts(
    policy_value: PolicyValueFn, num_games: int, config: MCTSConfig, *, seed: int = 0
) -> BatchedSearch:
    """The batched search that ``config.root`` names: PUCT or the Gumbel root."""
    if config.root == "gumbel":
        return GumbelMCTS(policy_value, num_games, config, seed=seed)
    return BatchedMCTS(policy_value, num_games, config, seed=seed)


class GumbelMCTS(BatchedSearch):
    """The Gumbel root over ``num_games`` positions at once; ``search`` as :class:`BatchedMCTS`.

    The trees below the root are one :class:`BatchedMCTS`, ``self.tree``, with a PUCT tree per
    (game, sampled root move); each pass of sequential halving is one of its rounds.

    ``SearchOutput.visits`` holds the root visit counts with half a visit added to the chosen
    move (so that the most-visited rule of :func:`~.search.choose_moves` plays it, ties
    included); ``SearchOutput.policy`` is the improved policy, the training target.
    """

    def __init__(
        self, policy_value: PolicyValueFn, num_games: int, config: MCTSConfig, *, seed: int = 0
    ) -> None:
        super().__init__(policy_value, num_games, config, seed=seed)
        self.m = config.gumbel_m
        # The most visits one root move can get: one a pass, and two moves make the most
        # passes (a lone move is forced; its tree takes the visits that fit).
        schedules = (halving_schedule(k, config.sims) for k in range(2, self.m + 1))
        cap = max((len(s) for s in schedules), default=config.sims)
        sub = replace(config, root="puct", sims=cap + 2, leaves_per_game=1)
        self.tree = BatchedMCTS(policy_value, num_games * self.m, sub, seed=seed)
        self.cap = cap

    def _search(
        self, p: np.ndarray, o: np.ndarray, active: np.ndarray, noise: bool
    ) -> SearchOutput:
        # ``noise`` draws the Gumbel variables (else they are 0).
        cfg, m = self.config, self.m
        g_count = p.shape[0]
        rows = np.flatnonzero(active)
        visits = np.zeros((g_count, NUM_MOVES), np.float32)
        policy = np.zeros((g_count, NUM_MOVES), np.float32)
        value = np.zeros(g_count, np.float32)
        if not len(rows):
            return SearchOutput(visits, value, 0, 0, policy)
        rp = np.ascontiguousarray(p[rows], np.uint64)
        ro = np.ascontiguousarray(o[rows], np.uint64)
        b_count = len(rows)
        pol, v_root = self.policy_value.evaluate(rp, ro)
        v_root = np.asarray(v_root, np.float64)
        evaluations, batches = b_count, 1
        legal = _legal_columns(legal_moves_many(rp, ro, self.mask))
        prior = np.where(legal, np.maximum(np.asarray(pol, np.float64), 0.0), 0.0)
        total = prior.sum(axis=1, keepdims=True)
        uniform = legal / legal.sum(axis=1, keepdims=True)
        prior = np.where(total > 1e-12, prior / np.maximum(total, 1e-300), uniform)
        logits = np.where(legal, np.log(np.maximum(prior, _TINY)), -np.inf)
        gumbel = self.rng.gumbel(size=logits.shape) if noise else np.zeros(logits.shape)
        # Gumbel top-k: the m best of g + logits (ties: lower column first).
        order = np.argsort(-(gumbel + logits), axis=1, kind="stable")
        m_g = np.minimum(legal.sum(axis=1), m)
        cand = order[:, :m]
        valid = np.arange(m)[None, :] < m_g[:, None]
        g_c = np.take_along_axis(gumbel, cand, 1)
        logit_c = np.take_along_axis(logits, cand, 1)
        prior_c = np.take_along_axis(prior, cand, 1)

        # One PUCT tree per (game, sampled move), rooted at the child position.
        slots = (rows[:, None] * m + np.arange(m)[None, :]).ravel()
        cp = np.repeat(rp, m)
        co = np.repeat(ro, m)
        play_many(cp, co, cand.ravel().astype(np.int64), valid.ravel())
        pool = self.tree.pool
        all_p = np.zeros(pool.games, np.uint64)
        all_o = np.zeros(pool.games, np.uint64)
        which = np.zeros(pool.games, np.bool_)
        all_p[slots], all_o[slots], which[slots] = cp, co, valid.ravel()
        pool.reset(all_p, all_o, which)
        first = np.full(pool.games, np.nan)  # each child's own value, for its mover
        ends = valid.ravel() & game_over_many(cp, co, self.mask)
        first[slots[ends]] = _terminal_values(cp[ends], co[ends], self.mask, cfg.value_margin)

        schedules = [halving_schedule(int(k), cfg.sims) for k in m_g]
        rounds = max(len(s) for s in schedules)
        per_round = np.zeros((b_count, rounds), np.int64)
        for b, s in enumerate(schedules):
            per_round[b, : len(s)] = s
        n = np.zeros((b_count, m))
        q = np.zeros((b_count, m))
        for r in range(rounds):
            score = self._scores(g_c, logit_c, prior_c, q, n, valid, v_root)
            key = np.where(valid, n * 1e4 + np.clip(score, -4e3, 4e3), -np.inf)
            rank = np.argsort(np.argsort(-key, axis=1, kind="stable"), axis=1)
            todo = np.zeros(pool.games, np.bool_)
            todo[slots] = (valid & (rank < per_round[:, r : r + 1])).ravel()
            self.tree.select(todo, 1)
            gk = np.nonzero(pool.leaf_node >= 0)
            if len(gk[0]):
                lp, lv = self.policy_value.evaluate(pool.leaf_p[gk], pool.leaf_o[gk])
                lv = np.asarray(lv, np.float32)
                at_root = pool.leaf_node[gk] == 0
                first[gk[0][at_root]] = lv[at_root]
                slot = np.zeros(pool.leaf_node.shape, np.int64)
                slot[gk] = np.arange(len(gk[0]))
                self.tree.expand(slot, np.asarray(lp, np.float32), lv)
                evaluations += len(gk[0])
                batches += 1
            n, q = self._root_values(slots, first, valid)
        # The move played: the best of the most visited; the target: the improved policy.
        score = self._scores(g_c, logit_c, prior_c, q, n, valid, v_root)
        most = valid & (n == n.max(axis=1, keepdims=True))
        chosen = cand[np.arange(b_count), np.argmax(np.where(most, score, -np.inf), axis=1)]
        n_full = np.zeros((b_count, NUM_MOVES))
        q_full = np.zeros((b_count, NUM_MOVES))
        np.put_along_axis(n_full, cand, np.where(valid, n, 0.0), 1)
        np.put_along_axis(q_full, cand, np.where(valid, q, 0.0), 1)
        v_mix = mixed_value(v_root, q_full, n_full, prior)
        q_hat = np.where(n_full > 0, q_full, v_mix[:, None])
        z = logits + sigma(q_hat, n_full.max(axis=1), cfg.gumbel_c_visit, cfg.gumbel_c_scale)
        z = np.where(legal, z - np.max(np.where(legal, z, -np.inf), axis=1, keepdims=True), -np.inf)
        pi = np.exp(z)
        pi /= pi.sum(axis=1, keepdims=True)
        spent = n_full.sum(axis=1)
        value[rows] = np.where(
            spent > 0, (n_full * q_full).sum(axis=1) / np.maximum(spent, 1), v_root
        )
        n_full[np.arange(b_count), chosen] += 0.5
        visits[rows] = n_full
        policy[rows] = pi
        return SearchOutput(visits, value, evaluations, batches, policy)

    def _scores(
        self, g: np.ndarray, logits: np.ndarray, prior: np.ndarray, q: np.ndarray,
        n: np.ndarray, valid: np.ndarray, v_root: np.ndarray
    ) -> np.ndarray:  # fmt: skip
        """g + logits + sigma(completed q) of each sampled move (rows: games)."""
        v_mix = mixed_value(v_root, q, np.where(valid, n, 0.0), np.where(valid, prior, 0.0))
        q_hat = np.where(n > 0, q, v_mix[:, None])
        n_max = np.where(valid, n, 0.0).max(axis=1)
        cfg = self.config
        return np.asarray(g + logits + sigma(q_hat, n_max, cfg.gumbel_c_visit, cfg.gumbel_c_scale))

    def _root_values(
        self, slots: np.ndarray, first: np.ndarray, valid: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Visits N(a) and mean value q(a) (the root mover's view) of every sampled move."""
        pool = self.tree.pool
        edge_visits = np.zeros((pool.games, NUM_MOVES), np.float32)
        edge_q = np.zeros(pool.games, np.float32)
        t.root_stats(pool.nfirst, pool.nnum, pool.nstate, pool.emove, pool.en, pool.ew,
                     edge_visits, edge_q)  # fmt: skip
        tn = edge_visits.sum(axis=1).astype(np.float64)[slots]
        tw = edge_q.astype(np.float64)[slots] * tn
        n = np.where(valid.ravel(), pool.sims[slots], 0).astype(np.float64)
        base = np.nan_to_num(first[slots])
        mean = np.where(n > 0, (base + tw) / (1.0 + tn), 0.0)
        return n.reshape(valid.shape), -mean.reshape(valid.shape)


def _legal_columns(legal: np.ndarray) -> np.ndarray:
    """(B, 65) bool: the legal squares, or PASS alone when there is none."""
    bits = (legal[:, None] >> np.arange(64, dtype=np.uint64)[None, :]) & np.uint64(1)
    out = np.zeros((len(legal), NUM_MOVES), np.bool_)
    out[:, :64] = bits.astype(np.bool_)
    out[:, PASS] = legal == 0
    return out


def _terminal_values(
    p: np.ndarray, o: np.ndarray, mask: np.uint64, margin_weight: float
) -> np.ndarray:
    """The values of finished positions for their side to move, as the tree scores them."""
    return np.array(
        [t._terminal_value(a, b, mask, margin_weight) for a, b in zip(p, o, strict=True)],
        np.float64,
    )
