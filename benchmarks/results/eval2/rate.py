"""One-off (issue 32, 2026-11-27): labels a CPU second at levels 6, 8 and 10 on WTHOR positions
moved 1-6 random moves off their games (reads a pattern fit's sample cache from /work/runs)."""

import time

import numpy as np

from bitflip.learn.eval_labels import _random_step, label_chunk

z = np.load("/work/runs/patterns-f1/samples-1c32dc84f51c.npz")
P, OPP = z["p"], z["o"]
rng = np.random.default_rng(2)
idx = rng.choice(len(P), 400, replace=False)
p, o = P[idx].copy(), OPP[idx].copy()
for i in range(len(p)):
    for _ in range(rng.integers(1, 7)):
        p[i], o[i] = _random_step(p[i], o[i], rng)
e = 64 - np.array([bin(int(a | b)).count("1") for a, b in zip(p, o, strict=True)])
keep = (e >= 12) & (e <= 56)
p, o = p[keep], o[keep]
label_chunk(p[:5], o[:5], 6)
for level in (6, 8, 10):
    t = time.process_time()
    s = label_chunk(p[:200], o[:200], level)
    dt = time.process_time() - t
    print(level, f"{200 / dt:.0f} labels per CPU s", np.round(s[:8], 1))
