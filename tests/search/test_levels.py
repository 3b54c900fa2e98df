from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import bitflip.search.levels as levels_module
from bitflip.search.levels import DEFAULT_LEVEL, LEVELS, LevelSpec, level_spec

ENGINE_GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "engine.md"


def _proof_notation(spec: LevelSpec) -> str:
    """The tables' win/loss/draw column: ``22``, ``22+``, ``22/25`` or ``25*``."""
    if not spec.selective_wld_depth:
        return str(spec.wld_depth)
    if spec.wld_depth == spec.endgame_depth:
        return f"{spec.selective_wld_depth}*"
    if spec.selective_wld_depth == spec.wld_depth + 1:
        return f"{spec.wld_depth}+"
    return f"{spec.wld_depth}/{spec.selective_wld_depth}"


def _depth_notation(spec: LevelSpec) -> str:
    """The tables' depth column: ``16``, or ``16/14`` for 14 plies in the opening."""
    return f"{spec.depth}/{spec.opening_depth}" if spec.opening_depth else str(spec.depth)


def _selectivity_notation(spec: LevelSpec) -> str:
    """The tables' ProbCut column: ``--``, ``95``, or ``88/95`` for 95% in the opening."""
    sel = "--" if spec.selectivity is None else str(spec.selectivity)
    if spec.opening_depth and spec.opening_selectivity is not None:
        return f"{sel}/{spec.opening_selectivity}"
    return sel


def _expected_rows() -> dict[int, tuple[str, str, str, str]]:
    return {
        k: (
            _depth_notation(s),
            str(s.endgame_depth),
            _proof_notation(s),
            _selectivity_notation(s),
        )
        for k, s in LEVELS.items()
    }


def test_levels_are_monotone() -> None:
    from bitflip.search import endgame

    solver_t = round(100 * endgame.EG_PC_T[endgame.SURE_RANK])
    assert sorted(LEVELS) == list(range(1, 21))
    for k in range(1, 20):
        a, b = LEVELS[k], LEVELS[k + 1]
        assert all(b.depth_at(e) >= a.depth_at(e) for e in range(61)), k
        assert b.endgame_depth >= a.endgame_depth and b != a
        assert b.wld_depth >= a.wld_depth
        assert max(b.wld_depth, b.selective_wld_depth) >= max(a.wld_depth, a.selective_wld_depth)
        # No higher level proves less surely (0: the solver's own t).
        assert (b.proof_t or solver_t) >= (a.proof_t or solver_t), k
        # Selectivity: None (no ProbCut) on low levels; bolder as levels grow only where
        # that buys at least two plies (depth for selectivity, measured against NTest).
        if a.selectivity is not None:
            assert b.selectivity is not None
            assert b.selectivity >= a.selectivity or b.depth >= a.depth + 2, k
    assert DEFAULT_LEVEL in LEVELS


def test_levels_prove_win_loss_draw_before_solving() -> None:
    from bitflip.engine import Engine

    # The default proves in full to 22 (its own column caps the rule's 23), selectively to 25.
    spec = level_spec(14)
    assert (spec.endgame_depth, spec.wld_depth, spec.selective_wld_depth) == (20, 22, 25)
    plan = Engine(level=14, tt_mb=1).plan(None)
    assert (plan.exact_empties, plan.wld_empties, plan.selective_wld_empties) == (20, 22, 25)
    # Level 13 proves in full to 22 by the rule alone (selective proofs at 23).
    assert (level_spec(13).wld_depth, level_spec(13).selective_wld_depth) == (22, 23)
    # Level 17 proves in full to 23, selectively to 25; level 12 to 22, nothing selectively.
    assert (level_spec(17).wld_depth, level_spec(17).selective_wld_depth) == (23, 25)
    assert (level_spec(12).wld_depth, level_spec(12).selective_wld_depth) == (22, 0)
    # Full proofs stop at 23 empties; levels 18-20 solve from 24, 25 and 26, past that, so
    # they prove only selectively, to 27.
    assert [level_spec(k).endgame_depth for k in (18, 19, 20)] == [24, 25, 26]
    assert all(level_spec(k).wld_depth == level_spec(k).endgame_depth for k in (18, 19, 20))
    assert [level_spec(k).selective_wld_depth for k in (18, 19, 20)] == [27, 27, 27]
    plan = Engine(level=18, tt_mb=1).plan(None)
    assert (plan.exact_empties, plan.wld_empties, plan.selective_wld_empties) == (24, 24, 27)


