"""Elo maximum likelihood and its intervals against hand-computed cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bitflip.arena.ratings import (
    ELO_PER_NAT,
    Z95,
    elo_from_score,
    fit_elo,
    head_to_head,
    score_from_elo,
)


def games(a: str, b: str, wins: int, draws: int, losses: int) -> list[tuple[str, str, float]]:
    """``a``'s results against ``b``, alternating colours."""
    out = []
    for i, s in enumerate([1.0] * wins + [0.5] * draws + [0.0] * losses):
        out.append((a, b, s) if i % 2 == 0 else (b, a, 1.0 - s))
    return out


def test_two_players_three_to_one() -> None:
    # 75% score: Elo difference 400 log10(3); Fisher information n p (1 - p) = 18.75 per nat^2.
    h = head_to_head(games("a", "b", 70, 10, 20))
    t = fit_elo(h, anchor="b")
    assert t["b"].elo == 0.0 and t["b"].ci == 0.0
    assert t["a"].elo == pytest.approx(400 * math.log10(3), abs=1e-6)
    se = ELO_PER_NAT / math.sqrt(100 * 0.75 * 0.25)
    assert t["a"].ci == pytest.approx(Z95 * se, rel=1e-6)  # 78.63
    assert t["a"].ci == pytest.approx(78.63, abs=0.01)
    assert (t["a"].wins, t["a"].draws, t["a"].losses, t["a"].points) == (70, 10, 20, 75.0)
    assert not t.regularized and [r.name for r in t.ratings] == ["a", "b"]


def test_anchor_value_shifts_everything() -> None:
    h = head_to_head(games("a", "b", 70, 10, 20))
    t = fit_elo(h, anchor="a", anchor_elo=1500)
    assert t["a"].elo == 1500 and t["b"].elo == pytest.approx(1500 - 190.8485, abs=1e-3)
    assert t["b"].ci == pytest.approx(78.63, abs=0.01)


def test_chain_adds_differences_and_variances() -> None:
    # a-b and b-c both 75%: a is 2 * 190.85 above c; var(a - c) = 2 / 18.75 nat^2.
    h = head_to_head(games("a", "b", 75, 0, 25) + games("b", "c", 75, 0, 25))
    t = fit_elo(h, anchor="c")
    assert t["a"].elo == pytest.approx(800 * math.log10(3), abs=1e-6)
    assert t["b"].elo == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert t["a"].ci == pytest.approx(Z95 * ELO_PER_NAT * math.sqrt(2 / 18.75), rel=1e-6)
    diff, ci = t.difference("a", "b")
    assert diff == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert ci == pytest.approx(Z95 * ELO_PER_NAT / math.sqrt(18.75), rel=1e-6)


def test_rock_paper_scissors_is_level() -> None:
    h = head_to_head(games("a", "b", 3, 0, 1) + games("b", "c", 3, 0, 1) + games("c", "a", 3, 0, 1))
    t = fit_elo(h)
    for r in t.ratings:
        assert r.elo == pytest.approx(0.0, abs=1e-9)
        assert r.score == pytest.approx(0.5)


def test_draws_count_half() -> None:
    h = head_to_head(games("a", "b", 0, 40, 0))
    t = fit_elo(h, anchor="b")
    assert t["a"].elo == pytest.approx(0.0, abs=1e-9)
    assert t["a"].ci == pytest.approx(Z95 * ELO_PER_NAT / math.sqrt(40 * 0.25), rel=1e-6)
    h2 = head_to_head(games("a", "b", 20, 0, 20))
    assert fit_elo(h2, anchor="b")["a"].ci == pytest.approx(t["a"].ci)


def test_perfect_record_is_regularized_with_virtual_draws() -> None:
    # 10 wins out of 10: infinite MLE; one virtual draw makes it 10.5 of 11.
    h = head_to_head(games("a", "b", 10, 0, 0))
    t = fit_elo(h, anchor="b")
    assert t.regularized
    assert t["a"].elo == pytest.approx(elo_from_score(10.5 / 11), abs=1e-6)
    assert (t["a"].games, t["a"].points) == (10, 10.0)  # the table shows the real games


def test_head_to_head_tallies_both_colours() -> None:
    h = head_to_head([("a", "b", 1.0), ("b", "a", 1.0), ("b", "a", 0.5)], names=["a", "b", "c"])
    a, b = h.index("a"), h.index("b")
    assert h.wins[a, b] == 1 and h.losses[a, b] == 1 and h.draws[a, b] == 1
    assert h.points[a, b] == 1.5 and h.points[b, a] == 1.5 and h.games[a, b] == 3
    rate = h.score_rate()
    assert rate[a, b] == 0.5 and np.isnan(rate[a, h.index("c")])


def test_errors() -> None:
    with pytest.raises(ValueError, match="at least two"):
        fit_elo(head_to_head([], names=["a"]))
    with pytest.raises(ValueError, match="'c' has no games"):
        fit_elo(head_to_head(games("a", "b", 1, 0, 1), names=["a", "b", "c"]))
    with pytest.raises(ValueError, match="never met"):
        fit_elo(head_to_head(games("a", "b", 1, 0, 1) + games("c", "d", 1, 0, 1)))
    with pytest.raises(ValueError, match="0.5 or 0"):
        head_to_head([("a", "b", 0.7)])
    with pytest.raises(ValueError, match="no games of 'x'"):
        fit_elo(head_to_head(games("a", "b", 1, 0, 1)), anchor="x")


def test_elo_score_round_trip() -> None:
    assert score_from_elo(0) == 0.5
    assert elo_from_score(0.75) == pytest.approx(190.8485, abs=1e-4)
    for e in (-300.0, -10.0, 55.5, 400.0):
        assert elo_from_score(score_from_elo(e)) == pytest.approx(e)
    with pytest.raises(ValueError):
        elo_from_score(1.0)
