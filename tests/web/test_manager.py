"""The game manager without HTTP: watching and pondering, eviction, epochs, storing.

Runs on the stand-in engine (tests/web/fake_engine.py) and a clock the test moves, with the
reaper called by hand.
"""

from __future__ import annotations

import time

import pytest

import bitflip.web.manager as manager_module
from bitflip.web import api, reaper
from bitflip.web.live_game import WATCH_SECONDS
from bitflip.web.manager import GameManager

from . import fake_engine
from .conftest import Clock, new, until


def test_pondering_stops_when_no_page_watches(manager: GameManager, clock: Clock) -> None:
    s = new(manager, human="white")  # the engine opens, then ponders on the person's time
    until(lambda: s.ponder_epoch == s.epoch)
    opponent = fake_engine.Engine.instances[0]
    until(lambda: opponent.pondering)
    manager.reap()
    assert s.ponder_epoch == s.epoch  # just seen: still watched
    clock.now += WATCH_SECONDS + 1
    manager.reap()
    assert s.ponder_epoch is None
    until(lambda: not opponent.pondering)
    manager.get(s.state.id)  # a page comes back: pondering starts again
    until(lambda: s.ponder_epoch == s.epoch and opponent.pondering)


def test_a_long_poll_keeps_the_game_watched(manager: GameManager, clock: Clock) -> None:
    s = new(manager, human="white")
    until(lambda: s.ponder_epoch == s.epoch)
    s.polls += 1
    clock.now += 10 * WATCH_SECONDS
    manager.reap()
    assert s.ponder_epoch == s.epoch
    s.polls -= 1
    manager.reap()
    assert s.ponder_epoch is None


def test_unwatched_games_leave_memory_and_come_back_from_the_store(
    manager: GameManager, clock: Clock
) -> None:
    s = new(manager, human="both", moves="f5d6")
    gid = s.state.id
    clock.now += reaper.EVICT_SECONDS + 1
    manager.reap()
    assert gid not in {g.state.id for g in manager.games()}
    back = manager.get(gid)
    assert back is not s and back.state.line == s.state.line


def test_a_bare_unwatched_game_leaves_memory_soon(manager: GameManager, clock: Clock) -> None:
    s = new(manager, human="both")
    clock.now += reaper.BARE_EVICT_SECONDS + 1
    manager.reap()
    assert s.state.id not in {g.state.id for g in manager.games()}
    with pytest.raises(manager_module.UnknownGame):
        manager.get(s.state.id)  # it was never stored: nothing was lost


def test_too_many_games_evict_the_least_recent(
    manager: GameManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(manager_module, "MAX_LIVE", 2)
    games = [new(manager, human="both", moves="f5") for _ in range(3)]
    ids = {g.state.id for g in manager.games()}
    assert len(ids) == 2 and games[0].state.id not in ids


def test_a_search_of_an_older_epoch_is_thrown_away(manager: GameManager) -> None:
    s = new(manager, human="both", moves="f5")
    board = s.state.board()
    old = s.epoch
    manager.jump(s.state.id, 0)  # the position changes: a new epoch
    assert s.epoch > old
    manager.tasks.think(s, board, old)  # a search started before the change ends now
    assert len(s.state.tree) == 2 and s.state.cursor == 0  # nothing played
    manager.tasks.think(s, s.state.board(), s.epoch)  # one of this epoch is played
    assert s.state.cursor == 1


def test_a_bare_new_game_is_not_stored(manager: GameManager) -> None:
    s = new(manager, human="black")
    assert manager.store.list() == []
    manager.play(s.state.id, "f5")
    until(lambda: len(s.state.line) == 2)
    assert [g.id for g in manager.store.list()] == [s.state.id]
    manager.delete(s.state.id)
    assert manager.store.list() == []


def test_move_now_while_reviewing_starts_a_variation(manager: GameManager) -> None:
    s = new(manager, human="black", moves="f5d6c3d3")
    manager.jump(s.state.id, 1)  # white to move, the line goes on with d6
    manager.move_now(s.state.id)
    until(lambda: s.state.cursor >= 2 and s.think_epoch != s.epoch)
    main = s.state.tree.line_moves(s.state.tree.main_line())
    assert len(main) == 4  # the game as played is kept whatever the engine chose
    # The fake engine counts discs: its move at ply 1 is not the game's d6, so a branch.
    assert s.state.line[1] != main[1] and not s.state.on_main_line()


def test_watch_mode_pauses(manager: GameManager) -> None:
    s = new(manager, human="none", opponent="engine:level=1")
    manager.configure(s.state.id, api.GameSettings(paused=True, delay=0))
    until(lambda: s.think_epoch != s.epoch)
    n = len(s.state.line)
    time.sleep(0.2)
    assert len(s.state.line) == n and s.think_epoch != s.epoch
    manager.configure(s.state.id, api.GameSettings(paused=False))
    until(lambda: len(s.state.line) > n + 2)


def test_the_clock_runs_out_and_a_rename_gives_no_time_back(
    manager: GameManager, clock: Clock
) -> None:
    s = new(manager, human="black", minutes=1)
    gid = s.state.id
    clock.now += 30
    manager.configure(gid, api.GameSettings(title="blitz"))
    left = s.clocks_now(s.state.board(), clock.now)
    assert left is not None and left[0] == pytest.approx(30) and left[1] == 60
    clock.now += 31
    manager.reap()
    view = manager.view(s)
    assert view.over and view.result is not None
    assert view.result.text == "Black ran out of time: white wins"


def test_a_stored_game_whose_opponent_cannot_play_its_board_gets_the_default(
    manager: GameManager,
) -> None:
    from bitflip.web.games import GameState

    manager.store.save(GameState.new("old6x6", size=6, human="black", opponent="policy"))
    s = manager.get("old6x6")  # stored before sizes were checked: it would never move
    assert s.state.opponent == manager.default_opponent and "cannot play" in s.error
