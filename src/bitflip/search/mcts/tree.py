"""Array-based PUCT trees for many games at once, in numba.

One :class:`TreePool` holds ``G`` independent trees (one per concurrent game) as 2-D arrays
indexed ``[game, node]`` and ``[game, edge]``. A search round descends up to ``K`` times in each
tree with virtual loss, collects the unexpanded leaves of all trees into one batch, and after
the caller has evaluated that batch, expands the leaves and backs their values up. This is
lc0's AddInput / ComputeBlocking shape: the network sees one big batch per round, not one leaf.

Values are from the view of the side to move at a node; an edge's ``W`` is from the view of the
side that plays it. Terminal positions are scored +1 / -1 / 0 (draws are 0, not losses),
blended with the final margin by ``margin_weight`` (``MCTSConfig.value_margin``): a net trained
on ``(1 - x) * result + x * margin / squares`` must meet the end of the game on its own scale.

With ``solver`` on, every node also keeps bounds on its final margin, proved from the finished
games the tree has reached (score-bounded MCTS: Cazenave and Saffidine 2010, the disc-margin
form of Winands et al.'s MCTS-Solver). A node whose bounds meet is solved: descents stop there
and back its exact value up, as at a finished game, and a move whose best outcome is no better
than what another move already guarantees is not descended into again (the move that
guarantees it stays in play). No solver runs: only the tree's own visits prove anything.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from bitflip.core.arrays import legal_moves_inline as legal_moves
from bitflip.core.arrays import play_inline as play
from bitflip.core.bitboard import U1, final_margin, game_over, lowest_square, popcount
from bitflip.core.geometry import PASS
from bitflip.core.parallel import serial_and_parallel

UNEXPANDED = 0
PENDING = 1
EXPANDED = 2
TERMINAL = 3
LEAF_ONLY = 4
"""Evaluated but not expanded because the edge pool was full: its value is reused."""

Arrays = tuple[np.ndarray, ...]
"""A group of a pool's arrays handed to a kernel as one tuple (see :class:`TreePool`)."""

MAX_DEPTH = 160
"""Longest path a descent can take (60 moves plus passes fit easily)."""

MARGIN_LIMIT = 64
"""Open bounds of a node not yet proved anything about (no final margin exceeds the squares)."""


@dataclass
class TreePool:
    """The arrays of ``games`` trees with room for ``nodes`` nodes and ``edges`` edges each."""

    games: int
    nodes: int
    edges: int
    leaves_per_game: int

    def __post_init__(self) -> None:
        g, n, e, k = self.games, self.nodes, self.edges, self.leaves_per_game
        self.np_ = np.zeros((g, n), np.uint64)
        self.no_ = np.zeros((g, n), np.uint64)
        self.nfirst = np.zeros((g, n), np.int32)
        self.nnum = np.zeros((g, n), np.int32)
        self.nstate = np.zeros((g, n), np.int8)
        self.nvalue = np.zeros((g, n), np.float32)
        self.nvisit = np.zeros((g, n), np.float32)
        self.nlow = np.zeros((g, n), np.int8)
        self.nhigh = np.zeros((g, n), np.int8)
        self.emove = np.zeros((g, e), np.int16)
        self.eprior = np.zeros((g, e), np.float32)
        self.en = np.zeros((g, e), np.float32)
        self.ew = np.zeros((g, e), np.float32)
        self.echild = np.zeros((g, e), np.int32)
        self.ncount = np.zeros(g, np.int64)
        self.ecount = np.zeros(g, np.int64)
        self.sims = np.zeros(g, np.int64)
        self.leaf_node = np.full((g, k), -1, np.int32)
        self.leaf_p = np.zeros((g, k), np.uint64)
        self.leaf_o = np.zeros((g, k), np.uint64)
        self.path_e = np.zeros((g, k, MAX_DEPTH), np.int32)
        self.path_n = np.zeros((g, k, MAX_DEPTH), np.int32)
        self.path_len = np.zeros((g, k), np.int32)

    @property
    def node_arrays(self) -> Arrays:
        """Per node: position (p, o), first edge, edge count, state, value, visits."""
        return (self.np_, self.no_, self.nfirst, self.nnum, self.nstate, self.nvalue, self.nvisit)

    @property
    def bound_arrays(self) -> Arrays:
        """Per node (``solver`` only): the lowest and highest final margin still possible for
        its side to move."""
        return (self.nlow, self.nhigh)

    @property
    def edge_arrays(self) -> Arrays:
        """Per edge: move, prior, visits N, total value W, child node."""
        return (self.emove, self.eprior, self.en, self.ew, self.echild)

    @property
    def leaf_arrays(self) -> Arrays:
        """Per pending leaf: its node and position, and the path that reached it."""
        return (self.leaf_node, self.leaf_p, self.leaf_o, self.path_e, self.path_n, self.path_len)

    def reset(self, p: np.ndarray, o: np.ndarray, which: np.ndarray) -> None:
        """Start fresh trees rooted at ``(p[g], o[g])`` for the games where ``which`` is true."""
        reset_trees(self.np_, self.no_, self.nstate, self.nvisit, self.nlow, self.nhigh,
                    self.ncount, self.ecount, self.sims, p, o, which)  # fmt: skip


