"""Lazy SMP: several threads sharing the tables give the same exact scores as one."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from bitflip import Board
from bitflip.engine import Engine
from bitflip.search.limits import Limit

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


def test_ponder_then_go_with_helpers(engines: tuple[Engine, Engine]) -> None:
    _, two = engines
    b = Board()
    b.push("f5")
    two.set_position(b)
    two.ponder()
    assert two.pondering
    r = two.go(Limit(depth=4))
    assert not two.pondering and r.move in b.legal_moves and r.depth == 4


def test_a_node_budget_is_kept_by_one_thread(engines: tuple[Engine, Engine]) -> None:
    one, two = engines
    counts = []
    for e in (one, two):
        e.new_game()
        e.set_position(Board())
        counts.append(e.go(Limit(nodes=20_000)).nodes)
    assert counts[0] == counts[1]
