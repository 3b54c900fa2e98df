"""Conformance tests run over every registered agent."""

from __future__ import annotations

import random

import pytest

from bitflip import Board
from bitflip.agents import AgentSpecError, agent_names, make_agent, parse_spec

BASELINES = ["random", "greedy", "positional", "minimax:depth=2"]


def play_game(black: str, white: str, seed: int, size: int = 8) -> Board:
    agents = [make_agent(black, seed=seed), make_agent(white, seed=seed + 1)]
    for a in agents:
        a.new_game()
    b = Board(size=size)
    while not b.is_game_over():
        before = repr(b)
        m = agents[b.turn].select_move(b)
        assert repr(b) == before, "select_move must not change the board"
        assert m in b.legal_moves
        b.push(m)
    return b


@pytest.mark.parametrize("spec", BASELINES)
@pytest.mark.parametrize("size", [6, 8])
def test_agent_plays_legal_games(spec: str, size: int) -> None:
    play_game(spec, "random", seed=3, size=size)
    play_game("random", spec, seed=4, size=size)


@pytest.mark.parametrize("spec", BASELINES)
def test_agents_are_reproducible_with_a_seed(spec: str) -> None:
    a = play_game(spec, spec, seed=11).move_stack
    b = play_game(spec, spec, seed=11).move_stack
    assert a == b


def test_minimax_beats_random() -> None:
    wins = 0
    for seed in range(6):
        b = play_game("minimax:depth=2", "random", seed=seed)
        wins += b.outcome().winner == 0  # type: ignore[union-attr]
        b = play_game("random", "minimax:depth=2", seed=seed + 100)
        wins += b.outcome().winner == 1  # type: ignore[union-attr]
    assert wins >= 10


def test_spec_parsing_and_errors() -> None:
    s = parse_spec("minimax:depth=3,seed=7")
    assert s.name == "minimax" and s.params == {"depth": 3, "seed": 7}
    assert str(s) == "minimax:depth=3,seed=7"
    assert parse_spec("nboard:cmd=edax -n 1,x").params == {"cmd": "edax -n 1,x"}
    with pytest.raises(AgentSpecError, match="unknown agent"):
        make_agent("nosuch")
    with pytest.raises(AgentSpecError, match="bad parameters"):
        make_agent("random:depth=3")
    with pytest.raises(AgentSpecError, match="depth"):
        make_agent("minimax:depth=0")
    assert set(agent_names()) >= {"random", "greedy", "positional", "minimax"}


def test_random_agent_spreads_its_moves() -> None:
    agent = make_agent("random", seed=0)
    seen = {agent.select_move(Board()) for _ in range(40)}
    assert len(seen) == 4
    rng = random.Random(0)
    assert rng  # the agent's own generator is separate from Python's