@njit(cache=True)
def reset_trees(
    np_: np.ndarray, no_: np.ndarray, nstate: np.ndarray, nvisit: np.ndarray, nlow: np.ndarray,
    nhigh: np.ndarray, ncount: np.ndarray, ecount: np.ndarray, sims: np.ndarray, p: np.ndarray,
    o: np.ndarray, which: np.ndarray
) -> None:  # fmt: skip
    for g in range(which.shape[0]):
        if which[g]:
            np_[g, 0] = p[g]
            no_[g, 0] = o[g]
            nstate[g, 0] = UNEXPANDED
            nvisit[g, 0] = 0.0
            nlow[g, 0] = -MARGIN_LIMIT
            nhigh[g, 0] = MARGIN_LIMIT
            ncount[g] = 1
            ecount[g] = 0
            sims[g] = 0


@njit(cache=True)
def _backup(
    g: int, k: int, d: int, v: float, vloss: float, path_e: np.ndarray, path_n: np.ndarray,
    en: np.ndarray, ew: np.ndarray, nvisit: np.ndarray
) -> None:  # fmt: skip
    # v is the leaf's value for its side to move; each edge above flips the view.
    cur = v
    for j in range(d - 1, -1, -1):
        e = path_e[g, k, j]
        ew[g, e] += vloss - cur
        en[g, e] += 1.0 - vloss
        nvisit[g, path_n[g, k, j]] += 1.0 - vloss
        cur = -cur


@njit(cache=True)
def _revert(
    g: int, k: int, d: int, vloss: float, path_e: np.ndarray, path_n: np.ndarray,
    en: np.ndarray, ew: np.ndarray, nvisit: np.ndarray
) -> None:  # fmt: skip
    for j in range(d):
        e = path_e[g, k, j]
        ew[g, e] += vloss
        en[g, e] -= vloss
        nvisit[g, path_n[g, k, j]] -= vloss


@njit(cache=True)
def _terminal_value(p: np.uint64, o: np.uint64, mask: np.uint64, margin_weight: float) -> float:
    """A finished position's value for its mover: ``(1 - x) * sign + x * margin / squares``."""
    return _margin_value(final_margin(p, o, mask), mask, margin_weight)


@njit(cache=True)
def _margin_value(margin: int, mask: np.uint64, margin_weight: float) -> float:
    """The value of a final ``margin`` for the side it counts for, on the tree's scale."""
    sign = 1.0 if margin > 0 else -1.0 if margin < 0 else 0.0
    if margin_weight == 0.0:
        return sign
    return (1.0 - margin_weight) * sign + margin_weight * margin / popcount(mask)


