"""The game manager's housekeeping: what happens to games nobody is looking at.

Once a second the :class:`Reaper` stops pondering in games no page watches (and after
:data:`bitflip.web.tasks.PONDER_SECONDS` in any), makes flags fall on the game clock, frees the
engines of idle games (:data:`ENGINE_IDLE_SECONDS`, :data:`MAX_ENGINES`) and drops long-unwatched
games from memory (:data:`EVICT_SECONDS`; stored games come back from the store on the next
request). So a server's memory and threads come back once its games go idle.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
from typing import TYPE_CHECKING

from bitflip.core.board import BLACK
from bitflip.web.live_game import LiveGame

if TYPE_CHECKING:
    from bitflip.web.manager import GameManager

log = logging.getLogger(__name__)

EVICT_SECONDS = 600.0
"""A game no page has looked at for this long leaves memory (and frees its engines)."""
BARE_EVICT_SECONDS = 60.0
"""A game in which nothing happened (not stored) leaves memory sooner: nothing is lost."""
ENGINE_IDLE_SECONDS = 30.0
"""A game no page has looked at for this long frees its engines (they are rebuilt on use)."""
MAX_ENGINES = 6
"""Games holding engines at once; past it, the least recently seen idle games free theirs."""
REAP_SECONDS = 1.0
"""How often the reaper looks at the games."""


def return_free_memory() -> bool:
    """Hand the C heap's free memory back to the system (glibc's ``malloc_trim``).

    Freed tables leave holes in the heaps of the threads that used them, which glibc keeps for
    later use: without this a server that went idle keeps the size of its busiest moment.
    False where the C library has no ``malloc_trim`` (not glibc).
    """
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        trim = libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim(0)
    return True


class Reaper:
    """The housekeeping of one manager's games, on a thread of its own once started."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        self._stop = threading.Event()

    def start(self) -> None:
        threading.Thread(target=self._loop, name="bitflip-reaper", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def _loop(self) -> None:
        while not self._stop.wait(REAP_SECONDS):
            try:
                self.reap()
            except Exception:
                log.exception("the reaper failed")

    def reap(self) -> None:
        """Stop pondering in unwatched games (and after a minute in any), let flags fall, free
        the engines of idle games, drop long-unwatched games."""
        m = self.manager
        now = m.clock()
        freed = False
        for s in m.games():
            with s.lock:
                if s.ponder_epoch == s.epoch and not s.watched(now):
                    m.tasks.end_ponder(s, s.epoch)
                m.tasks.rest_if_long(s)
                self._check_flag(s, now)
            idle = now - s.last_seen
            limit = EVICT_SECONDS if s.stored else BARE_EVICT_SECONDS
            if idle > limit and s.polls == 0 and not s.busy():
                freed = m.drop(s) or freed
        if self.free_engines() or freed:
            return_free_memory()

    def free_engines(self) -> bool:
        """Free the engines of games unseen for :data:`ENGINE_IDLE_SECONDS`, then of the least
        recently seen idle games until at most :data:`MAX_ENGINES` games hold engines; True
        when some were freed."""
        now = self.manager.clock()
        holding = sorted(
            (g for g in self.manager.games() if g.holds_engines()), key=lambda g: g.last_seen
        )
        excess = len(holding) - MAX_ENGINES
        freed = False
        for g in holding:
            unseen = g.polls == 0 and now - g.last_seen > ENGINE_IDLE_SECONDS
            if excess <= 0 and not unseen:
                continue
            with g.lock:
                if g.release_engines():
                    excess -= 1
                    freed = True
        return freed

    def _check_flag(self, s: LiveGame, now: float) -> None:
        """The side to move loses on time when its clock is out (caller holds ``s.lock``)."""
        if s.state.clock is None:
            return
        board = s.state.board()
        left = s.clocks_now(board, now)
        if left is None or not s.clock_running(board):
            return
        mover_left = left[0] if board.turn == BLACK else left[1]
        if mover_left <= 0:
            s.state.end(board.turn, "time")
            self.manager.tasks.changed(s)
