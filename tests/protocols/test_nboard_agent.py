"""The ``nboard:`` agent's spec: the command takes the rest of the spec, commas included, but
a trailing depth or timeout; bad values are one-line spec errors. (Its games against a scripted
engine are in the agents' conformance suite, tests/test_agents.py.)"""

from __future__ import annotations

import pytest

from bitflip.agents import AgentSpecError, make_agent
from bitflip.protocols.nboard_agent import NBoardAgent


@pytest.mark.parametrize(
    ("spec", "cmd", "depth", "timeout"),
    [
        ("nboard:cmd=edax -nboard", "edax -nboard", None, None),
        ("nboard:cmd=edax -n 1,-l 5", "edax -n 1,-l 5", None, None),
        ("nboard:cmd=edax -nboard,depth=8", "edax -nboard", 8, None),
        ("nboard:cmd=edax -nboard,timeout=2.5,depth=3", "edax -nboard", 3, 2.5),
        ("nboard:cmd=edax -nboard, depth=4", "edax -nboard", 4, None),
    ],
)
def test_trailing_depth_and_timeout_leave_the_command(
    spec: str, cmd: str, depth: int | None, timeout: float | None
) -> None:
    agent = make_agent(spec)
    assert isinstance(agent, NBoardAgent)
    assert agent.cmd == cmd
    default = NBoardAgent("x")
    assert agent.depth == (default.depth if depth is None else depth)
    assert agent.timeout == (default.timeout if timeout is None else timeout)
    assert agent._engine is None  # nothing started before the first move


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ("nboard:cmd=edax,depth=deep", "depth must be a whole number and timeout a number"),
        ("nboard:cmd=edax,depth=0", r"depth must be a whole number >= 1, not 0"),
        ("nboard:cmd=edax,timeout=soon", "timeout a number"),
    ],
)
def test_bad_values_are_spec_errors(spec: str, match: str) -> None:
    with pytest.raises(AgentSpecError, match=match):
        make_agent(spec)


def test_a_command_is_needed() -> None:
    with pytest.raises(AgentSpecError, match="needs cmd=COMMAND"):
        NBoardAgent("  ")
