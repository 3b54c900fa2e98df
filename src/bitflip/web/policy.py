"""Which opponents a web request may ask for.

An agent spec can start a process (``nboard:cmd=...``) or open a file of its choosing
(``net=``, ``weights=``, ``table=``). Requests come from whatever can reach the server, a web
page in another tab or a game file's text included, so the API builds only agents from a short
list of safe names with bounded parameters, plus the specs that the person who started the
server named (``bitflip play --opponent SPEC --allow-opponent SPEC``). Everything else is refused
with :class:`ForbiddenOpponent` (HTTP 403) before anything is built.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bitflip.agents import AgentSpecError, agent_names, parse_spec

MAX_SPEC_LENGTH = 200
ALLOW_HINT = "start the server with bitflip play --allow-opponent SPEC to allow it"


class ForbiddenOpponent(ValueError):
    """A spec this server does not build for web requests."""


@dataclass(frozen=True)
class _Bound:
    low: float
    high: float
    whole: bool = True

    def check(self, agent: str, key: str, value: object) -> None:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (self.whole and not isinstance(value, int))
            or not self.low <= value <= self.high
        ):
            kind = "a whole number" if self.whole else "a number"
            raise ForbiddenOpponent(
                f"{agent} {key} must be {kind} from {self.low:g} to {self.high:g} here"
            )


# Each safe agent with the parameters a request may set, and their bounds. The bounds keep one
# request from holding a core for minutes; path and command parameters are absent on purpose.
# None: the agent's own check is bound enough (engine levels are a fixed list).
SAFE_AGENTS: dict[str, dict[str, _Bound | None]] = {
    "random": {"seed": _Bound(0, 2**32)},
    "greedy": {"seed": _Bound(0, 2**32)},
    "positional": {"seed": _Bound(0, 2**32)},
    "minimax": {"depth": _Bound(1, 6), "seed": _Bound(0, 2**32)},
    "alphabeta": {"depth": _Bound(1, 12), "seed": _Bound(0, 2**32)},
    "engine": {"level": None},
    "mcts": {"sims": _Bound(1, 5000), "cpuct": _Bound(0.1, 10, whole=False)},
    "policy": {"temperature": _Bound(0, 5, whole=False)},
    "value": {"depth": _Bound(1, 3)},
    "td": {"depth": _Bound(1, 4)},
}


BOARD_SIZES = (4, 6, 8)
AGENT_SIZES: dict[str, tuple[int, ...]] = {"policy": (8,), "value": (8,)}
"""Agents that play only some board sizes (their networks read 8x8 boards); the others play
every size. Specs the server's owner allows (an NBoard program, a net file) are taken at their
word: the web cannot tell what they play without starting them."""


def playable_sizes(spec: str) -> tuple[int, ...]:
    """The board sizes the agent of ``spec`` plays."""
    return AGENT_SIZES.get(parse_spec(spec).name, BOARD_SIZES)


def canonical(spec: str) -> str:
    """The spec as the registry reads it, so that equal specs compare equal.

    Raises:
        AgentSpecError: a malformed spec, or one that names no registered agent.
    """
    parsed = parse_spec(spec)
    if parsed.name not in agent_names():
        raise AgentSpecError(f"unknown agent {parsed.name!r} in {spec!r}")
    return str(parsed)


@dataclass(frozen=True)
class OpponentPolicy:
    """The safe agents plus the exact specs the server's owner allowed."""

    allowed: frozenset[str] = frozenset()

    @classmethod
    def allowing(cls, specs: Iterable[str | None]) -> OpponentPolicy:
        return cls(frozenset(canonical(s) for s in specs if s))

    def check(self, spec: str) -> str:
        """``spec`` if a web request may build it.

        Raises:
            ForbiddenOpponent: an agent or parameter requests may not name.
            AgentSpecError: no agent of that name, or a malformed spec.
        """
        if len(spec) > MAX_SPEC_LENGTH:
            raise ForbiddenOpponent(f"an opponent spec has at most {MAX_SPEC_LENGTH} characters")
        parsed = parse_spec(spec)
        if str(parsed) in self.allowed:
            return spec
        if parsed.name not in agent_names():
            raise AgentSpecError(f"unknown agent {parsed.name!r}; known: {self.names()}")
        bounds = SAFE_AGENTS.get(parsed.name)
        if bounds is None:
            raise ForbiddenOpponent(
                f"opponent {parsed.name!r} is not allowed from the page ({ALLOW_HINT})"
            )
        for key, value in parsed.params.items():
            if key not in bounds:
                raise ForbiddenOpponent(
                    f"parameter {key!r} of {parsed.name!r} is not allowed from the page "
                    f"({ALLOW_HINT})"
                )
            bound = bounds[key]
            if bound is not None:
                bound.check(parsed.name, key, value)
        return spec

    def permits(self, spec: str) -> bool:
        try:
            self.check(spec)
        except (ForbiddenOpponent, AgentSpecError):
            return False
        return True

    def names(self) -> str:
        return ", ".join(sorted(SAFE_AGENTS))
