"""The driver: iterative deepening, aspiration, limits, win/loss/draw solves, multi-PV."""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pytest

from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.engine import Engine, load_engine_evaluation
from bitflip.eval.evaluator import EVAL_SCALE, load_evaluation
from bitflip.search.driver import Searcher, _predict, _proof_rank
from bitflip.search.limits import Limit, SearchInfo
from bitflip.search.plan import SELECTIVE_WLD_SURE, SearchPlan


@pytest.fixture(scope="module")
def searcher() -> Searcher:
    return Searcher(load_evaluation("positional"), tt_mb=8)


def random_position(seed: int, empties: int) -> Board:
    """A position from a random game with ``empties`` empty squares (retrying seeds)."""
    rng = np.random.default_rng(seed)
    while True:
        b = Board()
        while bin(b.empty).count("1") > empties and not b.is_game_over():
            moves = list(b.legal_moves)
            b.push(moves[int(rng.integers(len(moves)))])
        if not b.is_game_over() and b.legal_mask() != 0:
            return b


def search(searcher: Searcher, b: Board, plan: SearchPlan) -> tuple[float, int, int, bool]:
    searcher.clear()
    p, o = b.side_bitboards()
    r, _ = searcher.search(p, o, b.geometry.mask, plan)
    return r.score, r.nodes, r.move, r.wld


def test_wld_proves_the_sign_of_the_exact_score_with_fewer_nodes(searcher: Searcher) -> None:
    exact_nodes = wld_nodes = 0
    signs = set()
    for seed in range(8):
        b = random_position(seed, 16)
        exact, n_exact, _, is_wld = search(searcher, b, SearchPlan(exact_empties=64))
        assert not is_wld
        wld, n_wld, move, is_wld = search(searcher, b, SearchPlan(exact_empties=64, wld=True))
        assert is_wld and wld in (-1.0, 0.0, 1.0)
        assert wld == np.sign(exact), b.obf()
        # The move proves the result: after it, the opponent's exact score has the other sign.
        child = b.copy()
        child.push(move)
        after, _, _, _ = search(searcher, child, SearchPlan(exact_empties=64))
        assert np.sign(-after) == wld
        exact_nodes += n_exact
        wld_nodes += n_wld
        signs.add(wld)
    assert len(signs) >= 2  # both wins and losses were proven
    assert wld_nodes < 0.8 * exact_nodes


def test_wld_empties_proves_wins_and_draws_and_searches_losses(searcher: Searcher) -> None:
    plan = SearchPlan(max_depth=4, exact_empties=10, wld_empties=16)
    outcomes = set()
    for seed in range(10):
        b = random_position(seed, 16)
        exact, _, _, _ = search(searcher, b, SearchPlan(exact_empties=64))
        score, _, move, is_wld = search(searcher, b, plan)
        if exact >= 0:
            # A win or a draw is proven, and the move keeps it: the opponent's exact score
            # after it has the other sign.
            assert is_wld and score == np.sign(exact), b.obf()
            child = b.copy()
            child.push(move)
            after, _, _, _ = search(searcher, child, SearchPlan(exact_empties=64))
            assert np.sign(-after) == score
        else:
            # A loss: the midgame search picks the move, the one hardest to punish.
            searcher.clear()
            p, o = b.side_bitboards()
            r, _ = searcher.search(p, o, b.geometry.mask, plan)
            assert not r.wld and not r.exact and r.depth == 4, b.obf()
        outcomes.add(np.sign(exact))
    assert {-1.0, 1.0} <= outcomes  # both ways were met
    # Outside its range the plan is a plain midgame search, and hints score every move.
    b = random_position(0, 17)
    assert not search(searcher, b, plan)[3]
    b = random_position(0, 16)
    p, o = b.side_bitboards()
    _, scores = searcher.search(p, o, b.geometry.mask, replace(plan, multipv=True))
    assert not any(s.exact for s in scores)
    # The lowest levels prove from 4 empties, too few for a midgame search before it.
    for seed in range(4):
        b = random_position(seed, 4)
        score, _, move, is_wld = search(searcher, b, SearchPlan(exact_empties=2, wld_empties=4))
        assert b.is_legal(move) and (not is_wld or score >= 0)