def test_the_default_searches_four_plies_less_in_the_opening() -> None:
    from bitflip.engine import Engine
    from bitflip.search.limits import Clocks, Limit
    from bitflip.search.plan import probcut_t, resolve_plan

    spec = level_spec(DEFAULT_LEVEL)
    assert (spec.depth, spec.selectivity) == (18, 88)
    assert (spec.opening_depth, spec.opening_empties, spec.opening_selectivity) == (14, 42, 95)
    assert [spec.depth_at(e) for e in (60, 42, 41, 30)] == [14, 14, 18, 18]
    assert [spec.selectivity_at(e) for e in (60, 42, 41, 30)] == [95, 95, 88, 88]
    engine = Engine(tt_mb=1)
    assert engine.plan(None).max_depth == 14  # the start: 60 empties
    assert engine.plan(None).probcut_t == probcut_t(95)
    for e, depth, sel in ((42, 14, 95), (41, 18, 88), (25, 18, 88)):
        plan = resolve_plan(None, level=DEFAULT_LEVEL, empties=e)
        assert (plan.max_depth, plan.probcut_t) == (depth, probcut_t(sel))
        assert resolve_plan(Limit(level=14), level=1, empties=e).max_depth == depth
        # A clock with the level named still caps the depth and cuts as the level would.
        clocked = Limit(level=14, clocks=Clocks(mine=60.0, theirs=60.0))
        plan = resolve_plan(clocked, level=1, empties=e)
        assert (plan.max_depth, plan.probcut_t) == (depth, probcut_t(sel))
    # Level 15 is the default without the shallower opening.
    assert level_spec(15).depth_at(60) == 18 and level_spec(15).selectivity_at(60) == 88


def test_settings_no_level_has_plan_like_a_level() -> None:
    from bitflip.search.levels import LevelSpec
    from bitflip.search.plan import level_plan, probcut_t

    plan = level_plan(LevelSpec(15, 20, 91), 40)
    assert (plan.max_depth, plan.exact_empties, plan.wld_empties) == (15, 20, 23)
    assert plan.proof_t == 0
    assert level_plan(LevelSpec(22, 24, 91, 27, proof_t=240), 40).proof_t == 240
    assert plan.solve_nodes is None  # no budget on a solve unless the level has one
    assert level_plan(LevelSpec(22, 24, solve_nodes=10**8), 24).solve_nodes == 10**8
    assert plan.probcut_t == probcut_t(91) > 0
    assert level_plan(LevelSpec(4, 8), 40).probcut_t == 0  # no ProbCut


def test_probcut_t_grows_with_confidence() -> None:
    from bitflip.search.plan import probcut_t

    confidences = sorted({s.selectivity for s in LEVELS.values() if s.selectivity is not None})
    ts = [probcut_t(c) for c in confidences]
    assert len(ts) > 1 and all(a < b for a, b in itertools.pairwise(ts))
    assert 100 < ts[0] < ts[-1] < 300


@pytest.mark.parametrize("bad", [0, 21, "3", 2.5, True])
def test_bad_level_is_a_clear_error(bad: object) -> None:
    with pytest.raises(ValueError, match="level must be"):
        level_spec(bad)  # type: ignore[arg-type]


def test_level_tables_in_the_docs_match_the_levels() -> None:
    # Both tables are written by hand; the module's once kept rows two steps old.
    expected = _expected_rows()
    doc = levels_module.__doc__ or ""
    rows = {}
    for line in doc.splitlines():
        cells = line.split()
        if len(cells) == 5 and cells[0].isdigit():
            rows[int(cells[0])] = tuple(cells[1:])
    assert rows == expected

    if not ENGINE_GUIDE.exists():
        pytest.skip(f"{ENGINE_GUIDE} is absent (an installed package without the docs)")
    guide: dict[str, list[str]] = {}
    for line in ENGINE_GUIDE.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 21:
            guide[cells[0]] = cells[1:]
    columns = {"depth": 0, "exact from": 1, "win/loss/draw from": 2, "ProbCut %": 3}
    for name, i in columns.items():
        want = [expected[k][i].replace("--", "\u2013") for k in range(1, 21)]
        assert guide[name] == want, name
