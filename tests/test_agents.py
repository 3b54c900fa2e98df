"""Conformance tests run over every registered agent.

Every name in the registry has a cheap spec in :func:`conformance_specs`; a new agent must add
one, and then it is held to the same contract as the rest: legal moves on every board size it
plays, the board left as it was, PASS when passing is the only move, and the same game for the
same seed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from bitflip import PASS, Board
from bitflip.agents import BUILTIN_AGENTS, AgentSpecError, agent_names, make_agent, parse_spec

BASELINES = ["random", "greedy", "positional", "minimax:depth=2"]
SCRIPTED_ENGINE = Path(__file__).parent / "protocols" / "scripted_engine.py"
PASS_ONLY = {
    8: "XXXXXXOXOOOOOOOX-OOXOOXXOOOXXOOXXOOXXXOXXXXOOXXXXXOOOOXXXXXXXXXX O",
    6: "OOXXXX-OXXXX-OOXOXXOOXXX-OOOOXXXXXXX O",
    4: "XXO-XXOOOXOOXXXX O",
}
"""Positions (OBF) whose side to move has no move but the game goes on."""


def _qtable(tmp: Path) -> str:
    from bitflip.learn.qlearning import QConfig, QTable

    return str(QTable.empty(QConfig(size=4, table_bits=10)).save(tmp / "q.npz"))


def conformance_specs(tmp: Path) -> dict[str, tuple[str, tuple[int, ...]]]:
    """A cheap spec of every registered agent, with the board sizes it plays."""
    needs_torch = ("policy", "value")
    specs = {
        "random": ("random", (4, 6, 8)),
        "greedy": ("greedy", (4, 6, 8)),
        "positional": ("positional", (6, 8)),
        "minimax": ("minimax:depth=2", (4, 6, 8)),
        "alphabeta": ("alphabeta:depth=2", (6, 8)),
        "engine": ("engine:level=1", (6, 8)),
        "mcts": ("mcts:sims=16", (6, 8)),
        "td": ("td:depth=1", (8,)),
        "qlearning": (f"qlearning:table={_qtable(tmp)}", (4,)),
        "policy": ("policy", (8,)),
        "value": ("value:depth=1", (8,)),
        "nboard": (f"nboard:cmd={sys.executable} {SCRIPTED_ENGINE}", (8,)),
    }
    for name in needs_torch:
        if name in specs:
            pytest.importorskip("torch", reason=f"the {name} agent needs torch")
    return specs


@pytest.fixture(scope="module")
def every_agent(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, tuple[int, ...]]]:
    return conformance_specs(tmp_path_factory.mktemp("agents"))


def test_every_registered_agent_has_a_conformance_spec(
    every_agent: dict[str, tuple[str, tuple[int, ...]]],
) -> None:
    assert sorted(every_agent) == list(BUILTIN_AGENTS)
    assert set(BUILTIN_AGENTS) <= set(agent_names())


def _close(agent: object) -> None:
    close = getattr(agent, "close", None)
    if callable(close):
        close()


@pytest.mark.parametrize("name", BUILTIN_AGENTS)
def test_every_agent_keeps_the_contract(
    name: str, every_agent: dict[str, tuple[str, tuple[int, ...]]]
) -> None:
    spec, sizes = every_agent[name]
    for size in sizes:
        games = [play_game(spec, "random", seed=5, size=size).move_stack]
        games.append(play_game("random", spec, seed=6, size=size).move_stack)
        if name != "random":
            assert play_game(spec, "random", seed=5, size=size).move_stack == games[0]
        agent = make_agent(spec, seed=1)
        try:
            assert isinstance(agent.name, str) and agent.name
            agent.new_game()
            board = Board(PASS_ONLY[size])
            assert list(board.legal_moves) == [PASS] and not board.is_game_over()
            assert agent.select_move(board) == PASS
        finally:
            _close(agent)


def play_game(black: str, white: str, seed: int, size: int = 8) -> Board:
    agents = [make_agent(black, seed=seed), make_agent(white, seed=seed + 1)]
    try:
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
    finally:
        for a in agents:
            _close(a)


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
