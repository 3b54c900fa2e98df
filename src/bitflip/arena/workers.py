"""Playing tournament games in worker processes, with per-move time limits enforced.

Each game runs in a child process that builds both agents itself and reports every move to the
parent over a pipe (:func:`bitflip.arena.match.play_game`). The parent holds the clock: a move
that takes longer than the limit loses the game; an agent still thinking after the limit plus a
grace period is killed with its worker (which is then restarted), and the side to move loses. An
agent that kills its process also loses; the error is kept with the game and the tournament goes
on. Each worker watches the driver and ends, with what its agents started, when it is gone.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

from bitflip._watchdog import watch_driver
from bitflip.arena.match import (
    BUILD_HANG,
    GameResult,
    GameTask,
    install_registry,
    play_game,
    registry_snapshot,
)
from bitflip.core.board import BLACK, WHITE, Color, Move
from bitflip.core.parallel import single_thread_process, usable_cores


def _worker_main(
    conn: Connection, registry: dict[str, str], plugins: Sequence[str], driver: int
) -> None:
    if hasattr(os, "setsid"):
        # A process group of its own: killing the worker kills what its agents started
        # (external engines) too, and a Ctrl-C in the terminal reaches only the driver.
        with contextlib.suppress(OSError):
            os.setsid()
    watch_driver(driver)
    single_thread_process()  # one worker per core: a thread pool in each would oversubscribe
    try:
        install_registry(registry, plugins)
    except Exception as exc:
        conn.send(("fatal", f"worker setup failed: {exc}"))
        return
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            result = play_game(task, conn.send)
            conn.send(("done", result))
        except (BrokenPipeError, ConnectionResetError):
            return  # the driver is gone (killed or interrupted): no one is left to hear it
        except Exception:
            try:
                conn.send(("fatal", traceback.format_exc(limit=-3)))
            except OSError:
                return


class WorkerFailure(RuntimeError):
    """The worker itself (not an agent) failed: a bug or a broken install, not a game result."""


def _context(name: str | None) -> Any:
    """Forkserver where there is one (a worker starts in milliseconds), else spawn.

    Never plain fork: the parent may run threads (progress bars, Ray) that fork would copy
    in an unknown state.
    """
    if name is None:
        name = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
    ctx = mp.get_context(name)
    if name == "forkserver":
        ctx.set_forkserver_preload(["bitflip.arena.workers", "bitflip.agents"])
    return ctx


class GameWorker:
    """One child process that plays games, and the watchdog around it."""

    def __init__(
        self,
        registry: dict[str, str] | None = None,
        plugins: Sequence[str] = (),
        context: str | None = None,
    ) -> None:
        self._ctx: Any = _context(context)
        self._registry = registry if registry is not None else registry_snapshot()
        self._plugins = tuple(plugins)
        self.task: GameTask | None = None
        self._moves: list[Move] = []
        self._times: list[float | None] = []
        self._phase: tuple[str, Color, float] | None = None
        self._start()

    def _start(self) -> None:
        parent, child = self._ctx.Pipe()
        self.process = self._ctx.Process(
            target=_worker_main,
            args=(child, self._registry, self._plugins, os.getpid()),
            daemon=True,
        )
        self.process.start()
        child.close()
        self.conn = parent

    @property
    def busy(self) -> bool:
        return self.task is not None

    def submit(self, task: GameTask) -> None:
        if not self.process.is_alive():
            self._restart()
        self.task = task
        self._moves = list(task.opening)
        self._times = [None] * len(task.opening)
        self._phase = None
        self.conn.send(task)

    def deadline(self) -> float | None:
        """The monotonic time at which the agent now building or thinking is overdue."""
        if self.task is None or self._phase is None:
            return None
        what, _, since = self._phase
        limit = self.task.build_timeout if what == "build" else self.task.move_deadline()
        return None if limit is None else since + limit

    def service(self) -> GameResult | None:
        """Read what the worker sent; kill it if overdue. Returns the game once it is over."""
        task = self.task
        if task is None:
            return None
        try:
            while self.conn.poll():
                msg = self.conn.recv()
                kind = msg[0]
                if kind in ("build", "think"):
                    self._phase = (kind, Color(msg[1]), time.monotonic())
                elif kind == "moved":
                    self._moves.append(msg[1])
                    self._times.append(msg[2])
                elif kind == "done":
                    self.task = None
                    result: GameResult = msg[1]
                    return result
                elif kind == "fatal":
                    self.task = None
                    raise WorkerFailure(f"game {task.key}: {msg[1]}")
        except (EOFError, OSError):
            self.process.join(timeout=5)
            code = self.process.exitcode
            return self._forfeit(f"worker process died (exit code {code})")
        deadline = self.deadline()
        if deadline is not None and time.monotonic() > deadline and self._phase is not None:
            what, _, since = self._phase
            took = time.monotonic() - since
            if what == "build":
                why = f"{BUILD_HANG} took over {task.build_timeout:g} s"
            elif task.time_per_move is not None:
                why = (
                    f"hang: no move after {took:.1f} s (limit {task.time_per_move:g} s "
                    f"+ grace {task.grace:g} s)"
                )
            else:
                why = f"hang: no move after {took:.1f} s (hang timeout {task.hang_timeout:g} s)"
            return self._forfeit(why + "; worker killed")
        return None

    def _forfeit(self, error: str) -> GameResult:
        task = self.task
        assert task is not None
        side = self._phase[1] if self._phase else BLACK
        res = GameResult(
            task,
            moves=list(self._moves),
            times=list(self._times),
            score=0.0 if side == BLACK else 1.0,
            error=error,
            error_side=side,
        )
        self.task = None
        self._restart()
        return res

    def _restart(self) -> None:
        self.kill()
        self._start()

    def kill(self) -> None:
        """Kill the worker and everything in its process group; close the pipe."""
        pid = self.process.pid
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=10)
        if pid is not None and hasattr(os, "killpg"):
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
        self.conn.close()

    def close(self) -> None:
        """Stop the worker (killing it if it is in a game)."""
        if self.busy or not self.process.is_alive():
            self.kill()
            return
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.process.join(timeout=5)
        self.kill()

    def run(self, task: GameTask) -> GameResult:
        """Play one game and wait for it (used by the Ray backend)."""
        self.submit(task)
        while True:
            deadline = self.deadline()
            timeout = 1.0 if deadline is None else max(0.0, min(1.0, deadline - time.monotonic()))
            wait([self.conn], timeout)
            result = self.service()
            if result is not None:
                return result


class GamePool:
    """Worker processes that stay up across batches of games (a context manager).

    >>> with GamePool(workers=1) as pool:
    ...     [r.error for r in pool.run([GameTask("k", "random", "greedy", size=6)])]
    [None]
    """

    def __init__(self, workers: int | None = None, plugins: Sequence[str] = ()) -> None:
        self.size = max(1, workers or usable_cores())
        self._plugins = tuple(plugins)
        self._registry = registry_snapshot()
        self._workers: list[GameWorker] = []
        self.hung_builds: dict[str, str] = {}
        """Agent specs whose build hung, with the error: their later games are lost at once."""

    def __enter__(self) -> GamePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for w in self._workers:
            w.close()
        self._workers = []

    def _lost_to_a_hung_build(self, task: GameTask) -> GameResult | None:
        """The game lost at once by an agent whose build hung before (None: play it)."""
        for side, spec in ((BLACK, task.black), (WHITE, task.white)):
            if spec in self.hung_builds:
                return _forfeit_before_start(task, side, self.hung_builds[spec] + " (earlier game)")
        return None

    def run(
        self,
        tasks: Iterable[GameTask],
        on_result: Callable[[GameResult], None] | None = None,
    ) -> list[GameResult]:
        """Play the games; results in finishing order, each also passed to ``on_result``.

        Workers start on demand (never more than there are games).
        """
        queue = deque(tasks)
        results: list[GameResult] = []
        try:
            while len(self._workers) < min(self.size, len(queue)):
                self._workers.append(GameWorker(self._registry, self._plugins))
            while queue or any(w.busy for w in self._workers):
                for w in self._workers:
                    while not w.busy and queue:
                        task = queue.popleft()
                        lost = self._lost_to_a_hung_build(task)
                        if lost is None:
                            w.submit(task)
                            break
                        results.append(lost)
                        if on_result is not None:
                            on_result(lost)
                busy = [w for w in self._workers if w.busy]
                deadlines = [d for d in (w.deadline() for w in busy) if d is not None]
                timeout = 1.0
                if deadlines:
                    timeout = max(0.0, min(timeout, min(deadlines) - time.monotonic()) + 0.001)
                wait([w.conn for w in busy], timeout)
                for w in busy:
                    result = w.service()
                    if result is not None:
                        if result.error and result.error.startswith(BUILD_HANG):
                            side = result.error_side
                            spec = result.task.black if side == BLACK else result.task.white
                            self.hung_builds[spec] = result.error
                        results.append(result)
                        if on_result is not None:
                            on_result(result)
        except BaseException:
            self.close()  # games in play are abandoned; their workers must not linger
            raise
        return results


def _forfeit_before_start(task: GameTask, side: Color, error: str) -> GameResult:
    return GameResult(
        task,
        moves=list(task.opening),
        times=[None] * len(task.opening),
        score=0.0 if side == BLACK else 1.0,
        error=error,
        error_side=side,
    )


def run_games(
    tasks: Iterable[GameTask],
    *,
    workers: int | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    plugins: Sequence[str] = (),
) -> list[GameResult]:
    """Play games in ``workers`` processes (default: one per core); results in finishing order.

    ``on_result`` is called in this process as each game ends (to store it at once).
    """
    with GamePool(workers, plugins) as pool:
        return pool.run(tasks, on_result)
