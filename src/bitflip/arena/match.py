"""Playing tournament games in worker processes, with per-move time limits enforced.

Each game runs in a child process that builds both agents itself and reports every move to the
parent over a pipe. The parent holds the clock: a move that takes longer than the limit loses
the game; an agent still thinking after the limit plus a grace period is killed with its worker
(which is then restarted), and the side to move loses. An agent that raises, kills its process
or plays an illegal move also loses; the error is kept with the game and the tournament goes on.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import multiprocessing as mp
import os
import select
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from bitflip.core.board import BLACK, WHITE, Board, Color, Move
from bitflip.core.geometry import geometry


@dataclass(frozen=True)
class GameTask:
    """One game to play: who plays which colour from which opening, and the limits."""

    key: str
    """Identity of the game in the store (same key, same game: used to resume)."""
    black: str
    white: str
    opening: tuple[Move, ...] = ()
    size: int = 8
    slot: int = 0
    """Index of the opening in the tournament's opening list."""
    seed: int = 0
    time_per_move: float | None = None
    """Seconds per move; a slower move loses the game (None: no limit)."""
    grace: float = 1.0
    """Seconds past the limit before a thinking agent is killed."""
    hang_timeout: float | None = 600.0
    """Without a time limit, seconds after which a thinking agent counts as hung (None: never)."""
    build_timeout: float = 300.0
    """Seconds allowed to build an agent and play its warm-up move (``--warmup-limit``)."""

    def agent_seed(self, color: Color) -> int:
        """The seed of the agent playing ``color``, derived from the game seed."""
        return derive_seed(self.seed, color.name)

    def move_deadline(self) -> float | None:
        if self.time_per_move is not None:
            return self.time_per_move + self.grace
        return self.hang_timeout


