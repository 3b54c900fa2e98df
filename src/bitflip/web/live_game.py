"""One live game: its state, lock, opponent, and what is going on around it right now.

Two counters tell changes apart: ``epoch`` grows when the position or line changes (a search
started on an older epoch is thrown away), ``version`` grows with any change a page should
show (clients poll ``GET /api/games/{id}?after=version``). A page that polls the game marks it
*watched*; pondering and engine play stop in games no page has looked at for a while.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from bitflip.core.board import BLACK, Board, Color
from bitflip.search.limits import Clocks
from bitflip.web import api
from bitflip.web.engine_bridge import Analyst, Opponent
from bitflip.web.games import GameState

WATCH_SECONDS = 8.0
"""A game is watched while a page polls it, and this long after its last request."""
DEFAULT_DELAY = 0.6
"""Seconds between moves when the person watches the engine play both sides."""


@dataclass
class LiveGame:
    """A game in memory with what is going on around it."""

    state: GameState
    opponent: Opponent | None = None
    analyst: Analyst | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    agent_lock: threading.Lock = field(default_factory=threading.Lock)
    version: int = field(default_factory=lambda: time.time_ns() // 1_000_000)
    """Starts at the clock in ms, so versions keep growing across server restarts."""
    epoch: int = 0
    think_epoch: int | None = None
    ponder_epoch: int | None = None
    ponder_started: float = 0.0
    """When pondering began (``time.monotonic``, real time: it rests after a real minute)."""
    rested_epoch: int | None = None
    """Pondering ran its time in this epoch: it does not start again until the next."""
    force_move: bool = False
    analysing: api.Progress | None = None
    search: api.SearchProgress | None = None
    error: str = ""
    stored: bool = False
    """In the store: a fresh game is stored only once something happened in it."""
    last_seen: float = field(default_factory=time.monotonic)
    """When a request last named the game (monotonic seconds)."""
    polls: int = 0
    """Long polls waiting on the game now: a page has it open."""
    turn_started: float = field(default_factory=time.monotonic)
    """When the position at the cursor was reached (the game clock runs from here)."""
    turn_node: int = -1
    """The node ``turn_started`` belongs to: other changes (a rename, a setting) keep it."""
    paused: bool = False
    """Watch mode: the engine does not move while paused."""
    delay: float = DEFAULT_DELAY
    """Watch mode: least seconds between two engine moves."""
    dropped: bool = False
    """Left memory: a background task that starts later does nothing (its engines are gone)."""

    def reached(self, now: float) -> None:
        """The position at the cursor is shown now: its clock starts unless it already ran."""
        if self.state.node != self.turn_node:
            self.turn_node = self.state.node
            self.turn_started = now

    def watched(self, now: float) -> bool:
        return self.polls > 0 or now - self.last_seen < WATCH_SECONDS

    def busy(self) -> bool:
        return (
            self.think_epoch == self.epoch or self.analysing is not None or self.agent_lock.locked()
        )

    def pondering(self) -> bool:
        return self.ponder_epoch is not None and self.ponder_epoch == self.epoch

    def holds_engines(self) -> bool:
        return any(a is not None and a.holds_engine for a in (self.opponent, self.analyst))

    def release_engines(self) -> bool:
        """Free the engines (tables, ponder thread) of a game that uses none now; the next
        search builds new ones. False when one is in use (it is kept)."""
        if self.busy() or self.pondering():
            return False
        if not self.agent_lock.acquire(blocking=False):
            return False
        try:
            freed = self.analyst is None or self.analyst.release()
            if self.opponent is not None:
                self.opponent.release()
            return freed
        finally:
            self.agent_lock.release()

    # --- the game clock ----------------------------------------------------------------------

    def clock_running(self, board: Board) -> bool:
        st = self.state
        return (
            st.clock is not None
            and st.cursor == len(st.line)
            and not st.is_over(board)
            and st.node in st.clocks
        )

    def clocks_now(self, board: Board, now: float) -> tuple[float, float] | None:
        """Black's and white's seconds left now (the side to move's clock runs)."""
        st = self.state
        left = st.clocks.get(st.node)
        if st.clock is None or left is None:
            return None
        if not self.clock_running(board):
            return left
        spent = now - self.turn_started
        black, white = left
        return (black - spent, white) if board.turn == BLACK else (black, white - spent)

    def engine_clocks(self, board: Board, now: float) -> Clocks | None:
        """The clock as the engine budgets from it (its own time first)."""
        left = self.clocks_now(board, now)
        if left is None:
            return None
        mine, theirs = left if board.turn == BLACK else (left[1], left[0])
        return Clocks(max(mine, 0.0), max(theirs, 0.0), self.state.increment)

    def clocks_after_move(self, mover: Color, now: float) -> tuple[float, float] | None:
        """The clocks once ``mover`` has moved from the position at the cursor."""
        st = self.state
        left = st.clocks.get(st.node)
        if st.clock is None or left is None:
            return None
        spent = now - self.turn_started
        black, white = left
        if mover == BLACK:
            return (black - spent + st.increment, white)
        return (black, white - spent + st.increment)
