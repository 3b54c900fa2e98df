"""Elo ratings by maximum likelihood (Bradley-Terry) with 95% confidence intervals.

The model: ``P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))``; a draw counts as half a win
and half a loss. All games are fitted at once (not updated game by game, so the order of games
does not matter). One player, the *anchor*, is fixed at ``anchor_elo`` (0 by default): ratings
say how much stronger than the anchor a player is, and the intervals are relative to it. They
come from the Fisher information (the inverse Hessian of the log-likelihood); with many draws
they are a little wider than they need be, since a draw carries less variance than a coin flip.

When a player won (or lost) every game against a group, its maximum-likelihood rating is
infinite. The fit then adds one virtual draw to every pair of players that met and says so in
:attr:`RatingTable.regularized` (BayesElo does much the same with its prior).

>>> h = head_to_head([("a", "b", 1.0)] * 3 + [("b", "a", 1.0)])
>>> table = fit_elo(h, anchor="b")
>>> round(table["a"].elo, 1)  # a scores 3 of 4: 400 log10(3)
190.8
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

ELO_PER_NAT = 400.0 / math.log(10.0)
Z95 = 1.959963984540054


@dataclass
class HeadToHead:
    """Points and games between every pair, as square matrices indexed like ``names``.

    ``points[i, j]`` is what ``names[i]`` scored against ``names[j]``; ``wins``, ``draws`` and
    ``losses`` count games from row ``i``'s side.
    """

    names: list[str]
    wins: np.ndarray
    draws: np.ndarray
    losses: np.ndarray

    @property
    def games(self) -> np.ndarray:
        return np.asarray(self.wins + self.draws + self.losses)

    @property
    def points(self) -> np.ndarray:
        return np.asarray(self.wins + 0.5 * self.draws, dtype=float)

    def index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError(f"no games of {name!r}; players: {', '.join(self.names)}") from None

    def score_rate(self) -> np.ndarray:
        """Fraction of the points each row player took against each column (nan: never met)."""
        g = self.games.astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(g > 0, self.points / np.where(g > 0, g, 1), np.nan)


def head_to_head(
    games: Iterable[tuple[str, str, float]], names: Sequence[str] | None = None
) -> HeadToHead:
    """Tally ``(black, white, black's score)`` triples into a :class:`HeadToHead`.

    ``names`` fixes the order (players without games get zero rows); otherwise players appear
    in the order they are first seen.
    """
    order: list[str] = list(names) if names is not None else []
    seen = set(order)
    rows = list(games)
    for b, w, _ in rows:
        for n in (b, w):
            if n not in seen:
                if names is not None:
                    raise ValueError(f"game of {n!r}, who is not among {', '.join(order)}")
                seen.add(n)
                order.append(n)
    idx = {n: i for i, n in enumerate(order)}
    k = len(order)
    wins, draws, losses = (np.zeros((k, k), dtype=np.int64) for _ in range(3))
    for b, w, s in rows:
        i, j = idx[b], idx[w]
        if i == j:
            raise ValueError(f"{b!r} played itself")
        if s == 1.0:
            wins[i, j] += 1
            losses[j, i] += 1
        elif s == 0.0:
            wins[j, i] += 1
            losses[i, j] += 1
        elif s == 0.5:
            draws[i, j] += 1
            draws[j, i] += 1
        else:
            raise ValueError(f"a game score is 1, 0.5 or 0, not {s!r}")
    return HeadToHead(order, wins, draws, losses)


@dataclass(frozen=True)
class Rating:
    """One player's line of the rating table."""

    name: str
    elo: float
    ci: float
    """Half-width of the 95% interval relative to the anchor (0 for the anchor itself)."""
    games: int
    points: float
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        """Fraction of the points taken (nan without games)."""
        return self.points / self.games if self.games else math.nan


@dataclass
class RatingTable:
    """The fitted ratings, best first, and the covariance to compare any two players."""

    ratings: list[Rating]
    anchor: str
    anchor_elo: float
    names: list[str]
    covariance: np.ndarray
    """Covariance of the ratings (Elo^2), indexed like ``names``."""
    regularized: bool = False
    """True when virtual draws were added because some rating was infinite."""

    def __getitem__(self, name: str) -> Rating:
        for r in self.ratings:
            if r.name == name:
                return r
        raise KeyError(name)

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """``elo(a) - elo(b)`` and the half-width of its 95% interval."""
        i, j = self.names.index(a), self.names.index(b)
        c = self.covariance
        var = c[i, i] + c[j, j] - 2 * c[i, j]
        return self[a].elo - self[b].elo, Z95 * math.sqrt(max(var, 0.0))


def _strongly_connected(points: np.ndarray) -> bool:
    """Whether every player can reach every other along "scored against" edges."""
    k = len(points)

    def reach(adj: np.ndarray) -> set[int]:
        seen, todo = {0}, [0]
        while todo:
            i = todo.pop()
            for j in np.nonzero(adj[i])[0]:
                if int(j) not in seen:
                    seen.add(int(j))
                    todo.append(int(j))
        return seen

    return len(reach(points > 0)) == k and len(reach(points.T > 0)) == k


def _connected(games: np.ndarray) -> bool:
    return _strongly_connected(games)


def _newton(points: np.ndarray, games: np.ndarray, anchor: int) -> tuple[np.ndarray, np.ndarray]:
    """Maximise the Bradley-Terry log-likelihood in natural units with ``theta[anchor] = 0``.

    Returns theta and the inverse of the reduced Fisher information (anchor row/column zero).
    """
    k = len(points)
    free = [i for i in range(k) if i != anchor]
    theta = np.zeros(k)

    def loglik(t: np.ndarray) -> float:
        d = t[:, None] - t[None, :]
        # points * log sigmoid(d) summed over ordered pairs covers wins and losses once each
        return float(-(points * np.logaddexp(0.0, -d)).sum())

    def hessian(t: np.ndarray) -> np.ndarray:
        p = 1.0 / (1.0 + np.exp(-(t[:, None] - t[None, :])))
        w = games * p * (1 - p)
        h = -w
        np.fill_diagonal(h, w.sum(axis=1))
        return np.asarray(h)

    ll = loglik(theta)
    for _ in range(200):
        p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
        grad = (points - games * p).sum(axis=1)
        h = hessian(theta)[np.ix_(free, free)]
        step = np.zeros(k)
        step[free] = np.linalg.solve(h, grad[free])
        scale = 1.0
        while scale > 1e-6:
            cand = theta + scale * step
            new = loglik(cand)
            if new >= ll - 1e-12:
                break
            scale /= 2
        theta, ll = cand, new
        if np.abs(scale * step).max() < 1e-10:
            break
    cov = np.zeros((k, k))
    cov[np.ix_(free, free)] = np.linalg.inv(hessian(theta)[np.ix_(free, free)])
    return theta, cov


def fit_elo(
    h2h: HeadToHead,
    anchor: str | None = None,
    anchor_elo: float = 0.0,
) -> RatingTable:
    """Elo ratings of every player of ``h2h`` (maximum likelihood, draws as half).

    Args:
        h2h: the games, as tallied by :func:`head_to_head`.
        anchor: the player fixed at ``anchor_elo`` (default: the first name).
        anchor_elo: the anchor's rating.

    Raises:
        ValueError: fewer than two players, a player without games, or two groups of players
            that never met (their ratings could not be compared).
    """
    names = h2h.names
    if len(names) < 2:
        raise ValueError("ratings need at least two players")
    games = h2h.games.astype(float)
    points = h2h.points.astype(float)
    for i, n in enumerate(names):
        if games[i].sum() == 0:
            raise ValueError(f"{n!r} has no games")
    if not _connected(games):
        raise ValueError("some players never met the others, even indirectly: no common scale")
    a = h2h.index(anchor) if anchor is not None else 0
    regularized = not _strongly_connected(points)
    if regularized:
        met = (games > 0).astype(float)
        games, points = games + met, points + 0.5 * met
    theta, cov = _newton(points, games, a)
    elo = theta * ELO_PER_NAT + anchor_elo
    cov_elo = cov * ELO_PER_NAT**2
    g, p = h2h.games, h2h.points
    ratings = [
        Rating(
            name=n,
            elo=float(elo[i]),
            ci=float(Z95 * math.sqrt(max(cov_elo[i, i], 0.0))),
            games=int(g[i].sum()),
            points=float(p[i].sum()),
            wins=int(h2h.wins[i].sum()),
            draws=int(h2h.draws[i].sum()),
            losses=int(h2h.losses[i].sum()),
        )
        for i, n in enumerate(names)
    ]
    ratings.sort(key=lambda r: -r.elo)
    return RatingTable(ratings, names[a], anchor_elo, list(names), cov_elo, regularized)


def elo_from_score(score: float) -> float:
    """The Elo difference that gives an expected ``score`` (0 < score < 1)."""
    if not 0.0 < score < 1.0:
        raise ValueError(f"score must be strictly between 0 and 1, not {score}")
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger."""
    return float(1.0 / (1.0 + 10.0 ** (-elo / 400.0)))