@dataclass
class GameResult:
    """A finished (or forfeited) game as the store keeps it."""

    task: GameTask
    moves: list[Move] = field(default_factory=list)
    """Every move from the start position, the opening's included, PASS where a side passed."""
    times: list[float | None] = field(default_factory=list)
    """Seconds each move took, one per move (None for the opening's moves)."""
    black_discs: int | None = None
    white_discs: int | None = None
    """Final disc counts (empties to the winner); None when the game was forfeited."""
    score: float = 0.5
    """Black's points: 1 win, 0.5 draw, 0 loss."""
    time_black: float = 0.0
    time_white: float = 0.0
    error: str | None = None
    error_side: Color | None = None
    """The side that forfeited (crash, hang, time, illegal move)."""
    black_version: str = ""
    white_version: str = ""
    black_weights: str | None = None
    white_weights: str | None = None

    @property
    def margin(self) -> int | None:
        """Black's discs minus white's at the end, None for a forfeit."""
        if self.black_discs is None or self.white_discs is None:
            return None
        return self.black_discs - self.white_discs

    @property
    def transcript(self) -> str:
        g = geometry(self.task.size)
        return "".join(g.square_name(m) for m in self.moves)


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (stable across runs and machines)."""
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "little") >> 1


# --- the game itself (runs in a worker) ------------------------------------------------------

Report = Callable[[tuple[Any, ...]], None]
BUILD_HANG = "hang: building the agent"
"""How a forfeit for a build over the warm-up limit begins."""
_WARMED: set[tuple[str, int]] = set()


def _describe(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" at {os.path.basename(tb[-1].filename)}:{tb[-1].lineno}" if tb else ""
    return f"{type(exc).__name__}: {exc}{where}"


def _build(spec: str, seed: int, size: int) -> Any:
    """Build an agent; the first time a spec is seen in this process, warm it up untimed.

    The warm-up (a throw-away agent choosing a move from the start) loads numba caches and
    weights outside the clock, so the first timed move is not slower than the rest.
    """
    from bitflip.agents import make_agent

    if (spec, size) not in _WARMED:
        warm = make_agent(spec, seed=0)
        try:
            warm.new_game()
            warm.select_move(Board(size=size))
        finally:
            close_agent(warm)
        _WARMED.add((spec, size))
    agent = make_agent(spec, seed=seed)
    agent.new_game()
    return agent


def close_agent(agent: Any) -> None:
    """Release what an agent holds (an external engine process, say) if it has ``close()``."""
    close = getattr(agent, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):
            close()


def play_game(task: GameTask, report: Report | None = None) -> GameResult:
    """Play one game in this process; ``report`` hears ``("build", side)``, ``("think", side)``
    and ``("moved", move, seconds)`` so that a supervisor can enforce deadlines.
    """
    agents: dict[Color, Any] = {}
    try:
        return _play(task, agents, report or (lambda msg: None))
    finally:
        for agent in agents.values():
            close_agent(agent)


def _play(task: GameTask, agents: dict[Color, Any], send: Report) -> GameResult:
    from bitflip import __version__

    res = GameResult(task)
    board = Board(size=task.size)
    for m in task.opening:
        board.push(m)
        res.moves.append(m)
        res.times.append(None)

    def forfeit(side: Color, error: str) -> GameResult:
        res.error, res.error_side = error, side
        res.score = 0.0 if side == BLACK else 1.0
        return res

    for side, spec in ((BLACK, task.black), (WHITE, task.white)):
        send(("build", int(side)))
        try:
            agent = _build(spec, task.agent_seed(side), task.size)
        except Exception as exc:
            return forfeit(side, f"build failed: {_describe(exc)}")
        agents[side] = agent
        version = str(getattr(agent, "version", None) or __version__)
        weights = getattr(agent, "weights_hash", None)
        if side == BLACK:
            res.black_version, res.black_weights = version, weights and str(weights)
        else:
            res.white_version, res.white_weights = version, weights and str(weights)

    limit = task.time_per_move
    while not board.is_game_over():
        side = board.turn
        ply = board.ply + 1
        send(("think", int(side)))
        t0 = time.perf_counter()
        try:
            move = agents[side].select_move(board.copy())
        except Exception as exc:
            return forfeit(side, f"crash on move {ply}: {_describe(exc)}")
        dt = time.perf_counter() - t0
        if side == BLACK:
            res.time_black += dt
        else:
            res.time_white += dt
        if limit is not None and dt > limit:
            return forfeit(side, f"time: move {ply} took {dt:.3f} s (limit {limit:g} s)")
        if not _is_int(move) or not board.is_legal(int(move)):
            what = repr(move)
            if _is_int(move) and board.geometry.contains(int(move)):
                what = f"{board.geometry.square_name(int(move))} ({int(move)})"
            return forfeit(side, f"illegal move {what} on move {ply} (position {board.obf()})")
        move = int(move)
        board.push(move)
        res.moves.append(move)
        res.times.append(dt)
        send(("moved", move, dt))
    outcome = board.outcome()
    assert outcome is not None
    res.black_discs, res.white_discs = outcome.black, outcome.white
    res.score = 1.0 if outcome.winner == BLACK else 0.0 if outcome.winner == WHITE else 0.5
    return res


def _is_int(x: object) -> bool:
    import numpy as np

    return isinstance(x, int | np.integer) and not isinstance(x, bool)


# --- worker processes -------------------------------------------------------------------------


def registry_snapshot() -> dict[str, str]:
    """Every registered agent as ``"module:attr"``, so that workers register the same agents.

    Factories defined inside functions cannot be imported by name and are left out.
    """
    from bitflip import agents

    out: dict[str, str] = {}
    for name, factory in agents._REGISTRY.items():
        if isinstance(factory, str):
            out[name] = factory
            continue
        module, qual = getattr(factory, "__module__", None), getattr(factory, "__qualname__", "")
        if module and qual and "<" not in qual:
            out[name] = f"{module}:{qual}"
    return out


def load_plugin(plugin: str) -> None:
    """Import a module (name or ``.py`` path) that registers agents.

    Raises:
        ValueError: the module cannot be found or fails to import.
    """
    try:
        if plugin.endswith(".py"):
            name = "bitflip_plugin_" + hashlib.sha1(plugin.encode()).hexdigest()[:8]
            spec = importlib.util.spec_from_file_location(name, plugin)
            if spec is None or spec.loader is None:
                raise ImportError(f"cannot load {plugin}")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        else:
            importlib.import_module(plugin)
    except FileNotFoundError:
        raise ValueError(f"plugin {plugin!r}: no such file") from None
    except Exception as exc:
        raise ValueError(f"plugin {plugin!r} failed to import: {_describe(exc)}") from None


def _install(registry: dict[str, str], plugins: Sequence[str]) -> None:
    from bitflip import agents

    for plugin in plugins:
        load_plugin(plugin)
    for name, target in registry.items():
        if name not in agents._REGISTRY:
            agents.register_agent(name, target)


def _driver_gone(driver: int) -> None:
    """Block until process ``driver`` has ended (killed by SIGKILL or SIGTERM included)."""
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is not None:
        try:
            fd = pidfd_open(driver)
        except OSError:
            return  # already gone
        select.select([fd], [], [])  # a pidfd turns readable when its process exits
        return
    while True:
        try:
            os.kill(driver, 0)
        except ProcessLookupError:
            return
        except PermissionError:
            pass
        time.sleep(0.5)


def _watch_driver(driver: int) -> None:
    """End this worker and what its agents started once the driver is gone.

    The driver, not the parent: under forkserver the parent is the fork server, which outlives
    a killed driver for a while, so the workers would too (and agents hung in a move with them).
    """
    _driver_gone(driver)
    if hasattr(os, "killpg") and os.getpgrp() == os.getpid():
        with contextlib.suppress(OSError):
            os.killpg(os.getpid(), signal.SIGKILL)  # the worker's own group: it and its engines
    os._exit(3)


def _worker_main(
    conn: Connection, registry: dict[str, str], plugins: Sequence[str], driver: int
) -> None:
    if hasattr(os, "setsid"):
        # A process group of its own: killing the worker kills what its agents started
        # (external engines) too, and a Ctrl-C in the terminal reaches only the driver.
        with contextlib.suppress(OSError):
            os.setsid()
    threading.Thread(target=_watch_driver, args=(driver,), daemon=True).start()
    try:
        _install(registry, plugins)
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
        ctx.set_forkserver_preload(["bitflip.arena.match", "bitflip.agents"])
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


def default_workers() -> int:
    """One worker per core."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class GamePool:
    """Worker processes that stay up across batches of games (a context manager).

    >>> with GamePool(workers=1) as pool:
    ...     [r.error for r in pool.run([GameTask("k", "random", "greedy", size=6)])]
    [None]
    """

    def __init__(self, workers: int | None = None, plugins: Sequence[str] = ()) -> None:
        self.size = max(1, workers or default_workers())
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
