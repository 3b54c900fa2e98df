"""The exact solver against the FFO annotations and against brute force."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bitflip.core.board import Board
from bitflip.core.hashing import position_hash
from bitflip.engine import load_engine_evaluation
from bitflip.eval.evaluator import Evaluation, evaluate, load_evaluation
from bitflip.search import endgame
from bitflip.search.alphabeta import SearchContext
from bitflip.search.control import (
    EG_RANK,
    EG_SURE_T,
    EG_TT_EMPTIES,
    EXACT_RANK,
    INF,
    MAX_NODES,
    NODES,
    SHALLOW_TT_EMPTIES,
    STOP,
    new_control,
)
from bitflip.search.driver import Searcher
from bitflip.search.endgame import solve_kernel
from bitflip.search.plan import SearchPlan
from bitflip.search.root import RootScore
from bitflip.search.tt import EXACT, NO_MOVE, TranspositionTable, tt_store

from ._exact import assert_fail_soft, brute_force, random_discs


@pytest.fixture(scope="module")
def searcher() -> Searcher:
    return Searcher(load_evaluation("positional"), tt_mb=8)


def random_position(seed: int, size: int, empties: int) -> Board | None:
    rng = np.random.default_rng(seed)
    b = Board(size=size)
    while bin(b.empty).count("1") > empties:
        if b.is_game_over():
            return None
        moves = list(b.legal_moves)
        b.push(moves[int(rng.integers(len(moves)))])
    return None if b.is_game_over() else b


def solve(searcher: Searcher, b: Board, wld: bool = False) -> tuple[int, int]:
    p, o = b.side_bitboards()
    searcher.clear()
    r, _ = searcher.search(p, o, b.geometry.mask, SearchPlan(exact_empties=64, wld=wld))
    assert r.exact
    return r.move, int(r.score)


def _kernel(
    p: int,
    o: int,
    tt: TranspositionTable,
    rank: int = EXACT_RANK,
    window: tuple[int, int] = (-65, 65),
    mask: int = 2**64 - 1,
    table_from: int = SHALLOW_TT_EMPTIES,
    evaluation: Evaluation | None = None,
    sure_t: int = 0,
    midgame: TranspositionTable | None = None,
) -> int:
    """The solver kernel called directly, ordering with the positional evaluation (or the one
    given); ``midgame`` is the midgame search's table (else ``tt`` serves as both)."""
    ev = evaluation or load_evaluation("positional")
    ctl = new_control()
    ctl[EG_RANK] = rank
    ctl[EG_TT_EMPTIES] = table_from
    ctl[EG_SURE_T] = sure_t
    mpc = np.zeros((1, 4))
    state = SearchContext(ev.kind, ev.weights, tt=midgame or tt, eg_tt=tt, mpc=mpc, ctl=ctl).state
    alpha, beta = window
    v = solve_kernel(np.uint64(p), np.uint64(o), alpha, beta, np.uint64(mask), state)
    return int(v)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.sampled_from([6, 8]),
    empties=st.integers(0, 8),
    window=st.tuples(st.integers(-4, 4), st.integers(-4, 4)),
)
def test_kernel_on_arbitrary_positions_within_any_window(
    seed: int, size: int, empties: int, window: tuple[int, int]
) -> None:
    # Random discs (not from a game) make passes and wipe-outs common near the end, the cases
    # the special code for the last empties writes out by hand.
    rng = np.random.default_rng(seed)
    p, o, mask = random_discs(rng, size, empties, [0.03, 0.2, 0.5, 0.8, 0.97])
    expected = brute_force(p, o, mask)
    alpha, beta = sorted(expected + w for w in window)  # near the score: tight bounds
    if alpha == beta:
        alpha, beta = -65, 65
    v = _kernel(p, o, TranspositionTable.allocate(1), window=(alpha, beta), mask=mask)
    assert_fail_soft(v, alpha, beta, expected)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.sampled_from([6, 8]), empties=st.integers(1, 8))
def test_solver_matches_brute_force(searcher: Searcher, seed: int, size: int, empties: int) -> None:
    b = random_position(seed, size, empties)
    if b is None:
        return
    p, o = b.side_bitboards()
    expected = brute_force(p, o, b.geometry.mask)
    move, score = solve(searcher, b)
    assert score == expected
    child = b.copy()
    child.push(move)
    cp, co = child.side_bitboards()
    assert -brute_force(cp, co, b.geometry.mask) == expected  # the move is a best one
    _, wld = solve(searcher, b, wld=True)
    assert np.sign(wld) == np.sign(expected)


@pytest.mark.parametrize("empties", [10, 11])
def test_solver_matches_brute_force_a_bit_deeper(searcher: Searcher, empties: int) -> None:
    for seed in range(3):
        b = random_position(100 + seed, 8, empties)
        if b is None:
            continue
        p, o = b.side_bitboards()
        assert solve(searcher, b)[1] == brute_force(p, o, b.geometry.mask)


