"""One-off experiment (issue 32, step 4): the pattern fit as one regularised least-squares solve.

The shipped fit is normalised-LMS SGD (``bitflip.learn.patterns_fit``). This solves the same
problem to convergence instead: per phase, minimise the squared error of the samples (each
sample also in the two phases beside its own at weight ``--neighbours``, as the SGD does) plus
``--ridge`` x |w|^2 plus ``--smooth`` x |w_phase - w_next_phase|^2, by conjugate gradients with
a diagonal preconditioner over the precomputed table indices (about 4 GB for 11 M samples;
3-10 s an iteration on one core). It reads the fit's sample cache from ``cfg.out`` (``--cache``)
and writes a weights file with its card, as ``bitflip train patterns`` does.

    PYTHONPATH=src python benchmarks/results/ntest/lsq_fit.py --config CONFIG.toml \
        --cache RUN_FOLDER --out OUT --ridge 2 --neighbours 0.5 --iters 70

Result (RESULTS-ntest.md, "Step 4"): as strong as the SGD fit, not stronger.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np
from numba import njit

from bitflip.eval.patterns import FEATURES, LAYOUT, ORIENT_LEN
from bitflip.eval.patterns import phase_map as make_phase_map
from bitflip.learn.patterns_config import PatternsFitConfig
from bitflip.learn.patterns_data import fit_data
from bitflip.learn.patterns_fit import _Checkpoint, _held_out, _predict_one, _write_result

N_IN = ORIENT_LEN.shape[0] + len(FEATURES)
RAW_STRIDE = LAYOUT.raw_stride


@njit(cache=True)
def build_index(p, o, phases):
    """Each sample's phase and the table entries it reads (as the SGD fit reads them)."""
    n = p.shape[0]
    idx = np.zeros((n, N_IN), dtype=np.int32)
    ph = np.zeros(n, dtype=np.int8)
    tmp = np.zeros(N_IN, dtype=np.int64)
    zeros = np.zeros((phases.max() + 1, RAW_STRIDE))
    for i in range(n):
        ph[i] = _predict_one(zeros, phases, p[i], o[i], tmp)[1]
        idx[i] = tmp
    return idx, ph


@njit(cache=True)
def _share(phase, d, nw, n_ph):
    """(phase, share) of a sample's d-th copy: its own phase at 1, the two beside it at ``nw``
    (share 0: no such copy)."""
    k = phase + (0, -1, 1)[d]
    if d == 0:
        return k, 1.0
    if nw == 0.0 or k < 0 or k >= n_ph:
        return k, 0.0
    return k, nw


@njit(cache=True)
def normal_apply(idx, ph, v, out, weight, nw, n_ph):
    """out += X^T W X v (bias column included)."""
    for i in range(idx.shape[0]):
        for d in range(3):
            k, share = _share(ph[i], d, nw, n_ph)
            if share == 0.0:
                continue
            s = v[k, 0]
            for j in range(idx.shape[1]):
                s += v[k, idx[i, j]]
            _scatter(out, k, idx[i], s * weight[i] * share)


@njit(cache=True)
def rhs(idx, ph, y, weight, out, nw, n_ph):
    """out += X^T W y."""
    for i in range(idx.shape[0]):
        for d in range(3):
            k, share = _share(ph[i], d, nw, n_ph)
            if share > 0.0:
                _scatter(out, k, idx[i], y[i] * weight[i] * share)


@njit(cache=True)
def _scatter(out, k, entries, s):
    out[k, 0] += s
    for j in range(entries.shape[0]):
        out[k, entries[j]] += s


@njit(cache=True)
def diag(idx, ph, weight, out, seen, nw, n_ph):
    """Diagonal of X^T W X: sum over samples of weight x multiplicity^2."""
    for i in range(idx.shape[0]):
        for j in range(idx.shape[1]):
            seen[idx[i, j]] += 1
        for d in range(3):
            k, share = _share(ph[i], d, nw, n_ph)
            if share == 0.0:
                continue
            c = weight[i] * share
            out[k, 0] += c
            for j in range(idx.shape[1]):
                m = seen[idx[i, j]]
                out[k, idx[i, j]] += c * m  # m reads of an entry: m^2 in all
        for j in range(idx.shape[1]):
            seen[idx[i, j]] = 0


def smooth_apply(v, smooth):
    """smooth x (chain Laplacian over phases) v."""
    out = np.zeros_like(v)
    d = v[1:] - v[:-1]
    out[1:] += smooth * d
    out[:-1] -= smooth * d
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/patterns.toml")
    ap.add_argument("--out", required=True)
    ap.add_argument("--cache", required=True, help="run folder holding the sample cache")
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--smooth", type=float, default=0.0)
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument(
        "--neighbours",
        type=float,
        default=0.0,
        help="weight of each sample in the phases beside its own",
    )
    args = ap.parse_args()
    cfg = PatternsFitConfig.from_toml(args.config)
    cfg = replace(cfg, out=args.cache)
    t0 = time.time()
    data = fit_data(cfg, None, print)
    phases = make_phase_map(cfg.phases)
    tr = data.train
    idx, ph = build_index(tr.p, tr.o, phases)
    y = tr.target.astype(np.float64)
    w = np.ones(len(tr), dtype=np.float64)
    print(f"index built: {idx.shape} in {time.time() - t0:.0f} s", flush=True)
    shape = (cfg.phases, LAYOUT.raw_stride)
    b = np.zeros(shape)
    rhs(idx, ph, y, w, b, args.neighbours, cfg.phases)
    dg = np.zeros(shape)
    diag(idx, ph, w, dg, np.zeros(LAYOUT.raw_stride, dtype=np.int64), args.neighbours, cfg.phases)
    deg = np.full(cfg.phases, 2.0)
    deg[0] = deg[-1] = 1.0
    m_inv = 1.0 / (dg + args.ridge + args.smooth * deg[:, None])

    def a_apply(v):
        out = args.ridge * v + smooth_apply(v, args.smooth)
        normal_apply(idx, ph, v, out, w, args.neighbours, cfg.phases)
        return out

    x = np.zeros(shape)
    r = b - a_apply(x)
    z = m_inv * r
    pdir = z.copy()
    rz = float((r * z).sum())
    b_norm = float(np.sqrt((b * b).sum()))
    state = _Checkpoint(x)
    for it in range(args.iters):
        ap_ = a_apply(pdir)
        alpha = rz / float((pdir * ap_).sum())
        x += alpha * pdir
        r -= alpha * ap_
        z = m_inv * r
        rz_new = float((r * z).sum())
        pdir = z + (rz_new / rz) * pdir
        rz = rz_new
        if it % 10 == 9 or it == args.iters - 1:
            mae = _held_out(x, phases, data.test)[1]
            res = float(np.sqrt((r * r).sum())) / b_norm
            took = time.time() - t0
            print(f"iter {it + 1}: residual {res:.2e}, held-out MAE {mae:.3f} ({took:.0f} s)")
    cfg = replace(cfg, out=args.out)
    state.raw = x
    state.history = [_held_out(x, phases, data.test)[1]]
    state.epoch = args.iters
    res = _write_result(cfg, state, phases, data)
    print(res)


if __name__ == "__main__":
    main()
