from __future__ import annotations

import pytest

from bitflip.search.levels import DEFAULT_LEVEL, LEVELS, level_spec
from bitflip.search.limits import Clocks
from bitflip.search.timeman import budget


def test_levels_are_monotone() -> None:
    assert sorted(LEVELS) == list(range(1, 21))
    for k in range(1, 20):
        a, b = LEVELS[k], LEVELS[k + 1]
        assert b.depth >= a.depth and b.endgame_depth >= a.endgame_depth
        assert (b.depth, b.endgame_depth) != (a.depth, a.endgame_depth)
        # Selectivity: None (no ProbCut) on low levels; never bolder as levels grow.
        if a.selectivity is not None:
            assert b.selectivity is not None and b.selectivity >= a.selectivity
    assert DEFAULT_LEVEL in LEVELS


def test_probcut_t_grows_with_confidence() -> None:
    ts = [s.probcut_t for s in LEVELS.values() if s.selectivity is not None]
    assert ts == sorted(ts) and 100 < ts[0] < ts[-1] < 300


@pytest.mark.parametrize("bad", [0, 21, "3", 2.5, True])
def test_bad_level_is_a_clear_error(bad: object) -> None:
    with pytest.raises(ValueError, match="level must be"):
        level_spec(bad)  # type: ignore[arg-type]


def test_budget_never_loses_on_time() -> None:
    # Spend every move's full hard budget: the clock must still not run out.
    for start in (1.0, 10.0, 60.0, 600.0):
        clock = start
        for empties in range(60, 0, -2):
            b = budget(Clocks(mine=clock), empties)
            assert 0 < b.soft <= b.hard < clock
            clock -= b.hard
        assert clock > 0


def test_budget_favours_the_middle_game() -> None:
    c = Clocks(mine=300.0)
    opening, middle = budget(c, 56).soft, budget(c, 36).soft
    assert middle > opening
    assert budget(Clocks(mine=30.0, increment=2.0), 40).soft > budget(Clocks(mine=30.0), 40).soft