@njit(cache=True)
def _child_bounds(child: int, g: int, nlow: np.ndarray, nhigh: np.ndarray) -> tuple[int, int]:
    """The final margins a move can still lead to, for the side that plays it."""
    if child < 0:
        return -MARGIN_LIMIT, MARGIN_LIMIT
    return -int(nhigh[g, child]), -int(nlow[g, child])


@njit(cache=True)
def _prove_up(
    g: int, k: int, d: int, path_e: np.ndarray, path_n: np.ndarray, nfirst: np.ndarray,
    nnum: np.ndarray, echild: np.ndarray, nlow: np.ndarray, nhigh: np.ndarray
) -> None:  # fmt: skip
    """After the leaf of descent ``(g, k)`` got its bounds, tighten those of the nodes above it:
    a node is worth the best of its moves (negamax over the bounds); stops where nothing
    changes."""
    for j in range(d - 1, -1, -1):
        node = path_n[g, k, j]
        low = -MARGIN_LIMIT
        high = -MARGIN_LIMIT
        for e in range(nfirst[g, node], nfirst[g, node] + nnum[g, node]):
            lo, hi = _child_bounds(echild[g, e], g, nlow, nhigh)
            low = max(low, lo)
            high = max(high, hi)
        if low == nlow[g, node] and high == nhigh[g, node]:
            return
        nlow[g, node] = low
        nhigh[g, node] = high


def _select_leaves(
    nodes: Arrays, bounds: Arrays, edges: Arrays, leaves: Arrays, ncount: np.ndarray,
    sims: np.ndarray, active: np.ndarray, target: int, k_leaves: int, cpuct: float, fpu: float,
    fpu_parent: bool, vloss: float, mask: np.uint64, margin_weight: float, solver: bool
) -> None:  # fmt: skip
    """Descend up to ``k_leaves`` times in each active tree; fill the leaf slots.

    An unvisited move is worth ``fpu``, or with ``fpu_parent`` the net's value of the node it
    leaves minus ``fpu`` (Leela's first-play urgency: unexplored moves are assumed a little
    worse than the position, wherever the position stands).

    Terminal nodes are backed up at once, and with ``solver`` solved nodes too (their proved
    value), while moves that cannot beat what their node already has proved are passed over;
    a solved move's value is its proved one. A descent that meets a leaf already pending in
    this round (a collision) undoes its virtual loss and ends that tree's round.
    """
    np_, no_, nfirst, nnum, nstate, nvalue, nvisit = nodes
    nlow, nhigh = bounds
    emove, eprior, en, ew, echild = edges
    leaf_node, leaf_p, leaf_o, path_e, path_n, path_len = leaves
    n_games = active.shape[0]
    max_nodes = np_.shape[1]
    for g in prange(n_games):
        for k in range(leaf_node.shape[1]):
            leaf_node[g, k] = -1
            path_len[g, k] = 0
        if not active[g]:
            continue
        for k in range(k_leaves):
            if sims[g] >= target:
                break
            node = 0
            d = 0
            stuck = False
            while nstate[g, node] == EXPANDED:
                if solver and nlow[g, node] == nhigh[g, node]:
                    break  # solved: backed up below as a finished game is
                first = nfirst[g, node]
                sq = np.sqrt(max(nvisit[g, node], 1.0))
                best = -1e30
                be = first
                unvisited = nvalue[g, node] - fpu if fpu_parent else fpu
                for e in range(first, first + nnum[g, node]):
                    n = en[g, e]
                    q = ew[g, e] / n if n > 0.0 else unvisited
                    if solver:
                        lo, hi = _child_bounds(echild[g, e], g, nlow, nhigh)
                        low = nlow[g, node]
                        if hi < low or (hi == low and lo < hi):
                            # No better than a move proved to reach ``low``. That move itself
                            # stays in play: passing it over would leave the node's mean
                            # value to its worse moves, an optimistic view of it for the
                            # side that meets it.
                            continue
                        if lo == hi:
                            q = _margin_value(lo, mask, margin_weight)
                    u = q + cpuct * eprior[g, e] * sq / (1.0 + n)
                    if u > best:
                        best = u
                        be = e
                child = echild[g, be]
                if child < 0:
                    if ncount[g] >= max_nodes or d >= MAX_DEPTH:
                        stuck = True
                        break
                    child = ncount[g]
                    ncount[g] += 1
                    m = emove[g, be]
                    p = np_[g, node]
                    o = no_[g, node]
                    if m == PASS:
                        np_[g, child] = o
                        no_[g, child] = p
                    else:
                        np_[g, child], no_[g, child] = play(p, o, m)
                    nstate[g, child] = UNEXPANDED
                    nvisit[g, child] = 0.0
                    nlow[g, child] = -MARGIN_LIMIT
                    nhigh[g, child] = MARGIN_LIMIT
                    echild[g, be] = child
                en[g, be] += vloss
                ew[g, be] -= vloss
                nvisit[g, node] += vloss
                path_e[g, k, d] = be
                path_n[g, k, d] = node
                d += 1
                node = child
            if stuck:
                _revert(g, k, d, vloss, path_e, path_n, en, ew, nvisit)
                break
            st = nstate[g, node]
            if st == UNEXPANDED:
                p = np_[g, node]
                o = no_[g, node]
                if game_over(p, o, mask):
                    nstate[g, node] = TERMINAL
                    nvalue[g, node] = _terminal_value(p, o, mask, margin_weight)
                    st = TERMINAL
                    if solver:
                        margin = final_margin(p, o, mask)
                        nlow[g, node] = margin
                        nhigh[g, node] = margin
                        _prove_up(g, k, d, path_e, path_n, nfirst, nnum, echild, nlow, nhigh)
                else:
                    nstate[g, node] = PENDING
                    leaf_node[g, k] = node
                    leaf_p[g, k] = p
                    leaf_o[g, k] = o
                    path_len[g, k] = d
                    continue
            if st in (TERMINAL, LEAF_ONLY, EXPANDED):  # EXPANDED here: solved (solver only)
                v = nvalue[g, node]
                if st == EXPANDED:
                    v = _margin_value(int(nlow[g, node]), mask, margin_weight)
                _backup(g, k, d, v, vloss, path_e, path_n, en, ew, nvisit)
                nvisit[g, node] += 1.0
                sims[g] += 1
            else:  # PENDING: another descent of this round already waits on this leaf
                _revert(g, k, d, vloss, path_e, path_n, en, ew, nvisit)
                break


