"""Lazy SMP: several threads sharing the tables give the same exact scores as one."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from bitflip import Board
from bitflip.core.bitboard import child
from bitflip.core.hashing import position_hash
from bitflip.engine import Engine
from bitflip.eval.evaluator import load_evaluation
from bitflip.search.alphabeta import SearchContext
from bitflip.search.control import NODES, new_control
from bitflip.search.endgame import DEFER_EMPTIES, solve_kernel
from bitflip.search.limits import Limit
from bitflip.search.state import busy_table
from bitflip.search.tt import TranspositionTable

from .test_endgame import read_ffo


@pytest.fixture(scope="module")
def engines() -> tuple[Engine, Engine]:
    return Engine(tt_mb=32), Engine(tt_mb=32, threads=2)


def test_two_threads_solve_ffo_as_one(engines: tuple[Engine, Engine], shared_data: Path) -> None:
    one, two = engines
    positions = read_ffo(shared_data / "ffo" / "fforum-1-19.obf")[:8]
    positions += read_ffo(shared_data / "ffo" / "fforum-40-59.obf")[:2]
    for board, scores in positions:
        results = []
        for e in (one, two):
            e.new_game()
            e.set_position(board)
            results.append(e.go(Limit(exact=True)))
        r1, r2 = results
        assert r1.exact and r2.exact
        assert r1.score == r2.score == max(scores.values()), board.obf()
        assert scores[board.geometry.square_name(r2.move)] == r2.score  # a best move


def test_threads_must_be_a_positive_whole_number() -> None:
    with pytest.raises(ValueError, match="threads"):
        Engine(threads=0)


def test_stop_and_time_limits_end_every_thread(engines: tuple[Engine, Engine]) -> None:
    _, two = engines
    two.new_game()
    two.set_position(Board())
    threading.Timer(0.2, two.stop).start()
    r = two.go(Limit(depth=40))
    assert r.move in Board().legal_moves and r.depth < 40
    r = two.go(Limit(time=0.2))
    assert r.move in Board().legal_moves and r.depth < 40
    assert not [t for t in threading.enumerate() if t.name.startswith("bitflip-smp")]


def test_a_node_budget_is_kept_by_one_thread(engines: tuple[Engine, Engine]) -> None:
    one, two = engines
    counts = []
    for e in (one, two):
        e.new_game()
        e.set_position(Board())
        counts.append(e.go(Limit(nodes=20_000)).nodes)
    assert counts[0] == counts[1]


def test_children_another_thread_searches_are_deferred_not_lost(shared_data: Path) -> None:
    # Mark every other child of an FFO root as being searched by another thread: the solver
    # comes back to them after its other moves (another order: another node count), and the
    # score is still exact; the marks of the children it searched are cleared.
    board, scores = read_ffo(shared_data / "ffo" / "fforum-1-19.obf")[0]
    p, o = board.side_bitboards()
    mask = board.geometry.mask
    assert bin(board.empty).count("1") >= DEFER_EMPTIES
    ev = load_evaluation("positional")

    def solve(busy: np.ndarray) -> tuple[int, int]:
        tt = TranspositionTable.allocate(8)
        ctl = new_control()
        mpc = np.zeros((1, 4))
        ctx = SearchContext(ev.kind, ev.weights, tt=tt, eg_tt=tt, mpc=mpc, ctl=ctl, busy=busy)
        v = solve_kernel(np.uint64(p), np.uint64(o), -65, 65, np.uint64(mask), ctx.state)
        return int(v), int(ctl[NODES])

    alone, nodes_alone = solve(busy_table(1))
    shared = busy_table(2)
    slot = shared.shape[0] - 1
    marked = []
    for sq in list(board.legal_moves)[::2]:
        key = position_hash(*map(np.uint64, child(p, o, sq)))
        shared[int(key) & slot] = key
        marked.append(int(key) & slot)
    deferred, nodes_deferred = solve(shared)
    assert alone == deferred == max(scores.values())
    assert nodes_deferred != nodes_alone
    assert not shared[marked].any()
