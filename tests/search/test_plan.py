"""What each request means for the search: :func:`resolve_plan`, row by row."""

from __future__ import annotations

import pytest

from bitflip.search.control import MPC_PRETEST
from bitflip.search.levels import extended_level, level_spec
from bitflip.search.limits import Clocks, Limit
from bitflip.search.plan import (
    SearchPlan,
    confidence_percent,
    level_plan,
    ponder_plan,
    probcut_t,
    resolve_plan,
)
from bitflip.search.timeman import budget

T95 = probcut_t(95)
T88 = probcut_t(88)

# (limit, empties, max_depth, exact_empties, wld, wld_empties, probcut_t, nodes, soft, hard,
#  selective_wld_empties)
ROWS = [
    # The default: depth 18 at 88% below 42 empties, 14 at 95% from 42 on.
    (None, 40, 18, 20, False, 22, T88, None, None, None, 25),
    (None, 50, 14, 20, False, 22, T95, None, None, None, 25),
    (Limit(level=14), 40, 18, 20, False, 22, T88, None, None, None, 25),
    (Limit(level=14), 42, 14, 20, False, 22, T95, None, None, None, 25),
    (Limit(level=6), 40, 6, 12, False, 15, probcut_t(91), None, None, None, 0),
    (Limit(level=30), 40, 31, 36, False, 36, probcut_t(99), None, None, None, 0),
    (Limit(depth=8), 40, 8, 0, False, 0, 0, None, None, None, 0),
    (Limit(depth=8), 8, 8, 8, False, 0, 0, None, None, None, 0),
    (Limit(depth=9), 8, 9, 8, False, 0, 0, None, None, None, 0),
    (Limit(depth=8, time=1.0), 40, 8, 20, False, 0, 0, None, 1.0, 1.0, 0),
    (Limit(depth=8, nodes=500), 40, 8, 20, False, 0, 0, 500, None, None, 0),
    (Limit(time=0.5), 40, 60, 20, False, 0, T88, None, 0.5, 0.5, 0),
    (Limit(time=0.5), 50, 60, 20, False, 0, T95, None, 0.5, 0.5, 0),
    (Limit(nodes=1000), 40, 60, 20, False, 0, T88, 1000, None, None, 0),
    (Limit(level=10, time=0.5), 40, 10, 18, False, 0, probcut_t(91), None, 0.5, 0.5, 0),
    (Limit(exact=True), 30, 60, 64, False, 0, 0, None, None, None, 0),
    (Limit(wld=True, time=2.0), 30, 60, 64, True, 0, 0, None, 2.0, 2.0, 0),
]


@pytest.mark.parametrize(
    ("limit", "empties", "depth", "exact", "wld", "wld_empties", "t", "nodes", "soft", "hard",
     "selective"),
    ROWS,
)  # fmt: skip
def test_each_request_resolves_to_its_plan(
    limit: Limit | None,
    empties: int,
    depth: int,
    exact: int,
    wld: bool,
    wld_empties: int,
    t: int,
    nodes: int | None,
    soft: float | None,
    hard: float | None,
    selective: int,
) -> None:
    plan = resolve_plan(limit, level=14, empties=empties, contempt=7)
    assert plan == SearchPlan(
        max_depth=depth,
        exact_empties=exact,
        wld=wld,
        wld_empties=wld_empties,
        selective_wld_empties=selective,
        probcut_t=t,
        nodes=nodes,
        hard_time=hard,
        soft_time=soft,
        contempt=7,
    )
    assert resolve_plan(limit, level=14, empties=empties, multipv=True).multipv


def test_clocks_give_a_budget_and_a_time_caps_it() -> None:
    clocks = Clocks(mine=60.0)
    tb = budget(clocks, 40)
    plan = resolve_plan(Limit(clocks=clocks), level=14, empties=40)
    assert (plan.soft_time, plan.hard_time) == (tb.soft, tb.hard)
    capped = resolve_plan(Limit(time=0.01, clocks=clocks), level=14, empties=40)
    assert (capped.soft_time, capped.hard_time) == (0.01, 0.01)


def test_a_level_plan_is_its_table_row() -> None:
    for level in (1, 5, 6, 14, 20):
        spec = level_spec(level)
        plan = level_plan(spec, 30)
        assert (plan.max_depth, plan.exact_empties, plan.wld_empties) == (
            spec.depth,
            spec.endgame_depth,
            spec.wld_depth,
        )
        assert plan.selective_wld_empties == spec.selective_wld_depth
        assert plan.probcut_t == probcut_t(spec.selectivity)
        assert plan.probcut_mode == MPC_PRETEST  # the checks Edax and Egaroucid make
    assert extended_level(30).depth == resolve_plan(Limit(level=30), level=1, empties=50).max_depth


def test_pondering_deepens_without_limit_and_solves_where_the_level_does() -> None:
    assert ponder_plan(14, contempt=3) == SearchPlan(max_depth=60, exact_empties=20, contempt=3)


@pytest.mark.parametrize(
    ("percent", "t"), [(None, 0), (50, 0), (84, 99), (91, 134), (95, 164), (98, 205), (99, 233)]
)
def test_selectivity_percent_and_threshold_convert_both_ways(percent: int | None, t: int) -> None:
    assert probcut_t(percent) == t
    if percent is not None:
        assert confidence_percent(t) == percent


def test_selective_plans_pre_test_their_checks() -> None:
    """Every plan a level, a clock or a time limit makes checks a ProbCut candidate only on the
    side its static evaluation leans to (mode 0, both sides, is test_probcut's)."""
    for limit in (None, Limit(time=0.5), Limit(clocks=Clocks(mine=60.0)), Limit(level=18)):
        plan = resolve_plan(limit, level=14, empties=40)
        assert plan.probcut_t > 0 and plan.probcut_mode == MPC_PRETEST
