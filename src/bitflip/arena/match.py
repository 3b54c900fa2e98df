"""One tournament game: the task, its result, and playing it in this process.

:func:`play_game` builds both agents (warming each spec up once, untimed), plays the game and
reports every step to whoever supervises it (:mod:`bitflip.arena.workers` runs games in worker
processes and holds the clock). An agent that raises or plays an illegal move loses; the error
is kept with the game.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bitflip import __version__
from bitflip import agents as agent_registry
from bitflip.agents import make_agent
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
    out: dict[str, str] = {}
    for name, factory in agent_registry._REGISTRY.items():
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


def install_registry(registry: dict[str, str], plugins: Sequence[str]) -> None:
    for plugin in plugins:
        load_plugin(plugin)
    for name, target in registry.items():
        if name not in agent_registry._REGISTRY:
            agent_registry.register_agent(name, target)
