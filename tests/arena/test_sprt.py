"""SPRT log-likelihood ratios against hand-computed cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bitflip.arena.ratings import elo_from_score, score_from_elo
from bitflip.arena.sprt import SequentialTest, llr_bounds, sprt, sprt_pentanomial


def test_wald_bounds() -> None:
    lower, upper = llr_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(
        2.944439, abs=1e-6
    )
    assert llr_bounds(0.05, 0.10) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    with pytest.raises(ValueError):
        llr_bounds(0.0, 0.5)


def test_no_draws_is_the_binomial_ratio() -> None:
    # Without draws the fitted distribution under H is Bernoulli(s): LLR = W ln(s1/s0) + L ln(...).
    r = sprt(60, 0, 40, elo0=0.0, elo1=elo_from_score(0.6))
    assert r.llr == pytest.approx(60 * math.log(0.6 / 0.5) + 40 * math.log(0.4 / 0.5), abs=1e-9)
    assert r.decision is None and r.games == 100
    r = sprt(90, 0, 60, elo0=0.0, elo1=elo_from_score(0.6))
    assert r.llr == pytest.approx(90 * math.log(1.2) + 60 * math.log(0.8))  # 3.02 > 2.94
    assert r.decision == "H1" and r.a_is_better


def test_trinomial_matches_the_normal_approximation() -> None:
    # For many games and close hypotheses, LLR ~ N (s1 - s0)(2 mean - s0 - s1) / (2 var).
    w, d, losses = 1020, 1000, 980
    n = w + d + losses
    mean = (w + 0.5 * d) / n
    var = (w * (1 - mean) ** 2 + d * (0.5 - mean) ** 2 + losses * mean**2) / n
    s0, s1 = score_from_elo(0), score_from_elo(10)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert sprt(w, d, losses, 0, 10).llr == pytest.approx(approx, rel=0.01)


def test_trinomial_llr_against_brute_force() -> None:
    # Under mean s a trinomial is (loss, draw, win) = (1 - d - (s - d/2), d, s - d/2); maximise the
    # log-likelihood over the draw rate d on a fine grid for each hypothesis.
    w, d, losses = 20, 50, 30

    def best_loglik(s: float) -> float:
        dr = np.linspace(1e-9, 1, 2_000_001)
        win = s - dr / 2
        loss = 1 - dr - win
        ok = (win > 0) & (loss > 0)
        ll = w * np.log(win[ok]) + d * np.log(dr[ok]) + losses * np.log(loss[ok])
        return float(ll.max())

    s0, s1 = score_from_elo(-50), score_from_elo(20)
    assert sprt(w, d, losses, -50, 20).llr == pytest.approx(
        best_loglik(s1) - best_loglik(s0), abs=1e-6
    )


def test_a_clearly_better_agent_is_accepted_and_an_equal_one_rejected() -> None:
    assert sprt(40, 10, 5, 0, 50).decision == "H1"
    assert sprt(300, 400, 300, 0, 30).decision == "H0"
    assert sprt(30, 0, 0, 0, 100).decision == "H1"  # one-sided sample stays finite


def test_pentanomial_and_sequential_test() -> None:
    r = sprt_pentanomial([2, 10, 20, 30, 8], 0, 50)
    assert r.games == 140 and r.llr > 0
    t = SequentialTest(elo0=0, elo1=50)
    for a, b in [(1.0, 0.5), (1.0, 1.0), (0.5, 0.0)] * 10:
        t.add_pair(a, b)
    assert t.pairs == [0, 10, 0, 10, 10]
    assert t.result() == sprt_pentanomial([0, 10, 0, 10, 10], 0, 50)
    t.add(1.0)  # an odd game: falls back to the trinomial test
    assert t.result() == sprt(t.wins, t.draws, t.losses, 0, 50)
    with pytest.raises(ValueError):
        sprt(1, 1, 1, 10, 0)
    with pytest.raises(ValueError):
        sprt_pentanomial([1, 2, 3], 0, 10)
