"""Multi-ProbCut: the table the kernel reads, the shipped fit, and what cutting costs."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from bitflip.core.board import Board
from bitflip.engine import load_engine_evaluation
from bitflip.search.control import MPC_FLAT, MPC_MODE, MPC_PRETEST, MPC_T
from bitflip.search.driver import Searcher
from bitflip.search.plan import SearchPlan
from bitflip.search.probcut import (
    MAX_MPC_DEPTH,
    MIN_MPC_DEPTH,
    SIGMA,
    TABLE_COLUMNS,
    ProbCutFit,
    load_table,
    shallow_depth,
    table_from_fits,
)

SEARCH = Path(__file__).resolve().parents[2] / "src" / "bitflip" / "search"


def test_shallow_depth_is_edax_s_and_always_shallower() -> None:
    # Depth 2 from the static evaluation (shallow depth 0), the rest searched.
    assert [shallow_depth(d) for d in range(2, 11)] == [0, 1, 2, 3, 2, 3, 4, 5, 4]
    assert all(0 <= shallow_depth(d) < d for d in range(MIN_MPC_DEPTH, MAX_MPC_DEPTH + 1))


def test_table_holds_the_fits_and_extrapolates_deeper_with_growing_sigma() -> None:
    fits = [
        ProbCutFit(d, shallow_depth(d), 1.0 + d / 100, 2.0, 100.0 + 10 * d, 50) for d in (3, 4, 5)
    ]
    table = table_from_fits(fits)
    assert table.shape == (MAX_MPC_DEPTH + 1, TABLE_COLUMNS)
    assert (table[:3] == 0).all()  # no fit: a = 0, no ProbCut at that depth
    assert tuple(table[4, :SIGMA]) == (shallow_depth(4), 1.04, 2.0)
    assert (table[4, SIGMA:] == 140.0).all()  # no slope: the same sigma at every count
    deeper = table[6:, SIGMA + 40]
    assert deeper[0] == pytest.approx(160.0) and (np.diff(deeper) == pytest.approx(10.0))
    assert (table[6:, 1] == 1.05).all() and (
        table[6:, 0] == [shallow_depth(d) for d in range(6, 25)]
    ).all()
    assert not table_from_fits([]).any()


def test_sigma_by_empties_follows_the_slope_with_a_floor() -> None:
    fit = ProbCutFit(6, 2, 1.0, 0.0, 200.0, 50, sigma_slope=-10.0, empties_ref=40.0)
    row = table_from_fits([fit])[6]
    assert row[SIGMA + 40] == 200.0 and row[SIGMA + 30] == 300.0 and row[SIGMA + 50] == 100.0
    assert row[SIGMA + 64] == 50.0  # never below a quarter of sigma


def test_sigma_never_shrinks_beyond_the_fits() -> None:
    fits = [ProbCutFit(d, shallow_depth(d), 1.0, 0.0, 300.0 - 20 * d, 50) for d in (3, 4, 5)]
    table = table_from_fits(fits)
    assert (table[6:, SIGMA:] == table[5, SIGMA:]).all()


def test_the_shipped_fit_loads_and_unknown_evaluations_have_none() -> None:
    table = load_table("patterns")
    assert table is not None and table.shape == (MAX_MPC_DEPTH + 1, TABLE_COLUMNS)
    fitted = table[MIN_MPC_DEPTH:]
    assert table[2, 0] == 0 and (table[3:, 0] >= 1).all() and (fitted[:, SIGMA:] > 0).all()
    assert 0.5 < fitted[:, 1].mean() < 1.5  # deep and shallow values on the same scale
    assert load_table("no-such-evaluation") is None


def test_probcut_searches_fewer_nodes_and_stays_close() -> None:
    ev = load_engine_evaluation("default")
    table = load_table(ev.name)
    if table is None:
        pytest.skip("no ProbCut fit for the installed default evaluation")
    searcher = Searcher(ev, tt_mb=16, mpc=table)
    rng = np.random.default_rng(11)
    plain = cut = 0
    for _ in range(4):
        b = Board()
        for _ in range(20):
            moves = list(b.legal_moves)
            b.push(moves[int(rng.integers(len(moves)))])
        p, o = b.side_bitboards()
        results = []
        for t in (0, 150):
            searcher.clear()
            r, _ = searcher.search(p, o, b.geometry.mask, SearchPlan(max_depth=8, probcut_t=t))
            results.append(r)
        plain += results[0].nodes
        cut += results[1].nodes
        assert abs(results[0].score - results[1].score) < 8  # discs
    assert cut < plain


def test_depth_two_is_cut_from_the_static_evaluation() -> None:
    ev = load_engine_evaluation("default")
    table = load_table(ev.name)
    if table is None:
        pytest.skip("no ProbCut fit for the installed default evaluation")
    without = table.copy()
    without[2] = 0
    b = Board()
    for m in ("f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3", "c2", "e6", "c6", "b4"):
        b.push(m)
    p, o = b.side_bitboards()
    results = []
    for mpc in (table, without):
        searcher = Searcher(ev, tt_mb=16, mpc=mpc)
        plan = SearchPlan(max_depth=10, probcut_t=164)
        r, _ = searcher.search(p, o, b.geometry.mask, plan)
        assert r.move in b.legal_moves and r.depth == 10
        results.append(r)
    # The static cuts need no search below them: fewer nodes, about the same value.
    assert results[0].nodes < results[1].nodes
    assert abs(results[0].score - results[1].score) < 4  # discs


def test_each_way_of_checking_a_node_searches_its_own_tree_and_restores_the_setting() -> None:
    ev = load_engine_evaluation("default")
    table = load_table(ev.name)
    if table is None:
        pytest.skip("no ProbCut fit for the installed default evaluation")
    b = Board()
    for m in ("f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3", "c2", "e6", "c6", "b4"):
        b.push(m)
    p, o = b.side_bitboards()
    nodes = {}
    for mode in (0, MPC_FLAT, MPC_PRETEST, MPC_FLAT | MPC_PRETEST):
        searcher = Searcher(ev, tt_mb=16, mpc=table)
        plan = SearchPlan(max_depth=10, probcut_t=164, probcut_mode=mode)
        r, _ = searcher.search(p, o, b.geometry.mask, plan)
        assert r.move in b.legal_moves and r.depth == 10
        assert searcher.ctx.ctl[MPC_T] == 164 and searcher.ctx.ctl[MPC_MODE] == mode
        nodes[mode] = r.nodes
    # Full-width checks cost nodes; checking one side saves them.
    assert nodes[MPC_FLAT] > nodes[0] > nodes[MPC_PRETEST]
    assert len(set(nodes.values())) == 4


def test_search_imports_neither_nn_nor_learn() -> None:
    # The layers: search sits below learning and networks (mcts is checked by its own owner).
    for path in SEARCH.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith(("bitflip.nn", "bitflip.learn")), (path.name, name)
