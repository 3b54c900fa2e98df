"""Agents and the registry that builds them from spec strings.

:data:`BUILTINS` names every built-in agent with its factory; the baselines are defined here,
the others where their machinery lives (engine, networks, learners, NBoard client).

A spec is ``name`` or ``name:key=value,key=value``, e.g. ``"minimax:depth=3"``. Every agent
takes a ``seed`` so that games are reproducible; ties are broken at random with that seed.

>>> from bitflip import Board
>>> agent = make_agent("greedy", seed=1)
>>> agent.select_move(Board()) in Board().legal_moves
True
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from bitflip.core import bitboard as bb
from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS
from bitflip.eval.positional import TABLES, disc_square_score
from bitflip.search.levels import DEFAULT_LEVEL
from bitflip.search.minimax import minimax_root
from bitflip.tomlconfig import type_mismatch


@runtime_checkable
class Agent(Protocol):
    """Anything that picks a move. ``select_move`` never changes the board it is given."""

    name: str

    def new_game(self) -> None:
        """Forget everything about the previous game."""

    def select_move(self, board: Board) -> Move:
        """A legal move of ``board`` (PASS when passing is the only legal move)."""
        ...


class AgentSpecError(ValueError):
    """A spec string that names no agent or gives it bad parameters."""


@dataclass(frozen=True)
class AgentSpec:
    name: str
    params: dict[str, Any]

    def __str__(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.params.items())


def _parse_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> AgentSpec:
    """Split ``"name:k=v,k=v"`` into a name and typed parameters."""
    name, _, rest = spec.strip().partition(":")
    if not name:
        raise AgentSpecError(f"empty agent spec {spec!r}")
    params: dict[str, Any] = {}
    if rest:
        # Values may contain commas only inside a "cmd=" value, which must come last.
        parts = rest.split(",")
        i = 0
        while i < len(parts):
            key, eq, value = parts[i].partition("=")
            if not eq or not key:
                raise AgentSpecError(f"bad parameter {parts[i]!r} in agent spec {spec!r}")
            if key == "cmd":  # a command line, kept as written ("true" is a program too)
                params["cmd"] = ",".join([value, *parts[i + 1 :]]).strip()
                break
            params[key.strip()] = _parse_value(value.strip())
            i += 1
    return AgentSpec(name.lower(), params)


Factory = Callable[..., Agent]
_REGISTRY: dict[str, Factory | str] = {}


def register_agent(name: str, factory: Factory | str) -> None:
    """Register a factory, or ``"module:attr"`` to import it lazily (keeps torch out of imports)."""
    _REGISTRY[name] = factory


def agent_names() -> list[str]:
    return sorted(_REGISTRY)


def make_agent(spec: str, *, seed: int | None = None) -> Agent:
    """Build an agent from a spec string; ``seed`` fixes its randomness."""
    parsed = parse_spec(spec)
    factory = _REGISTRY.get(parsed.name)
    if factory is None:
        raise AgentSpecError(
            f"unknown agent {parsed.name!r} in spec {spec!r}; known: {', '.join(agent_names())}"
        )
    if isinstance(factory, str):
        module, _, attr = factory.partition(":")
        factory = getattr(importlib.import_module(module), attr)
        _REGISTRY[parsed.name] = factory
    params = dict(parsed.params)
    if seed is not None and "seed" not in params:
        params["seed"] = seed
    wrong = _type_error(factory, params)
    if wrong:
        raise AgentSpecError(f"bad parameters for agent {parsed.name!r} in {spec!r}: {wrong}")
    try:
        agent = factory(**params)
    except TypeError as exc:
        raise AgentSpecError(
            f"bad parameters for agent {parsed.name!r} in {spec!r}: {exc}"
        ) from None
    agent.name = str(parsed) if not getattr(agent, "name", None) else agent.name
    return agent


def _type_error(factory: Factory, params: dict[str, Any]) -> str | None:
    """The first parameter whose value lacks the type of the factory's default for it (a
    string saying so), or None: a spec's text must not reach a search as the wrong type."""
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):  # a callable without a signature: its own checks decide
        return None
    for key, value in params.items():
        param = sig.parameters.get(key)
        if param is not None and param.default is not inspect.Parameter.empty:
            wrong = type_mismatch(key, value, param.default)
            if wrong:
                return wrong
    return None


# --- baselines -------------------------------------------------------------------------------


class _SeededAgent:
    name = ""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def new_game(self) -> None:
        pass

    def _choose_best(self, scores: dict[Move, float]) -> Move:
        best = max(scores.values())
        ties = sorted(m for m, v in scores.items() if v == best)
        return ties[int(self.rng.integers(len(ties)))]


def _sides(board: Board) -> tuple[np.uint64, np.uint64, np.uint64]:
    p, o = board.side_bitboards()
    return np.uint64(p), np.uint64(o), np.uint64(board.geometry.mask)


