"""The midgame search returns the plain minimax value, with or without its tables."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bitflip.core import bitboard as bb
from bitflip.core.board import Board
from bitflip.eval.evaluator import EVAL_SCALE, Evaluation, evaluate, load_evaluation
from bitflip.search.driver import Searcher
from bitflip.search.limits import SearchInfo
from bitflip.search.plan import SearchPlan

EV = load_evaluation("positional")
PATTERNS = load_evaluation("patterns")


def negamax(p: int, o: int, mask: int, depth: int, ev: Evaluation = EV) -> int:
    up, uo, um = np.uint64(p), np.uint64(o), np.uint64(mask)
    if depth >= bin(mask & ~(p | o)).count("1"):
        depth = 99  # the search solves exactly once it reaches the end
    moves = int(bb.legal_moves(up, uo, um))
    if moves == 0:
        if int(bb.legal_moves(uo, up, um)) == 0:
            return EVAL_SCALE * int(bb.final_margin(up, uo, um))
        return -negamax(o, p, mask, depth, ev)
    if depth == 0:
        return int(evaluate(up, uo, um, ev.kind, ev.weights))
    best = -(10**9)
    while moves:
        sq = (moves & -moves).bit_length() - 1
        moves &= moves - 1
        f = int(bb.flips(up, uo, sq))
        best = max(best, -negamax(o ^ f, p | f | (1 << sq), mask, depth - 1, ev))
    return best


def random_position(seed: int, size: int, plies: int) -> Board | None:
    rng = np.random.default_rng(seed)
    b = Board(size=size)
    for _ in range(plies):
        if b.is_game_over():
            return None
        moves = list(b.legal_moves)
        b.push(moves[int(rng.integers(len(moves)))])
    return None if b.is_game_over() or b.legal_mask() == 0 else b


@pytest.fixture(scope="module")
def searchers() -> tuple[Searcher, Searcher]:
    # A real table, and one of two entries: nearly no transpositions survive in it.
    big = Searcher(EV, tt_mb=8)
    tiny = Searcher(EV, tt_mb=1e-5)
    assert tiny.ctx.tt.entries == 2
    return big, tiny


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.sampled_from([6, 8]),
    plies=st.integers(0, 40),
    depth=st.integers(1, 4),
)
def test_score_is_the_minimax_value_with_and_without_tables(
    searchers: tuple[Searcher, Searcher], seed: int, size: int, plies: int, depth: int
) -> None:
    b = random_position(seed, size, plies)
    if b is None:
        return
    p, o = b.side_bitboards()
    mask = b.geometry.mask
    scores = []
    for s in searchers:
        s.clear()
        r, _ = s.search(p, o, mask, SearchPlan(max_depth=depth))
        scores.append(round(r.score * EVAL_SCALE))  # eval units (exact: discs times the scale)
    assert scores[0] == scores[1]
    ref = max(-negamax(*_child(p, o, sq), mask, depth - 1) for sq in list(b.legal_moves))
    assert scores[0] == ref


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 50), depth=st.integers(1, 4))
def test_pattern_search_is_the_minimax_value(seed: int, plies: int, depth: int) -> None:
    # The search carries pattern indices down the tree (eval.pattern_indices) where the
    # reference gathers them at each leaf: a slip in carrying them changes the value.
    b = random_position(seed, 8, plies)
    if b is None:
        return
    p, o = b.side_bitboards()
    mask = b.geometry.mask
    r, _ = Searcher(PATTERNS, tt_mb=1).search(p, o, mask, SearchPlan(max_depth=depth))
    ref = max(-negamax(*_child(p, o, sq), mask, depth - 1, PATTERNS) for sq in list(b.legal_moves))
    assert round(r.score * EVAL_SCALE) == ref


def _child(p: int, o: int, sq: int) -> tuple[int, int]:
    f = int(bb.flips(np.uint64(p), np.uint64(o), sq))
    return o ^ f, p | f | (1 << sq)


def test_iterations_report_and_deepen(searchers: tuple[Searcher, Searcher]) -> None:
    s = searchers[0]
    s.clear()
    infos: list[SearchInfo] = []
    b = Board()
    p, o = b.side_bitboards()
    r, scores = s.search(p, o, b.geometry.mask, SearchPlan(max_depth=6), infos.append)
    assert [i.depth for i in infos] == [1, 2, 3, 4, 5, 6]
    assert r.depth == 6 and r.move in b.legal_moves and r.pv[0] == r.move
    assert infos[-1].nodes <= r.nodes
    assert {m.move for m in scores} <= set(b.legal_moves)


def test_multipv_scores_every_move_exactly(searchers: tuple[Searcher, Searcher]) -> None:
    s = searchers[0]
    b = random_position(5, 8, 20)
    assert b is not None
    p, o = b.side_bitboards()
    mask = b.geometry.mask
    s.clear()
    _, scores = s.search(p, o, mask, SearchPlan(max_depth=3, multipv=True))
    assert len(scores) == len(list(b.legal_moves))
    for ms in scores:
        assert round(ms.score * EVAL_SCALE) == -negamax(*_child(p, o, ms.move), mask, 2)
    assert [m.score for m in scores] == sorted((m.score for m in scores), reverse=True)


def test_node_limit_stops_the_search(searchers: tuple[Searcher, Searcher]) -> None:
    s = searchers[0]
    s.clear()
    b = Board()
    p, o = b.side_bitboards()
    r, _ = s.search(p, o, b.geometry.mask, SearchPlan(max_depth=30, nodes=5000))
    assert r.depth < 30 and r.move in b.legal_moves
    assert r.nodes <= 5001


# A finished game with two empty squares no one can play and 31 discs each: a draw.
DRAWN = (0x0F0F070F0F0F0F0F, 0xE0F0F0F0F0F0F0F0)


def test_contempt_makes_a_draw_worse_for_the_root_side_only(
    searchers: tuple[Searcher, Searcher],
) -> None:
    from bitflip.search.control import CONTEMPT, INF, MAX_NODES, NODES, STOP

    ctx = searchers[0].ctx
    ctx.ctl[[NODES, STOP]] = 0  # earlier tests may have left a stop or a node budget
    ctx.ctl[MAX_NODES] = 1 << 62
    full = (1 << 64) - 1
    assert ctx.midgame(*DRAWN, full, 1, -INF, INF) == 0
    ctx.ctl[CONTEMPT] = 30
    try:
        assert ctx.midgame(*DRAWN, full, 1, -INF, INF) == -30  # the root side to move
        assert ctx.midgame(*DRAWN, full, 1, -INF, INF, ply=1) == 30  # its opponent to move
    finally:
        ctx.ctl[CONTEMPT] = 0
    # The plan carries it into the search.
    big = searchers[0]
    b = Board()
    big.search(*b.side_bitboards(), b.geometry.mask, SearchPlan(max_depth=2, contempt=30))
    assert ctx.ctl[CONTEMPT] == 30
    big.search(*b.side_bitboards(), b.geometry.mask, SearchPlan(max_depth=2))
    assert ctx.ctl[CONTEMPT] == 0
