"""Conformance tests run over every registered agent.

Every name in the registry has a cheap spec in :func:`conformance_specs`; a new agent must add
one, and then it is held to the same contract as the rest: legal moves on every board size it
plays, the board left as it was, PASS when passing is the only move, and the same game for the
same seed. The agents that need torch (``BUILTINS[name].needs_torch``) are skipped without it;
the others run on the core install, and one test builds each of them where torch cannot load.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from bitflip import PASS, Board
from bitflip.agents import (
    BUILTIN_AGENTS,
    BUILTINS,
    AgentSpecError,
    agent_names,
    make_agent,
    parse_spec,
)

BASELINES = ["random", "greedy", "positional", "minimax:depth=2"]
ENGINE_SPECS = ["engine:depth=2", "alphabeta:depth=2", "alphabeta:time=0.01", "engine:level=1"]
SCRIPTED_ENGINE = Path(__file__).parent / "protocols" / "scripted_engine.py"
SRC = Path(__file__).resolve().parent.parent / "src"
PASS_ONLY = {
    8: "XXXXXXOXOOOOOOOX-OOXOOXXOOOXXOOXXOOXXXOXXXXOOXXXXXOOOOXXXXXXXXXX O",
    6: "OOXXXX-OXXXX-OOXOXXOOXXX-OOOOXXXXXXX O",
    4: "XXO-XXOOOXOOXXXX O",
}
"""Positions (OBF) whose side to move has no move but the game goes on."""

Specs = dict[str, tuple[str, tuple[int, ...]]]


def _qtable(tmp: Path) -> str:
    from bitflip.learn.qlearning import QConfig, QTable

    return str(QTable.empty(QConfig(size=4, table_bits=10)).save(tmp / "q.npz"))


def conformance_specs(tmp: Path) -> Specs:
    """A cheap spec of every registered agent, with the board sizes it plays."""
    return {
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


@pytest.fixture(scope="module")
def every_agent(tmp_path_factory: pytest.TempPathFactory) -> Specs:
    return conformance_specs(tmp_path_factory.mktemp("agents"))


def test_every_registered_agent_has_a_conformance_spec(every_agent: Specs) -> None:
    assert sorted(every_agent) == list(BUILTIN_AGENTS)
    assert set(BUILTIN_AGENTS) <= set(agent_names())
    for name, entry in BUILTINS.items():
        assert entry.alias_of is None or entry.alias_of in BUILTINS, name
        assert parse_spec(every_agent[name][0]).name == name


def _close(agent: object) -> None:
    close = getattr(agent, "close", None)
    if callable(close):
        close()


@pytest.mark.parametrize("name", BUILTIN_AGENTS)
def test_every_agent_keeps_the_contract(name: str, every_agent: Specs) -> None:
    if BUILTINS[name].needs_torch:
        pytest.importorskip("torch", reason=f"the {name} agent needs torch")
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


def test_core_agents_build_and_play_where_torch_cannot_load(every_agent: Specs) -> None:
    core = {n: every_agent[n] for n in BUILTIN_AGENTS if not BUILTINS[n].needs_torch}
    code = (
        "import sys\n"
        "sys.modules['torch'] = None  # import torch fails, as on the core install\n"
        "from bitflip import Board\n"
        "from bitflip.agents import make_agent\n"
        f"for spec, sizes in {list(core.values())!r}:\n"
        "    board = Board(size=sizes[0])\n"
        "    agent = make_agent(spec, seed=1)\n"
        "    assert agent.select_move(board) in board.legal_moves, spec\n"
        "    getattr(agent, 'close', lambda: None)()\n"
    )
    subprocess.run([sys.executable, "-c", code], env={"PYTHONPATH": str(SRC)}, check=True)


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


@pytest.mark.parametrize("spec", BASELINES + ENGINE_SPECS)
@pytest.mark.parametrize("size", [6, 8])
def test_agent_plays_legal_games(spec: str, size: int) -> None:
    play_game(spec, "random", seed=3, size=size)
    play_game("random", spec, seed=4, size=size)


@pytest.mark.parametrize("spec", [*BASELINES, "alphabeta:depth=3", "engine:level=2"])
def test_agents_are_reproducible_with_a_seed(spec: str) -> None:
    a = play_game(spec, spec, seed=11).move_stack
    b = play_game(spec, spec, seed=11).move_stack
    assert a == b


def test_the_alphabeta_alias_is_the_engine_at_a_fixed_depth() -> None:
    assert BUILTINS["alphabeta"].alias_of == "engine"
    for depth in (1, 2):
        engine = play_game(f"engine:depth={depth}", "random", seed=7)
        alias = play_game(f"alphabeta:depth={depth}", "random", seed=7)
        assert engine.move_stack == alias.move_stack
    assert make_agent("engine:depth=3").name == "engine:depth=3"
    assert make_agent("alphabeta:depth=3").name == "alphabeta:depth=3"
    assert make_agent("alphabeta").name == "alphabeta:depth=6"
    assert make_agent("engine:time=0.5,eval=positional").name == "engine:time=0.5,eval=positional"


def test_minimax_beats_random() -> None:
    wins = 0
    for seed in range(6):
        b = play_game("minimax:depth=2", "random", seed=seed)
        wins += b.outcome().winner == 0  # type: ignore[union-attr]
        b = play_game("random", "minimax:depth=2", seed=seed + 100)
        wins += b.outcome().winner == 1  # type: ignore[union-attr]
    assert wins >= 10


def test_spec_parsing() -> None:
    s = parse_spec("minimax:depth=3,seed=7")
    assert s.name == "minimax" and s.params == {"depth": 3, "seed": 7}
    assert str(s) == "minimax:depth=3,seed=7"
    assert parse_spec("nboard:cmd=edax -n 1,x").params == {"cmd": "edax -n 1,x"}
    assert set(agent_names()) >= {"random", "greedy", "positional", "minimax"}


@pytest.mark.parametrize(
    ("spec", "error", "match"),
    [
        ("nosuch", AgentSpecError, "unknown agent"),
        ("random:depth=3", AgentSpecError, "bad parameters"),
        ("minimax:depth=0", AgentSpecError, "depth"),
        ("alphabeta:depth=0", ValueError, "depth"),
        ("engine:depth=0", ValueError, "depth"),
        ("engine:level=99", ValueError, "level"),
        ("engine:level=3,depth=2", ValueError, "not both"),
        ("engine:depth=2,threads=2", AgentSpecError, "bad parameters"),
        ("alphabeta:depth=2,eval=nonsense", ValueError, "evaluation"),
        # A value of another type than the parameter's default is refused before any search.
        ("minimax:depth=x", AgentSpecError, "depth must be int, not 'x'"),
        ("minimax:depth=1.5", AgentSpecError, "depth must be int, not 1.5"),
        ("mcts:sims=8,fpu=abc", AgentSpecError, "fpu must be float, not 'abc'"),
        ("mcts:sims=8,fpu_parent=yes", AgentSpecError, "fpu_parent must be bool, not 'yes'"),
        ("mcts:sims=true", AgentSpecError, "sims must be int, not True"),
    ],
)
def test_bad_specs_are_clear(spec: str, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        make_agent(spec)


def test_random_agent_spreads_its_moves() -> None:
    agent = make_agent("random", seed=0)
    seen = {agent.select_move(Board()) for _ in range(40)}
    assert len(seen) == 4
    rng = random.Random(0)
    assert rng  # the agent's own generator is separate from Python's
