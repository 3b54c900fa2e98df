"""The engine facade: positions, limits, stop from another thread, pondering, analysis.

Its agents (``engine:``, ``alphabeta:``) are tested with the others in tests/test_agents.py.
"""

from __future__ import annotations

import threading

import pytest

from bitflip import PASS, Board
from bitflip.engine import Engine, MoveAnalysis
from bitflip.search.limits import Clocks, Limit, SearchInfo


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(level=3, tt_mb=8)


def test_go_returns_a_legal_move_and_reports(engine: Engine) -> None:
    engine.new_game()
    engine.set_position(Board())
    infos: list[SearchInfo] = []
    r = engine.go(Limit(depth=4), on_info=infos.append)
    assert r.move in Board().legal_moves
    assert r.depth == 4 and [i.depth for i in infos] == [1, 2, 3, 4]
    assert r.nodes > 0 and r.pv[0] == r.move


def test_go_passes_when_passing_is_the_only_move(engine: Engine) -> None:
    # White to move has no move; black has.
    b = Board("XXXXXXXX" * 7 + "XXXXXO-- O")
    assert list(b.legal_moves) == [PASS]
    engine.set_position(b)
    assert engine.go().move == PASS


def test_go_on_a_finished_game_is_a_value_error(engine: Engine) -> None:
    engine.set_position(Board("X" * 64 + " O"))
    with pytest.raises(ValueError, match="game is over"):
        engine.go()


def test_set_position_copies_the_board(engine: Engine) -> None:
    b = Board()
    engine.set_position(b)
    b.push("f5")
    assert engine.board == Board()


def test_endgame_is_solved_exactly(engine: Engine) -> None:
    b = Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
    engine.level = 7  # solves 14 empties
    engine.set_position(b)
    r = engine.go()
    engine.level = 3
    assert r.exact and r.depth == bin(b.empty).count("1")
    hints = engine.hint(2, Limit(depth=60))
    assert hints[0].exact and hints[0].score == r.score


def test_a_depth_reaching_the_end_solves_at_once(engine: Engine) -> None:
    # As `set depth 60` in NBoard: an exact solve, not midgame iterations up to the end first.
    b = Board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
    engine.set_position(b)
    infos: list[SearchInfo] = []
    r = engine.go(Limit(depth=60), on_info=infos.append)
    assert r.exact and r.depth == bin(b.empty).count("1")
    assert all(i.depth <= 6 for i in infos if not i.exact)  # only the short ordering search


def test_hint_ranks_the_best_moves(engine: Engine) -> None:
    b = Board()
    b.push("f5")
    engine.set_position(b)
    hints = engine.hint(2, Limit(depth=3))
    assert len(hints) == 2 and hints[0].score >= hints[1].score
    assert all(h.move in b.legal_moves for h in hints)
    assert len(engine.hint(limit=Limit(depth=2))) == 3


def test_stop_from_another_thread(engine: Engine) -> None:
    engine.new_game()
    engine.set_position(Board())
    threading.Timer(0.2, engine.stop).start()
    r = engine.go(Limit(depth=40))
    assert r.move in Board().legal_moves and r.depth < 40


def test_time_limit_ends_the_search(engine: Engine) -> None:
    engine.new_game()
    engine.set_position(Board())
    r = engine.go(Limit(time=0.2))
    assert r.move in Board().legal_moves and r.depth < 40
    r = engine.go(Limit(clocks=Clocks(mine=2.0)))
    assert r.move in Board().legal_moves


@pytest.mark.parametrize("threads", [1, 2])
def test_ponder_then_go(engine: Engine, threads: int) -> None:
    """With one search thread and with lazy SMP helpers."""
    e = engine if threads == 1 else Engine(tt_mb=32, threads=2)
    e.new_game()
    b = Board()
    b.push("f5")
    e.set_position(b)
    e.ponder()
    assert e.pondering
    r = e.go(Limit(depth=4))
    assert not e.pondering and r.move in b.legal_moves and r.depth == 4


def test_analyze_game_marks_the_played_moves(engine: Engine) -> None:
    b = Board()
    for m in ["f5", "d6", "c3", "d3", "c4"]:
        b.push(m)
    progress: list[tuple[int, int]] = []
    rows = engine.analyze_game(b, Limit(depth=2), on_progress=lambda d, t: progress.append((d, t)))
    assert [r.played for r in rows] == b.move_stack
    assert progress[-1] == (5, 5)
    for r in rows:
        assert isinstance(r, MoveAnalysis) and r.loss >= 0
        assert (r.loss == 0) == (r.played_score == r.best_score)