def read_ffo(path: Path) -> list[tuple[Board, dict[str, int]]]:
    out = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        board, *rest = line.split(";")
        scores = {}
        for item in rest:
            if ":" in item:
                m, s = item.split(":")
                scores[m.strip().lower()] = int(s)
        out.append((Board(board), scores))
    return out


def test_ffo_1_to_19_exact(searcher: Searcher, shared_data: Path) -> None:
    for board, scores in read_ffo(shared_data / "ffo" / "fforum-1-19.obf")[:12]:
        move, score = solve(searcher, board)
        best = max(scores.values())
        assert score == best, board.obf()
        assert scores[board.geometry.square_name(move)] == best, board.obf()
        _, wld = solve(searcher, board, wld=True)
        assert np.sign(wld) == np.sign(best)


def test_stop_flag_makes_the_solver_return(searcher: Searcher) -> None:
    b = random_position(7, 8, 22)
    assert b is not None
    ctx: SearchContext = searcher.ctx
    ctx.ctl[:] = 0
    ctx.ctl[MAX_NODES] = 2**62
    ctx.ctl[STOP] = 1
    p, o = b.side_bitboards()
    ctx.endgame(p, o, b.geometry.mask, -64, 64)
    assert ctx.ctl[NODES] <= 1  # returned at the first node


def test_selective_table_entries_never_cut_an_exact_search() -> None:
    b = random_position(7, 8, 14)
    assert b is not None
    p, o = b.side_bitboards()
    expected = _kernel(p, o, TranspositionTable.allocate(4))
    # A wrong "exact" score left by a selective (rank 1) pass: the exact search must not
    # believe it, a rank-1 search does.
    tt = TranspositionTable.allocate(4)
    key = position_hash(np.uint64(p), np.uint64(o))
    tt_store(tt.keys, tt.data, key, expected + 20, 14 + 64 * 1, EXACT, NO_MOVE, 1)
    assert _kernel(p, o, tt, EXACT_RANK) == expected
    tt_store(tt.keys, tt.data, key, expected + 20, 14 + 64 * 1, EXACT, NO_MOVE, 1)
    assert _kernel(p, o, tt, 1) == expected + 20


def _cut_wrongly_by_the_static_line(
    t: float, ev: Evaluation, deep_too: bool
) -> Iterator[tuple[int, int, int]]:
    """(p, o, beta) of random positions at ``EG_PC_EMPTIES`` whose static line at ``t`` lies
    above beta though the exact score is below it (``deep_too``: and the depth-2 line does not
    cut either). At 11 empties the children (10) are never cut, so a pass that does not cut
    such a node at once returns its exact score."""
    kernel_eval = (ev.kind, ev.weights)
    for seed in range(400):
        b = random_position(seed, 8, endgame.EG_PC_EMPTIES)
        if b is None or not b.legal_mask():
            continue
        p, o = b.side_bitboards()
        up, uo, full = np.uint64(p), np.uint64(o), np.uint64(b.geometry.mask)
        static = endgame.EG_PC_STATIC_A * evaluate(up, uo, full, *kernel_eval)
        beta = math.floor(static + endgame.EG_PC_STATIC_B - t * endgame.EG_PC_STATIC_SIGMA)
        if _kernel(p, o, TranspositionTable.allocate(1), evaluation=ev) >= beta:
            continue
        if deep_too:
            d2 = endgame.shallow_search(up, uo, full, endgame.EG_PC_DEPTH, -INF, INF, *kernel_eval)
            if endgame.EG_PC_A * d2 + endgame.EG_PC_B - t * endgame.EG_PC_SIGMA >= beta:
                continue
        yield p, o, beta


def test_a_selective_pass_cuts_on_the_static_evaluation_before_any_search() -> None:
    # A node whose static line lies far above the window, though its depth-2 line does not and
    # its exact score is below it, is cut (fails high at beta): only the static check cuts.
    ev = load_engine_evaluation("default", 8)
    rank = 1
    nodes = list(
        itertools.islice(_cut_wrongly_by_the_static_line(endgame.EG_PC_T[rank], ev, True), 3)
    )
    assert len(nodes) == 3
    for p, o, beta in nodes:
        for r, cut in ((rank, True), (EXACT_RANK, False)):
            v = _kernel(p, o, TranspositionTable.allocate(1), r, (beta - 1, beta), evaluation=ev)
            assert (v == beta) if cut else (v < beta)


def test_a_search_may_make_the_surer_rank_surer_still() -> None:
    # A node the surer rank cuts on its static line at the solver's t (wrongly: the exact
    # score is below the window) is searched to the end when the search asks for t = 10.
    ev = load_engine_evaluation("default", 8)
    rank = endgame.SURE_RANK
    t = endgame.EG_PC_T[rank]
    nodes = list(itertools.islice(_cut_wrongly_by_the_static_line(t, ev, False), 3))
    assert len(nodes) == 3
    for p, o, beta in nodes:
        for sure_t, cut in ((0, True), (round(100 * t), True), (1000, False)):
            tt = TranspositionTable.allocate(1)
            v = _kernel(p, o, tt, rank, (beta - 1, beta), evaluation=ev, sure_t=sure_t)
            assert (v == beta) if cut else (v < beta), sure_t


