"""The background work of live games: the opponent's move, pondering, game analysis.

:class:`BackgroundTasks` belongs to a :class:`bitflip.web.manager.GameManager`. Every task is
started under the game's lock with the game's ``epoch``; its result is applied only if the
epoch is still the same (the position did not change meanwhile), else thrown away. Tasks run on
a :class:`~bitflip.web.workers.WorkerPool` whose idle threads end. At most
:data:`MAX_PONDERING` games ponder at once: pondering is a full search on a core.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from bitflip.core.board import Board, IllegalMoveError, InvalidMoveError
from bitflip.core.geometry import PASS
from bitflip.search.limits import SearchInfo
from bitflip.web import api
from bitflip.web.engine_bridge import disc_score, is_pass_only
from bitflip.web.live_game import LiveGame
from bitflip.web.workers import WorkerPool

log = logging.getLogger(__name__)

PONDER_SECONDS = 60.0
"""Longest the engine ponders on the person's time before it rests (real seconds)."""
MAX_PONDERING = 2
"""Games that ponder at once; a game that starts pondering ends the least recently seen one's."""


class BackgroundTasks:
    """Starting and finishing the background tasks of games (see the module docstring).

    Args:
        clock: the manager's clock (game clocks, watching).
        save: stores a game (called under its lock).
        workers: threads for opponents, pondering and analysis.
    """

    def __init__(
        self, *, clock: Callable[[], float], save: Callable[[LiveGame], None], workers: int
    ) -> None:
        self.clock = clock
        self._save = save
        self.pool = WorkerPool(workers, name="bitflip-web")
        self.closed = False
        self._pondering: dict[str, LiveGame] = {}
        self._pondering_lock = threading.Lock()

    def close(self) -> None:
        self.closed = True
        self.pool.shutdown()

    # --- after a change ----------------------------------------------------------------------

    def changed(self, s: LiveGame) -> None:
        """After the line or cursor changed: stop stale searches, store, let the opponent move."""
        self.invalidate(s)
        s.error = ""
        s.reached(self.clock())
        self._save(s)
        self.kick(s)

    def invalidate(self, s: LiveGame) -> None:
        s.epoch += 1
        s.version += 1
        s.force_move = False
        if s.opponent is not None and (s.think_epoch is not None or s.ponder_epoch is not None):
            s.opponent.stop()
        s.think_epoch = s.ponder_epoch = None
        s.search = None

    def kick(self, s: LiveGame) -> None:
        """Start what the position at the cursor calls for (caller holds ``s.lock``)."""
        if self.closed or s.dropped:
            return
        st = s.state
        board = st.board()
        if st.is_over(board):
            return
        at_end = st.cursor == len(st.line)
        if not st.is_human(board.turn):
            paused = st.human == "none" and s.paused and not s.force_move
            if (at_end or s.force_move) and s.think_epoch != s.epoch and not paused:
                s.think_epoch = s.epoch
                s.version += 1
                self.pool.submit(self.think, s, board, s.epoch)
            return
        if at_end and is_pass_only(board):
            clocks = s.clocks_after_move(board.turn, self.clock())
            st.play(PASS)  # the person has no move: pass for them (the page announces it)
            if clocks is not None:
                st.clocks[st.node] = clocks
            self.invalidate(s)
            s.reached(self.clock())
            self._save(s)
            self.kick(s)
            return
        if (
            s.opponent is not None
            and s.opponent.can_ponder
            and st.human != "both"
            and s.ponder_epoch != s.epoch
            and s.rested_epoch != s.epoch
            and s.watched(self.clock())
        ):
            s.ponder_epoch = s.epoch
            s.ponder_started = time.monotonic()
            self._make_room_to_ponder(s)
            self.pool.submit(self._ponder, s, board, s.epoch)

    def _make_room_to_ponder(self, s: LiveGame) -> None:
        """Count ``s`` among the pondering games; past :data:`MAX_PONDERING`, the least
        recently seen other one rests (its lock is taken on a pool thread, never here)."""
        with self._pondering_lock:
            live = {k: g for k, g in self._pondering.items() if g.pondering() and g is not s}
            self._pondering = {**live, s.state.id: s}
            excess = sorted(live.values(), key=lambda g: g.last_seen)[
                : max(0, len(live) + 1 - MAX_PONDERING)
            ]
        for g in excess:
            epoch = g.ponder_epoch
            if epoch is not None:
                self.pool.submit(self.end_ponder, g, epoch, True)

    # --- the tasks ---------------------------------------------------------------------------

    def _wait_for_pace(self, s: LiveGame, epoch: int) -> bool:
        """Watch mode: wait until ``s.delay`` has passed since the last move; False if the
        position changed meanwhile."""
        while True:
            with s.lock:
                if s.epoch != epoch:
                    return False
                if s.state.human != "none" or s.force_move:
                    return True
                left = s.delay - (self.clock() - s.turn_started)
            if left <= 0:
                return True
            time.sleep(min(left, 0.05))

    def think(self, s: LiveGame, board: Board, epoch: int) -> None:
        """The opponent's move in ``board``, played if the game is still at ``epoch``."""
        name = board.geometry.square_name
        size = board.size

        def on_info(info: SearchInfo) -> None:
            with s.lock:
                if s.epoch == epoch:
                    s.search = api.SearchProgress(
                        depth=info.depth,
                        score=disc_score(info.score, info.exact, size),
                        pv=[name(m) for m in info.pv[:12]],
                        nodes=info.nodes,
                        time=info.time,
                        exact=info.exact,
                    )
                    s.version += 1

        if not self._wait_for_pace(s, epoch):
            return
        try:
            with s.agent_lock:
                with s.lock:
                    if s.epoch != epoch or s.dropped:
                        return
                    clocks = s.engine_clocks(board, self.clock())
                assert s.opponent is not None
                choice = s.opponent.choose(board, on_info, clocks)
        except Exception as exc:
            log.exception("opponent %s failed", s.state.opponent)
            with s.lock:
                if s.epoch == epoch:
                    s.think_epoch = None
                    s.error = f"the opponent {s.state.opponent} failed: {exc}"
                    s.version += 1
            return
        with s.lock:
            if s.epoch != epoch:
                return
            node = s.state.node
            after = s.clocks_after_move(board.turn, self.clock())
            try:
                s.state.play(choice.move)
            except (IllegalMoveError, InvalidMoveError) as exc:
                s.think_epoch = None
                s.error = f"the opponent {s.state.opponent} played an illegal move: {exc}"
                s.version += 1
                return
            if after is not None:
                s.state.clocks[s.state.node] = after
            if choice.score is not None:
                source = "book" if choice.book else "move"
                s.state.set_eval(node, choice.score, choice.exact, source)
            self.changed(s)

    def _ponder(self, s: LiveGame, board: Board, epoch: int) -> None:
        with s.agent_lock:
            if s.dropped or s.epoch != epoch or s.ponder_epoch != epoch or s.opponent is None:
                return
            try:
                s.opponent.ponder(board)
            except Exception:
                log.exception("pondering failed")
                return
            with s.lock:
                stale = s.dropped or s.ponder_epoch != epoch
            if stale:  # ended (or the game left memory) while it started: stop it now
                s.opponent.stop()
                if s.dropped:
                    s.opponent.release()

    def rest_if_long(self, s: LiveGame) -> None:
        """End pondering that ran :data:`PONDER_SECONDS` (caller holds ``s.lock``)."""
        if s.pondering() and time.monotonic() - s.ponder_started >= PONDER_SECONDS:
            self.end_ponder(s, s.epoch, rest=True)

    def end_ponder(self, s: LiveGame, epoch: int, rest: bool = False) -> None:
        """Stop pondering; with ``rest`` it does not start again in this position."""
        with s.lock:
            if s.epoch != epoch or s.ponder_epoch != epoch:
                return
            s.ponder_epoch = None
            if rest:
                s.rested_epoch = epoch
            s.version += 1
            if s.opponent is not None:
                s.opponent.stop()

    def analyse(self, s: LiveGame, board: Board, path: list[int], seconds: float) -> None:
        """Analyse the moves of ``board`` (the line ``path``) in the background."""
        self.pool.submit(self._analyse, s, board, path, seconds)

    def _analyse(self, s: LiveGame, board: Board, path: list[int], seconds: float) -> None:
        def progress(done: int, total: int) -> None:
            with s.lock:
                s.analysing = api.Progress(done=done, total=total)
                s.version += 1

        try:
            assert s.analyst is not None
            rows = s.analyst.analyse(board, seconds, progress)
        except Exception as exc:
            log.exception("analysis failed")
            with s.lock:
                s.analysing = None
                s.error = f"analysis failed: {exc}"
                s.version += 1
            return
        with s.lock:
            s.analysing = None
            s.version += 1
            st = s.state
            # Nodes name positions for good, so the analysis holds whatever the line is now.
            for row in rows:
                st.analysis[path[row.ply + 1]] = row
                st.set_eval(path[row.ply], row.best_score, row.exact, "analysis")
            self._save(s)