def test_wld_proofs_from_20_empties_pass_through_selective_passes(searcher: Searcher) -> None:
    # From 20 empties a proof first runs the ProbCut passes in (-1, 1), then the exact one.
    b = random_position(5, 20)
    exact, _, _, _ = search(searcher, b, SearchPlan(exact_empties=64))
    wld, _, move, is_wld = search(searcher, b, SearchPlan(exact_empties=64, wld=True))
    assert is_wld and wld == np.sign(exact), b.obf()
    child = b.copy()
    child.push(move)
    after, _, _, _ = search(searcher, child, SearchPlan(exact_empties=64))
    assert np.sign(-after) == wld


def test_a_proof_before_a_midgame_search_settles_a_loss_or_draw_on_its_surer_pass(
    searcher: Searcher,
) -> None:
    plan = SearchPlan(max_depth=4, exact_empties=10, wld_empties=21)
    losses = 0
    for seed in range(1, 4):
        b = random_position(seed, 21)
        p, o = b.side_bitboards()
        searcher.clear()
        proof, _ = searcher.search(p, o, b.geometry.mask, SearchPlan(exact_empties=64, wld=True))
        if proof.score >= 0:
            continue
        # Asked for, a proof of a loss is proven to the end (every move refuted) ...
        assert proof.exact and proof.wld, b.obf()
        # ... but before a midgame search that picks the move after a loss either way, the
        # proof stops at its surer selective pass's loss, and costs less than proving it.
        searcher.clear()
        r, _ = searcher.search(p, o, b.geometry.mask, plan)
        assert not r.wld and r.depth == 4 and r.nodes < proof.nodes, b.obf()
        losses += 1
    assert losses >= 2
    # A draw its surer selective pass finds is the answer, unproven, for less than the proof.
    b = random_position(8, 20)
    p, o = b.side_bitboards()
    searcher.clear()
    proof, _ = searcher.search(p, o, b.geometry.mask, SearchPlan(exact_empties=64, wld=True))
    assert proof.exact and proof.wld and proof.score == 0.0, b.obf()
    searcher.clear()
    r, _ = searcher.search(p, o, b.geometry.mask, replace(plan, wld_empties=20))
    assert r.wld and not r.exact and r.score == 0.0 and r.nodes < proof.nodes, b.obf()


