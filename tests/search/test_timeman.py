"""Time management: budgets from the game clock never lose on time and follow the phases."""

from __future__ import annotations

import pytest

from bitflip.core.board import Board
from bitflip.engine import Engine
from bitflip.search.limits import Clocks, Limit
from bitflip.search.timeman import SAFETY, budget, phase_weight


def test_budget_never_loses_on_time() -> None:
    # Spend every move's full hard budget: the clock must still not run out.
    for start in (0.3, 1.0, 10.0, 60.0, 600.0):
        clock = start
        for empties in range(60, 0, -2):
            b = budget(Clocks(mine=clock), empties)
            assert 0 < b.soft <= b.hard < clock
            clock -= b.hard
        assert clock > 0


def test_budget_keeps_the_safety_margin_on_a_normal_clock() -> None:
    for empties in (50, 30, 20, 10):
        b = budget(Clocks(mine=20.0), empties)
        assert b.hard <= 20.0 - SAFETY


def test_budget_favours_the_middle_game() -> None:
    c = Clocks(mine=300.0)
    opening, middle, late = budget(c, 56).soft, budget(c, 36).soft, budget(c, 22).soft
    assert opening < middle < late
    assert budget(c, 10).soft < late  # small exact solves are fast
    assert phase_weight(56) < phase_weight(36) < phase_weight(22) and phase_weight(8) < 1


def test_increment_and_moves_to_go_raise_the_budget() -> None:
    base = budget(Clocks(mine=30.0), 40).soft
    assert budget(Clocks(mine=30.0, increment=2.0), 40).soft == pytest.approx(base + 1.6)
    # Five moves to the next time control share the clock among five moves, not all of them.
    assert budget(Clocks(mine=30.0, moves_to_go=5), 40).soft > 3 * base


def test_nearly_empty_clock_uses_part_of_what_is_left() -> None:
    b = budget(Clocks(mine=0.05), 30)
    assert 0 < b.soft <= b.hard <= 0.05 / 2 + 1e-12


def test_engine_plans_with_the_tighter_of_time_and_clock() -> None:
    engine = Engine(level=5, tt_mb=1)
    board = Board()
    on_clock = budget(Clocks(mine=60.0), 60)
    plan = engine.plan(Limit(clocks=Clocks(mine=60.0)), board=board)
    assert plan.soft_time == pytest.approx(on_clock.soft)
    assert plan.hard_time == pytest.approx(on_clock.hard)
    plan = engine.plan(Limit(time=0.01, clocks=Clocks(mine=60.0)), board=board)
    assert plan.soft_time == plan.hard_time == 0.01
    engine.set_position(board)
    result = engine.go(Limit(clocks=Clocks(mine=2.0)))
    assert result.move in board.legal_moves and result.time < 2.0
