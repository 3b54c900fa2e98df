"""How often do search-tree leaves read pattern entries the fit barely saw? (diagnostic)"""

import time

import numpy as np
from numba import njit

from bitflip.core.bitboard import FULL, U1, flips, legal_moves, lowest_square, popcount
from bitflip.eval.patterns import LAYOUT, ORIENT_LEN, orientation_indices, phase_map

z = np.load("/work/runs/patterns-f1/samples-1c32dc84f51c.npz")
P, OPP, G, held = z["p"], z["o"], z["game"], z["held"]
train = ~held[G]
phases = phase_map(15)


@njit(cache=True)
def count_entries(p, o, phases, counts):
    idx = np.zeros(ORIENT_LEN.shape[0], np.int64)
    for i in range(p.shape[0]):
        ph = phases[64 - popcount(p[i] | o[i])]
        orientation_indices(p[i], o[i], idx)
        for j in range(idx.shape[0]):
            counts[ph, idx[j]] += 1


@njit(cache=True)
def leaves(p, o, depth, out, n, every, state):
    moves = legal_moves(p, o, FULL)
    if depth == 0 or moves == 0:
        state[0] += 1
        if state[0] % every == 0 and n[0] < out.shape[0]:
            out[n[0], 0] = p
            out[n[0], 1] = o
            n[0] += 1
        return
    while moves:
        sq = lowest_square(moves)
        moves &= moves - U1
        f = flips(p, o, sq)
        leaves(o ^ f, p | f | (U1 << np.uint64(sq)), depth - 1, out, n, every, state)


@njit(cache=True)
def rare_share(p, o, phases, counts, k):
    idx = np.zeros(ORIENT_LEN.shape[0], np.int64)
    rare = 0
    tot = 0
    pos_with = 0
    for i in range(p.shape[0]):
        ph = phases[64 - popcount(p[i] | o[i])]
        orientation_indices(p[i], o[i], idx)
        any_ = False
        for j in range(idx.shape[0]):
            tot += 1
            if counts[ph, idx[j]] < k:
                rare += 1
                any_ = True
        pos_with += any_
    return rare / tot, pos_with / p.shape[0]


counts = np.zeros((15, LAYOUT.raw_stride), np.int64)
t = time.time()
count_entries(P[train], OPP[train], phases, counts)
print("counted", time.time() - t)
rng = np.random.default_rng(1)
hp, ho = P[held[G]], OPP[held[G]]
first = zip(hp[:200000], ho[:200000], strict=True)
e = 64 - np.array([bin(int(a | b)).count("1") for a, b in first])
sel = np.flatnonzero((e >= 20) & (e <= 50))[:20000]
gp, go = hp[sel], ho[sel]
# leaves of full-width depth-4 trees from held-out game positions (all leaves, sampled 1 in 37)
out = np.zeros((200000, 2), np.uint64)
n = np.zeros(1, np.int64)
st = np.zeros(1, np.int64)
for i in rng.permutation(len(gp))[:3000]:
    leaves(gp[i], go[i], 4, out, n, 37, st)
lp, lo = out[: n[0], 0].copy(), out[: n[0], 1].copy()
for k in (1, 5, 20):
    games_share = rare_share(gp, go, phases, counts, k)
    leaves_share = rare_share(lp, lo, phases, counts, k)
    print(f"k={k}: held-out game positions: lookups {games_share}; depth-4 leaves ({n[0]}): "
          f"{leaves_share}")  # fmt: skip