def _expand_backup(
    nodes: Arrays, edges: Arrays, leaves: Arrays, ecount: np.ndarray, sims: np.ndarray,
    vloss: float, mask: np.uint64, slot: np.ndarray, probs: np.ndarray, values: np.ndarray
) -> None:  # fmt: skip
    """Expand every pending leaf with its evaluated priors and back its value up.

    ``slot[g, k]`` is the row of ``probs`` / ``values`` that holds leaf ``(g, k)``.
    """
    np_, no_, nfirst, nnum, nstate, nvalue, nvisit = nodes
    emove, eprior, en, ew, echild = edges
    leaf_node, _, _, path_e, path_n, path_len = leaves
    max_edges = emove.shape[1]
    for g in prange(leaf_node.shape[0]):
        for k in range(leaf_node.shape[1]):
            node = leaf_node[g, k]
            if node < 0:
                continue
            row = slot[g, k]
            v = values[row]
            nvalue[g, node] = v
            p = np_[g, node]
            o = no_[g, node]
            moves = legal_moves(p, o, mask)
            count = popcount(moves) if moves else 1
            if ecount[g] + count > max_edges:
                nstate[g, node] = LEAF_ONLY
            else:
                first = ecount[g]
                ecount[g] += count
                nfirst[g, node] = first
                nnum[g, node] = count
                if moves == 0:
                    emove[g, first] = PASS
                    eprior[g, first] = 1.0
                    en[g, first] = 0.0
                    ew[g, first] = 0.0
                    echild[g, first] = -1
                else:
                    total = 0.0
                    e = first
                    while moves:
                        sq = lowest_square(moves)
                        moves &= moves - U1
                        pr = max(float(probs[row, sq]), 0.0)
                        emove[g, e] = sq
                        eprior[g, e] = pr
                        en[g, e] = 0.0
                        ew[g, e] = 0.0
                        echild[g, e] = -1
                        total += pr
                        e += 1
                    for e in range(first, first + count):
                        if total > 1e-12:
                            eprior[g, e] /= total
                        else:
                            eprior[g, e] = 1.0 / count
                nstate[g, node] = EXPANDED
            _backup(g, k, path_len[g, k], v, vloss, path_e, path_n, en, ew, nvisit)
            nvisit[g, node] += 1.0
            sims[g] += 1


