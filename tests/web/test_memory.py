"""The web server's memory bound: shared weights, idle games freeing engines and threads,
few games pondering at once. Measured for real by ``benchmarks/web_memory.py``; these tests
check the mechanism, on the stand-in engine and the test's clock."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from bitflip.web import reaper, tasks, workers
from bitflip.web.engine_bridge import new_engine, table_megabytes
from bitflip.web.manager import GameManager

from . import fake_engine
from .conftest import Clock, new, until


def test_engines_share_one_copy_of_the_weights() -> None:
    a = new_engine(level=1, tt_mb=1, size=8)
    b = new_engine(level=1, tt_mb=1, size=8)
    assert a is not b
    assert a.evaluation.weights is b.evaluation.weights  # type: ignore[attr-defined]
    assert table_megabytes(6, 13) < table_megabytes(8, 13) <= 16


def _engine_refs() -> list[weakref.ref[fake_engine.Engine]]:
    """Weak references to the stand-in engines made so far (the list forgets them)."""
    refs = [weakref.ref(e) for e in fake_engine.Engine.instances]
    fake_engine.Engine.instances.clear()
    return refs


def _alive(refs: list[weakref.ref[fake_engine.Engine]]) -> int:
    gc.collect()
    return sum(r() is not None for r in refs)


def test_idle_games_free_their_engines_and_threads(
    manager: GameManager, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "IDLE_SECONDS", 0.05)
    threads_before = threading.active_count()
    games = [new(manager, human="white") for _ in range(8)]  # the engine opens each game
    until(lambda: all(len(g.state.line) == 1 for g in games))
    refs = _engine_refs()
    assert refs
    clock.now += reaper.ENGINE_IDLE_SECONDS + 1  # nobody looks at them any more
    until(lambda: (manager.reap(), _alive(refs))[1] == 0)  # the reaper runs every second
    assert len(manager.games()) == 8  # the games stay; only their engines went
    until(lambda: threading.active_count() <= threads_before)
    board = games[0].state.board()
    manager.play(games[0].state.id, board.geometry.square_name(next(iter(board.legal_moves))))
    until(lambda: len(games[0].state.line) == 3)  # a new engine answers


def test_games_beyond_the_engine_bound_free_theirs(manager: GameManager, clock: Clock) -> None:
    games = []
    for _ in range(reaper.MAX_ENGINES + 4):
        games.append(new(manager, human="white"))
        until(lambda: len(games[-1].state.line) == 1)
        clock.now += 1
    refs = _engine_refs()
    until(lambda: (manager.reap(), _alive(refs))[1] <= reaper.MAX_ENGINES)
    holding = [g for g in games if g.holds_engines()]
    assert len(holding) <= reaper.MAX_ENGINES
    assert games[-1] in holding  # the most recently seen keep theirs


def test_only_a_few_games_ponder_at_once(manager: GameManager) -> None:
    games = [new(manager, human="black") for _ in range(tasks.MAX_PONDERING + 3)]
    until(lambda: games[-1].pondering())
    until(lambda: sum(g.pondering() for g in games) <= tasks.MAX_PONDERING)
    until(lambda: sum(e.pondering for e in fake_engine.Engine.instances) <= tasks.MAX_PONDERING)
    assert games[-1].pondering()


def test_a_game_dropped_from_memory_frees_its_engine(
    manager: GameManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bitflip.web.manager as manager_module

    monkeypatch.setattr(manager_module, "MAX_LIVE", 2)
    first = new(manager, human="black")
    # The game is flagged pondering before its task starts the engine's ponder under the game's
    # agent lock, and a game holding that lock is busy, which eviction skips: wait for the ponder.
    until(
        lambda: (
            first.pondering()
            and any(e.pondering for e in fake_engine.Engine.instances)
            and not first.busy()
        )
    )
    refs = _engine_refs()
    new(manager, human="both", moves="f5")
    new(manager, human="both", moves="f5")  # the first game leaves memory
    assert first not in manager.games()
    until(lambda: _alive(refs) == 0)


def test_an_idle_alphabeta_opponent_frees_its_engine_and_a_light_agent_keeps_its_state(
    manager: GameManager, clock: Clock
) -> None:
    heavy = new(manager, human="white", opponent="alphabeta:depth=1")
    light = new(manager, human="white", opponent="random", seed=3)
    until(lambda: len(heavy.state.line) == 1 and len(light.state.line) == 1, timeout=120)
    assert heavy.holds_engines() and not light.holds_engines()
    assert light.opponent is not None
    agent = light.opponent._agent
    clock.now += reaper.ENGINE_IDLE_SECONDS + 1
    until(lambda: (manager.reap(), not heavy.holds_engines())[1])
    assert light.opponent._agent is agent  # its random sequence goes on
    board = heavy.state.board()
    manager.play(heavy.state.id, board.geometry.square_name(next(iter(board.legal_moves))))
    until(lambda: len(heavy.state.line) == 3, timeout=120)  # built again for the next move
