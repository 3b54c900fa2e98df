"""The background work of live games: the opponent's move, pondering, game analysis.

A mixin of :class:`bitflip.web.sessions.GameManager`. Every task is started under the game's
lock with the game's ``epoch``; its result is applied only if the epoch is still the same
(the position did not change meanwhile), else thrown away.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from bitflip.core.board import Board, IllegalMoveError, InvalidMoveError
from bitflip.core.geometry import PASS
from bitflip.search.limits import SearchInfo
from bitflip.web import api
from bitflip.web.engine_bridge import disc_score, is_pass_only
from bitflip.web.games import PlyAnalysis
from bitflip.web.session import Session

log = logging.getLogger(__name__)

PONDER_SECONDS = 60.0
"""Longest the engine ponders on the person's time before it rests."""


class Background:
    """Starting and finishing the background tasks of games (see the module docstring)."""

    _pool: ThreadPoolExecutor
    _closed: bool
    clock: Callable[[], float]

    def _save(self, s: Session) -> None:
        raise NotImplementedError

    def _changed(self, s: Session) -> None:
        """After the line or cursor changed: stop stale searches, store, let the opponent move."""
        self._invalidate(s)
        s.error = ""
        s.reached(self.clock())
        self._save(s)
        self._kick(s)

    def _invalidate(self, s: Session) -> None:
        s.epoch += 1
        s.version += 1
        s.force_move = False
        if s.opponent is not None and (s.think_epoch is not None or s.ponder_epoch is not None):
            s.opponent.stop()
        s.think_epoch = s.ponder_epoch = None
        s.search = None

    def _kick(self, s: Session) -> None:
        """Start what the position at the cursor calls for (caller holds ``s.lock``)."""
        if self._closed:
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
                self._pool.submit(self._think_task, s, board, s.epoch)
            return
        if at_end and is_pass_only(board):
            clocks = s.clocks_after_move(board.turn, self.clock())
            st.play(PASS)  # the person has no move: pass for them (the page announces it)
            if clocks is not None:
                st.clocks[st.node] = clocks
            self._invalidate(s)
            s.reached(self.clock())
            self._save(s)
            self._kick(s)
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
            self._pool.submit(self._ponder_task, s, board, s.epoch)

    def _wait_for_pace(self, s: Session, epoch: int) -> bool:
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

    def _think_task(self, s: Session, board: Board, epoch: int) -> None:
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
                    if s.epoch != epoch:
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
            self._changed(s)

    def _ponder_task(self, s: Session, board: Board, epoch: int) -> None:
        with s.agent_lock:
            if s.epoch != epoch or s.ponder_epoch != epoch or s.opponent is None:
                return
            try:
                s.opponent.ponder(board)
            except Exception:
                log.exception("pondering failed")
                return
        # Pondering rests after PONDER_SECONDS (and sooner when no page watches the game).
        timer = threading.Timer(PONDER_SECONDS, self._end_ponder, (s, epoch, True))
        timer.daemon = True
        timer.start()

    def _end_ponder(self, s: Session, epoch: int, rest: bool = False) -> None:
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

    def _analyse_task(self, s: Session, board: Board, path: list[int], seconds: float) -> None:
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
                node = path[row.ply + 1]
                st.analysis[node] = PlyAnalysis(
                    node,
                    row.move,
                    row.score,
                    row.best_move,
                    row.best_score,
                    row.loss,
                    row.exact,
                    row.comparable,
                )
                st.set_eval(path[row.ply], row.best_score, row.exact, "analysis")
            self._save(s)