select_leaves, select_leaves_parallel = serial_and_parallel(_select_leaves)
expand_backup, expand_backup_parallel = serial_and_parallel(_expand_backup)
SELECT_WORK = 30
"""Rough work units (bitboard moves) of one descent, for :func:`bitflip.core.parallel.call`."""


@njit(cache=True)
def add_root_noise(
    nfirst: np.ndarray, nnum: np.ndarray, nstate: np.ndarray, eprior: np.ndarray,
    which: np.ndarray, alpha: float, eps: float, seed: int
) -> None:  # fmt: skip
    """Mix Dirichlet(alpha) noise into the root priors of the chosen trees (AlphaZero)."""
    np.random.seed(seed)
    for g in range(which.shape[0]):
        if not which[g] or nstate[g, 0] != EXPANDED:
            continue
        first = nfirst[g, 0]
        n = nnum[g, 0]
        if n < 2:
            continue
        noise = np.empty(n)
        total = 0.0
        for i in range(n):
            noise[i] = np.random.gamma(alpha, 1.0)
            total += noise[i]
        for i in range(n):
            eprior[g, first + i] = (1.0 - eps) * eprior[g, first + i] + eps * noise[i] / total


@njit(cache=True)
def drop_disproved_root_moves(
    nfirst: np.ndarray, nnum: np.ndarray, nstate: np.ndarray, emove: np.ndarray,
    echild: np.ndarray, nlow: np.ndarray, nhigh: np.ndarray, mask: np.uint64,
    margin_weight: float, out_visits: np.ndarray, out_q: np.ndarray
) -> None:  # fmt: skip
    """With ``solver``: zero the visits of root moves proved worse than another (at best what
    the root already has for sure, and not sure of it), so the most visited move is none of
    them; a solved root's value is its proved one."""
    for g in range(out_visits.shape[0]):
        if nstate[g, 0] != EXPANDED:
            continue
        low = nlow[g, 0]
        for e in range(nfirst[g, 0], nfirst[g, 0] + nnum[g, 0]):
            lo, hi = _child_bounds(echild[g, e], g, nlow, nhigh)
            if hi <= low and lo < low:
                out_visits[g, emove[g, e]] = 0.0
        if low == nhigh[g, 0]:
            out_q[g] = _margin_value(int(low), mask, margin_weight)


@njit(cache=True)
def root_stats(
    nfirst: np.ndarray, nnum: np.ndarray, nstate: np.ndarray, emove: np.ndarray,
    en: np.ndarray, ew: np.ndarray, out_visits: np.ndarray, out_q: np.ndarray
) -> None:  # fmt: skip
    """Root visit counts per move (65 columns, PASS = 64) and the root value for its mover."""
    out_visits[:] = 0.0
    for g in range(out_visits.shape[0]):
        out_q[g] = 0.0
        if nstate[g, 0] != EXPANDED:
            continue
        tn = 0.0
        tw = 0.0
        first = nfirst[g, 0]
        for e in range(first, first + nnum[g, 0]):
            out_visits[g, emove[g, e]] = en[g, e]
            tn += en[g, e]
            tw += ew[g, e]
        if tn > 0.0:
            out_q[g] = tw / tn