def test_a_plan_sets_how_sure_its_proofs_are() -> None:
    searcher = Searcher(load_evaluation("positional"), tt_mb=8)
    b = random_position(61, 8, 14)
    assert b is not None
    p, o = b.side_bitboards()
    for proof_t in (240, 0):
        searcher.search(p, o, b.geometry.mask, SearchPlan(exact_empties=64, proof_t=proof_t))
        assert searcher.ctx.ctl[EG_SURE_T] == proof_t


def test_a_selective_pass_tries_the_midgame_tables_move_first() -> None:
    # With no move of its own for a node, a selective pass takes the midgame table's; a proof
    # at the exact rank keeps its own ordering. The window (-65, -64) makes the first move
    # searched fail high, so the root's stored move is the first one tried; t = 1000 keeps
    # ProbCut from cutting the root before any move.
    ev = load_engine_evaluation("default", 8)
    b = random_position(5, 8, endgame.MIDGAME_HINT_EMPTIES)
    assert b is not None
    p, o = b.side_bitboards()
    key = position_hash(np.uint64(p), np.uint64(o))

    def first_tried(rank: int, hint: int | None) -> int | None:
        midgame, solver = TranspositionTable.allocate(1), TranspositionTable.allocate(1)
        if hint is not None:
            tt_store(midgame.keys, midgame.data, np.uint64(key), 0, 16, EXACT, hint, 1)
        _kernel(p, o, solver, rank, (-65, -64), evaluation=ev, sure_t=100_000, midgame=midgame)
        return solver.best_move(int(key))

    own = first_tried(endgame.SURE_RANK, None)
    hint = next(m for m in b.legal_moves if m != own)
    assert first_tried(endgame.SURE_RANK, hint) == hint
    assert first_tried(EXACT_RANK, hint) == own


def spy_on_passes(monkeypatch: pytest.MonkeyPatch, slot: int) -> list[int]:
    """The control slot ``slot`` at the start of each endgame pass over the root, as a list
    that fills while the searches run."""
    seen: list[int] = []
    solve_root = Searcher._solve_root

    def spy(self: Searcher, *args: Any, **kw: Any) -> list[RootScore] | None:
        seen.append(int(self.ctx.ctl[slot]))
        return solve_root(self, *args, **kw)

    monkeypatch.setattr(Searcher, "_solve_root", spy)
    return seen


def test_the_table_threshold_changes_the_work_not_the_score() -> None:
    for seed in range(3):
        b = random_position(40 + seed, 8, 14)
        assert b is not None
        p, o = b.side_bitboards()
        tables = {k: TranspositionTable.allocate(4) for k in (8, 10, 65)}
        scores = {k: _kernel(p, o, t, table_from=k) for k, t in tables.items()}
        assert scores[8] == scores[10] == scores[65]
        used = {k: int(np.count_nonzero(t.data)) for k, t in tables.items()}
        assert used[8] > used[10] > used[65] == 0  # fewer positions stored, none above 64


def test_deep_solves_use_the_table_from_more_empties(monkeypatch: pytest.MonkeyPatch) -> None:
    assert endgame.table_empties(endgame.DEEP_SOLVE_EMPTIES - 1) == SHALLOW_TT_EMPTIES
    assert endgame.table_empties(endgame.DEEP_SOLVE_EMPTIES) == endgame.DEEP_TT_EMPTIES
    monkeypatch.setattr(endgame, "DEEP_SOLVE_EMPTIES", 14)  # a deep solve, quickly
    searcher = Searcher(load_evaluation("positional"), tt_mb=8)
    seen = spy_on_passes(monkeypatch, EG_TT_EMPTIES)
    for empties in (13, 14):
        b = random_position(60, 8, empties)
        assert b is not None
        expected = _kernel(*b.side_bitboards(), TranspositionTable.allocate(4))
        seen.clear()
        assert solve(searcher, b)[1] == expected
        assert seen == [SHALLOW_TT_EMPTIES if empties == 13 else endgame.DEEP_TT_EMPTIES]
        # Back to the default: the midgame's own solves near its leaves are small.
        assert searcher.ctx.ctl[EG_TT_EMPTIES] == SHALLOW_TT_EMPTIES


def test_ffo_40_is_exact_after_the_selective_passes(
    shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board, _ = read_ffo(shared_data / "ffo" / "fforum-40-59.obf")[0]  # 20 empties
    searcher = Searcher(load_engine_evaluation("default", 8), tt_mb=64)
    ranks = spy_on_passes(monkeypatch, EG_RANK)
    move, score = solve(searcher, board)
    assert ranks == [1, 2, EXACT_RANK]
    assert (board.geometry.square_name(move), score) == ("a2", 38)
    assert searcher.ctx.ctl[EG_RANK] == EXACT_RANK  # the midgame search is never selective