def test_a_solve_over_its_node_budget_answers_with_its_last_selective_pass(
    searcher: Searcher,
) -> None:
    b = random_position(3, 22)
    p, o = b.side_bitboards()
    searcher.clear()
    proven, _ = searcher.search(p, o, b.geometry.mask, SearchPlan(exact_empties=64))
    assert proven.exact and proven.depth == 22
    # A budget the exact pass runs out of: the selective pass before it answers, in discs.
    plan = SearchPlan(exact_empties=64, solve_nodes=proven.nodes * 9 // 10)
    searcher.clear()
    r, scores = searcher.search(p, o, b.geometry.mask, plan)
    assert not r.exact and not r.wld and r.depth == 22 and r.nodes < proven.nodes
    assert r.move in b.legal_moves and r.score == int(r.score) and abs(r.score) <= 64
    assert scores[0].score == r.score and r.pv[0] == r.move
    # A budget no pass finishes in: the short midgame search before the solve answers.
    searcher.clear()
    r, _ = searcher.search(p, o, b.geometry.mask, replace(plan, solve_nodes=1000))
    assert not r.exact and r.depth == 6 and r.move in b.legal_moves


def test_a_proof_over_its_node_budget_answers_with_a_likely_win_or_searches(
    searcher: Searcher,
) -> None:
    b = random_position(0, 21)
    p, o = b.side_bitboards()
    plan = SearchPlan(max_depth=4, exact_empties=10, wld_empties=21)
    searcher.clear()
    proven, _ = searcher.search(p, o, b.geometry.mask, plan)
    assert proven.exact and proven.wld and proven.score == 1.0
    # The exact pass runs out: the selective passes' likely win answers.
    searcher.clear()
    budget = replace(plan, solve_nodes=proven.nodes * 9 // 10)
    r, _ = searcher.search(p, o, b.geometry.mask, budget)
    assert r.wld and not r.exact and r.score == 1.0 and r.nodes < proven.nodes
    # No pass finishes: the midgame search picks the move (the budget's stop was cleared).
    searcher.clear()
    r, _ = searcher.search(p, o, b.geometry.mask, replace(plan, solve_nodes=1000))
    assert not r.wld and r.depth == 4 and r.move in b.legal_moves


def test_engine_takes_exact_and_wld_limits() -> None:
    engine = Engine(level=1, tt_mb=8)
    b = Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")  # FFO #1
    engine.set_position(b)
    exact = engine.go(Limit(exact=True))
    assert exact.exact and not exact.wld and exact.score == 18.0
    assert isinstance(exact.score, float)  # discs as a float, exact or not
    wld = engine.go(Limit(wld=True))
    assert wld.exact and wld.wld and wld.score == 1.0
    assert wld.nodes < exact.nodes
    hints = engine.hint(3, Limit(wld=True))
    assert hints[0].score == 1.0 and all(h.score in (-1.0, 0.0, 1.0) for h in hints)
    with pytest.raises(ValueError, match="not both"):
        Limit(exact=True, wld=True)


def test_iterations_are_reported_in_order_and_scores_are_in_discs(searcher: Searcher) -> None:
    b = random_position(3, 40)
    infos: list[SearchInfo] = []
    p, o = b.side_bitboards()
    searcher.clear()
    r, scores = searcher.search(p, o, b.geometry.mask, SearchPlan(max_depth=5), infos.append)
    assert [i.depth for i in infos] == [1, 2, 3, 4, 5]
    assert r.depth == 5 and r.score == infos[-1].score and not r.exact
    assert r.pv[0] == r.move and scores[0].move == r.move
    # The score is the kernel's value in discs: searching the child a ply less agrees.
    child = b.copy()
    child.push(r.move)
    cp, co = child.side_bitboards()
    v = searcher.ctx.midgame(cp, co, b.geometry.mask, 4, -(10**6), 10**6, ply=1)
    assert r.score == pytest.approx(-v / EVAL_SCALE)


def test_multipv_scores_every_move_exactly(searcher: Searcher) -> None:
    b = random_position(5, 12)
    p, o = b.side_bitboards()
    searcher.clear()
    _, scores = searcher.search(p, o, b.geometry.mask, SearchPlan(exact_empties=64, multipv=True))
    assert {s.move for s in scores} == set(b.legal_moves)
    for s in scores:
        child = b.copy()
        child.push(s.move)
        cp, co = child.side_bitboards()
        searcher.clear()
        r, _ = searcher.search(cp, co, b.geometry.mask, SearchPlan(exact_empties=64))
        assert s.score == -r.score


def test_node_limit_stops_the_search(searcher: Searcher) -> None:
    b = random_position(1, 44)
    p, o = b.side_bitboards()
    searcher.clear()
    r, _ = searcher.search(p, o, b.geometry.mask, SearchPlan(max_depth=30, nodes=20_000))
    assert r.move in b.legal_moves and r.depth < 30
    assert r.nodes < 200_000


def test_stop_from_another_thread_ends_a_long_solve(searcher: Searcher) -> None:
    b = random_position(2, 30)
    p, o = b.side_bitboards()
    searcher.clear()
    timer = threading.Timer(0.2, searcher.stop)
    timer.start()
    r, _ = searcher.search(p, o, b.geometry.mask, SearchPlan(exact_empties=64))
    timer.cancel()
    assert r.move in b.legal_moves and r.time < 10


def test_a_forced_pass_searches_the_opponent() -> None:
    searcher = Searcher(load_evaluation("positional"), tt_mb=1)
    b = Board("XXXXXXXX" * 7 + "XXXXXO-- O")
    p, o = b.side_bitboards()
    r, scores = searcher.search(p, o, b.geometry.mask, SearchPlan(exact_empties=64))
    assert r.move == PASS and r.pv[0] == PASS and r.exact
    assert scores[0].move == PASS and scores[0].score == r.score
    with pytest.raises(ValueError, match="game is over"):
        full = Board("X" * 64 + " O")
        fp, fo = full.side_bitboards()
        searcher.search(fp, fo, full.geometry.mask, SearchPlan())


def test_time_prediction() -> None:
    assert _predict([]) == 0.0
    assert _predict([0.5]) == 2.0  # one iteration: four times as long
    assert _predict([0.1, 0.2]) == pytest.approx(0.4)  # growth clamped to at least 2
    assert _predict([0.1, 2.0]) == pytest.approx(16.0)  # and at most 8


@pytest.mark.slow
def test_game_move_after_a_deep_solve_answers() -> None:
    """The game where it happened (bitflip level 16 against Zebra, 2026-11-24): after the
    exact solve at 22 empties the table made the next solve's selective pass alternate between
    failing high and low, and the move never came."""
    line = "f5f4g3g6c4c5d6d3c6f3g4b5e3c3f6e6b6g5e7c7f7h4h3e2h7a6b7d7c8f2b8f8e8g7h8g8d2c2e1d1"
    moves = [line[i : i + 2] for i in range(0, len(line), 2)]
    engine = Engine(level=16)
    b = Board()
    for m in moves[:38]:
        b.push(m)
    engine.set_position(b)
    assert engine.go().exact
    for m in moves[38:]:
        b.push(m)
    engine.set_position(b)
    r = engine.go(Limit(level=16, time=60.0))  # the time only ends a search that would hang
    assert r.exact and r.score == -10


def test_selective_wld_empties_prove_likely_wins_with_probcut() -> None:
    # Past wld_empties, up to selective_wld_empties, the proof is cut by the endgame's ProbCut:
    # a likely win or draw (reported as a win/loss/draw answer, not as proven) for fewer nodes
    # than the full proof, else the midgame search. The cut's fit is the shipped evaluation's.
    searcher = Searcher(load_engine_evaluation("default"), tt_mb=16)
    full = SearchPlan(max_depth=4, exact_empties=10, wld_empties=19)
    plan = SearchPlan(max_depth=4, exact_empties=10, wld_empties=14, selective_wld_empties=19)
    agree = answered = full_nodes = sel_nodes = 0
    for seed in range(8):
        b = random_position(seed, 19)
        searcher.clear()
        p, o = b.side_bitboards()
        r, _ = searcher.search(p, o, b.geometry.mask, plan)
        assert b.is_legal(r.move)
        assert not r.exact  # never claimed as proven
        if r.wld:
            answered += 1
            assert r.score >= 0 and r.depth == 19, b.obf()
            proof, _, _, _ = search(searcher, b, SearchPlan(exact_empties=64, wld=True))
            agree += proof >= 0
        else:
            assert r.depth == 4  # no likely win: the midgame search's move
        sel_nodes += r.nodes
        full_nodes += search(searcher, b, full)[1]
    assert answered >= 3 and agree >= answered - 1
    assert sel_nodes < 0.5 * full_nodes
    # Outside the range, the plan is a plain midgame search.
    assert not search(searcher, random_position(0, 20), plan)[3]


@pytest.mark.parametrize(
    ("wld", "selective", "empties", "rank"),
    [
        (22, 26, 22, 3),
        (22, 26, 23, 2),
        (22, 26, 22 + SELECTIVE_WLD_SURE, 2),
        (22, 26, 23 + SELECTIVE_WLD_SURE, 1),
    ],
)
def test_selective_proofs_are_surer_near_the_full_ones(
    wld: int, selective: int, empties: int, rank: int
) -> None:
    plan = SearchPlan(exact_empties=18, wld_empties=wld, selective_wld_empties=selective)
    assert _proof_rank(plan, empties) == rank