class RandomAgent(_SeededAgent):
    """A uniformly random legal move."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.name = "random"

    def select_move(self, board: Board) -> Move:
        moves = list(board.legal_moves)
        return moves[int(self.rng.integers(len(moves)))]


class _OnePlyAgent(_SeededAgent):
    """Scores each legal move on its own and plays the best (ties broken with the seed)."""

    def select_move(self, board: Board) -> Move:
        moves = list(board.legal_moves)
        if moves == [PASS]:
            return PASS
        p, o, _ = _sides(board)
        return self._choose_best({m: self.score(board, p, o, m) for m in moves})

    def score(self, board: Board, p: np.uint64, o: np.uint64, move: Move) -> float:
        raise NotImplementedError


class GreedyAgent(_OnePlyAgent):
    """The move that leaves the most discs of its own colour."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.name = "greedy"

    def score(self, board: Board, p: np.uint64, o: np.uint64, move: Move) -> float:
        return float(bb.popcount(bb.flips(p, o, move)))


class PositionalAgent(_OnePlyAgent):
    """The move that maximises the classic disc-square table after it (one ply)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.name = "positional"

    def score(self, board: Board, p: np.uint64, o: np.uint64, move: Move) -> float:
        np_, no = bb.play(p, o, move)
        return -float(disc_square_score(np.uint64(np_), np.uint64(no), TABLES[board.size]))


class MinimaxAgent(_SeededAgent):
    """Alpha-beta minimax to a fixed depth on disc-square table + mobility.

    Its own small search (:mod:`bitflip.search.minimax`), not the engine's: it is the fixed
    yardstick of recorded results, so its play must not follow the engine's changes.
    """

    def __init__(self, depth: int = 3, seed: int | None = None) -> None:
        super().__init__(seed)
        if not isinstance(depth, int) or not 1 <= depth <= 60:
            raise AgentSpecError(
                f"minimax depth must be a whole number >= 1 and <= 60, not {depth!r}"
            )
        self.depth = depth
        self.name = f"minimax:depth={depth}"

    def select_move(self, board: Board) -> Move:
        p, o, mask = _sides(board)
        moves = list(board.legal_moves)
        if moves == [PASS]:
            return PASS
        values = minimax_root(p, o, mask, TABLES[board.size], self.depth)
        return self._choose_best({m: float(values[m]) for m in moves})


DEFAULT_OPPONENT = f"engine:level={DEFAULT_LEVEL}"
"""The opponent a person gets without choosing: the engine at its default level."""


# --- the registry of built-in agents -----------------------------------------------------------


@dataclass(frozen=True)
class BuiltinAgent:
    """A built-in agent: its factory as ``"module:attr"`` (imported on first use) and what it is."""

    factory: str
    summary: str
    needs_torch: bool = False
    """Only with the ``nn`` extra (building it imports torch)."""
    alias_of: str | None = None
    """Another spelling of that agent, kept so that specs stored under it still build."""


BUILTINS: dict[str, BuiltinAgent] = {
    "random": BuiltinAgent("bitflip.agents:RandomAgent", "a uniformly random legal move"),
    "greedy": BuiltinAgent("bitflip.agents:GreedyAgent", "the move that flips the most discs"),
    "positional": BuiltinAgent(
        "bitflip.agents:PositionalAgent", "one ply on the classic disc-square table"
    ),
    "minimax": BuiltinAgent(
        "bitflip.agents:MinimaxAgent", "depth=N: the fixed minimax yardstick of recorded results"
    ),
    "engine": BuiltinAgent(
        "bitflip.engine:engine_agent",
        "the engine: level=N, or depth=N / time=S (seconds a move) with eval=NAME",
    ),
    "alphabeta": BuiltinAgent(
        "bitflip.engine:AlphaBetaAgent",
        "engine:depth=N / engine:time=S under its first name (default depth 6)",
        alias_of="engine",
    ),
    "mcts": BuiltinAgent(
        "bitflip.nn.mcts_agent:mcts_agent",
        "sims=N: PUCT or Gumbel search; net=FILE evaluates with a network (torch), else rollouts",
    ),
    "policy": BuiltinAgent(
        "bitflip.nn.agents:PolicyAgent", "the policy network's move", needs_torch=True
    ),
    "value": BuiltinAgent(
        "bitflip.nn.agents:ValueAgent", "depth=N search on the value network", needs_torch=True
    ),
    "td": BuiltinAgent("bitflip.learn.td:TDAgent", "depth=N search on TD-learned weights"),
    "qlearning": BuiltinAgent("bitflip.learn.qlearning:QLearningAgent", "table=FILE: Q-table"),
    "nboard": BuiltinAgent(
        "bitflip.protocols.nboard_agent:NBoardAgent", "cmd=COMMAND: an external NBoard engine"
    ),
}
"""Every agent bitflip itself has, by spec name: the one place that names them all.

Each engine has one spec name; ``alphabeta`` stays as an alias of ``engine`` because tournament
stores, recorded results and web pages hold specs written with it. Factories are imported only
when an agent is built, so torch is imported only by the agents that need it.
"""

_REGISTRY.update({name: entry.factory for name, entry in BUILTINS.items()})

BUILTIN_AGENTS: tuple[str, ...] = tuple(sorted(BUILTINS))
"""The agents bitflip itself registers (plugins and tests may register more)."""
