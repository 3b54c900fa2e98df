"""Sequential probability ratio test: "is A better than B?" with as few games as possible.

H0: A's Elo advantage is ``elo0``; H1: it is ``elo1`` (logistic Elo, draws as half a point).
After each game (or pair of games) the log-likelihood ratio is compared with the bounds
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``: above the upper bound H1 is
accepted (A is better), below the lower one H0; in between, play on. The LLR is the
generalized SPRT of Michel Van den Bergh, as in fishtest: the outcome distribution (trinomial
for single games, pentanomial for colour-swapped pairs) is fitted by maximum likelihood under
each hypothesis's expected score, so draws and pairing are accounted for without a draw model.

>>> r = sprt(wins=60, draws=0, losses=40, elo0=0.0, elo1=elo_from_score(0.6))
>>> round(r.llr, 3), r.decision   # 60 ln(0.6/0.5) + 40 ln(0.4/0.5)
(2.014, None)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from bitflip.arena.ratings import elo_from_score, score_from_elo

__all__ = [
    "SequentialTest",
    "SprtResult",
    "elo_from_score",
    "gsprt_llr",
    "llr_bounds",
    "sprt",
    "sprt_pentanomial",
]

_ZERO_COUNT = 1e-3
"""Stand-in for an outcome never seen, so that a one-sided sample still has a finite LLR
(as fishtest does)."""


@dataclass(frozen=True)
class SprtResult:
    """Where the test stands: the LLR, its bounds and the decision (None: play on)."""

    llr: float
    lower: float
    upper: float
    elo0: float
    elo1: float
    games: int
    decision: str | None
    """``"H1"`` (A is better by about ``elo1``), ``"H0"`` (not better than ``elo0``) or None."""

    @property
    def a_is_better(self) -> bool | None:
        return None if self.decision is None else self.decision == "H1"


def llr_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's (lower, upper) bounds for error rates ``alpha`` (false H1) and ``beta`` (false H0)."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"alpha and beta must lie strictly between 0 and 1, not {alpha}, {beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _fit_with_mean(values: np.ndarray, freq: np.ndarray, s: float) -> np.ndarray:
    """The distribution on ``values`` closest (in likelihood) to ``freq`` with mean ``s``."""
    d = values - s
    if d.max() <= 0 or d.min() >= 0:
        raise ValueError(f"an expected score of {s} is outside the outcomes {values.tolist()}")
    lo, hi = -1.0 / d.max(), -1.0 / d.min()
    # f(lam) = sum freq * d / (1 + lam * d) decreases from +inf at lo to -inf at hi.
    lo, hi = lo + 1e-12 * (hi - lo), hi - 1e-12 * (hi - lo)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if float((freq * d / (1 + mid * d)).sum()) > 0:
            lo = mid
        else:
            hi = mid
    p = freq / (1 + 0.5 * (lo + hi) * d)
    return np.asarray(p / p.sum())


def gsprt_llr(values: Sequence[float], counts: Sequence[float], s0: float, s1: float) -> float:
    """Generalized SPRT log-likelihood ratio of H1 (mean score ``s1``) against H0 (``s0``).

    Args:
        values: the possible scores of one trial (e.g. 0, 0.5, 1), each in [0, 1].
        counts: how often each value occurred.
        s0: the expected score under H0.
        s1: the expected score under H1.
    """
    v = np.asarray(values, dtype=float)
    c = np.asarray(counts, dtype=float)
    if v.shape != c.shape or (c < 0).any():
        raise ValueError("values and counts must match in length and counts be >= 0")
    n = c.sum()
    if n == 0:
        return 0.0
    seen = v[c > 0]
    if not (seen.min() < min(s0, s1) and max(s0, s1) < seen.max()):
        # The sample cannot have either mean (e.g. all wins): give unseen outcomes a trace.
        c = np.where(c > 0, c, _ZERO_COUNT)
    freq = c / c.sum()
    p0 = _fit_with_mean(v, freq, s0)
    p1 = _fit_with_mean(v, freq, s1)
    seen_now = freq > 0
    return float(n * (freq[seen_now] * np.log(p1[seen_now] / p0[seen_now])).sum())


def _result(
    llr: float, games: int, elo0: float, elo1: float, alpha: float, beta: float
) -> SprtResult:
    lower, upper = llr_bounds(alpha, beta)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SprtResult(llr, lower, upper, elo0, elo1, games, decision)


def sprt(
    wins: int,
    draws: int,
    losses: int,
    elo0: float = 0.0,
    elo1: float = 10.0,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> SprtResult:
    """SPRT of H1 (A is ``elo1`` better) against H0 (``elo0``) from A's game results."""
    if elo1 <= elo0:
        raise ValueError(f"elo1 must be above elo0, not {elo1} <= {elo0}")
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    llr = gsprt_llr((0.0, 0.5, 1.0), (losses, draws, wins), s0, s1)
    return _result(llr, wins + draws + losses, elo0, elo1, alpha, beta)


def sprt_pentanomial(
    pairs: Sequence[int],
    elo0: float = 0.0,
    elo1: float = 10.0,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> SprtResult:
    """SPRT from colour-swapped game pairs: ``pairs[k]`` counts pairs where A scored ``k/2``.

    Pairs share an opening, so their two results are correlated; counting pairs (0, 0.5, 1,
    1.5 or 2 points) instead of games keeps the test honest about that.
    """
    if len(pairs) != 5:
        raise ValueError(f"a pentanomial has 5 counts (0, 0.5, 1, 1.5, 2 points), not {len(pairs)}")
    if elo1 <= elo0:
        raise ValueError(f"elo1 must be above elo0, not {elo1} <= {elo0}")
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    llr = gsprt_llr((0.0, 0.25, 0.5, 0.75, 1.0), pairs, s0, s1)
    return _result(llr, 2 * sum(pairs), elo0, elo1, alpha, beta)


@dataclass
class SequentialTest:
    """An SPRT fed one result at a time, for loops that stop as soon as it decides.

    >>> t = SequentialTest(elo0=0, elo1=100)
    >>> for _ in range(30):
    ...     t.add(1.0)
    >>> t.result().decision
    'H1'
    """

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    wins: int = 0
    draws: int = 0
    losses: int = 0
    pairs: list[int] = field(default_factory=lambda: [0] * 5)

    def add(self, score: float) -> None:
        """Record one game of A: 1, 0.5 or 0."""
        if score == 1.0:
            self.wins += 1
        elif score == 0.5:
            self.draws += 1
        elif score == 0.0:
            self.losses += 1
        else:
            raise ValueError(f"a game score is 1, 0.5 or 0, not {score!r}")

    def add_pair(self, first: float, second: float) -> None:
        """Record a colour-swapped pair of A's games (also counted as two games)."""
        self.add(first)
        self.add(second)
        self.pairs[round(2 * (first + second))] += 1

    def result(self) -> SprtResult:
        """The pentanomial test when every game came in pairs, else the trinomial one."""
        n_pairs = int(np.sum(self.pairs))
        if n_pairs and 2 * n_pairs == self.wins + self.draws + self.losses:
            return sprt_pentanomial(self.pairs, self.elo0, self.elo1, self.alpha, self.beta)
        return sprt(self.wins, self.draws, self.losses, self.elo0, self.elo1, self.alpha, self.beta)
