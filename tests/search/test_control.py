"""The control array: distinct slots, a fresh search's state, the node budget stops kernels."""

from __future__ import annotations

import numpy as np

from bitflip.core.board import Board
from bitflip.eval.evaluator import load_evaluation
from bitflip.search import control
from bitflip.search.control import (
    CONTEMPT,
    CTL_SIZE,
    EG_RANK,
    EXACT_RANK,
    GENERATION,
    MAX_NODES,
    MPC_T,
    NODES,
    STOP,
    count_node,
    new_control,
    start_search,
)
from bitflip.search.driver import Searcher


def test_slots_are_distinct_and_fit() -> None:
    slots = [NODES, MAX_NODES, STOP, GENERATION, MPC_T, CONTEMPT, EG_RANK]
    assert len(set(slots)) == len(slots) and max(slots) < CTL_SIZE
    assert control.DISC_INF > 64 and control.INF > 100 * control.DISC_INF


def test_start_search_clears_the_last_search_and_writes_settings() -> None:
    ctl = new_control(max_nodes=10, generation=7)
    assert (ctl[MAX_NODES], ctl[GENERATION], ctl[EG_RANK]) == (10, 7, EXACT_RANK)
    ctl[NODES], ctl[STOP], ctl[EG_RANK] = 123, 1, 1
    start_search(ctl, generation=8, mpc_t=150, contempt=30)
    assert (ctl[NODES], ctl[STOP], ctl[EG_RANK]) == (0, 0, EXACT_RANK)
    assert (ctl[GENERATION], ctl[MPC_T], ctl[CONTEMPT]) == (8, 150, 30)
    assert ctl[MAX_NODES] == np.iinfo(np.int64).max


def test_the_node_budget_sets_the_stop_flag_in_the_kernels() -> None:
    ctx = Searcher(load_evaluation("positional"), tt_mb=1).ctx
    b = Board()
    p, o = b.side_bitboards()
    start_search(ctx.ctl, max_nodes=500)
    ctx.midgame(p, o, b.geometry.mask, 12, -control.INF, control.INF)
    assert ctx.ctl[STOP] == 1 and 500 <= ctx.ctl[NODES] < 600
    start_search(ctx.ctl, max_nodes=300)
    ctx.endgame(p, o, b.geometry.mask, -64, 64)  # 60 empties: the budget, not the end
    assert ctx.ctl[STOP] == 1 and ctx.ctl[NODES] < 400


def test_counting_the_node_that_spends_the_budget_stops_the_search() -> None:
    ctl = new_control(max_nodes=3)
    assert [count_node(ctl) for _ in range(3)] == [False, False, True]
    assert ctl[NODES] == 3 and ctl[STOP] == 1
    ctl = new_control()
    ctl[STOP] = 1  # set by another thread or a timer
    assert count_node(ctl) and ctl[NODES] == 1
