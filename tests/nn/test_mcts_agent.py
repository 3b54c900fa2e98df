"""The ``mcts`` agent spec: a network file becomes the search's policy-value function."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from bitflip.agents import make_agent  # noqa: E402
from bitflip.core.board import Board  # noqa: E402
from bitflip.nn.alphazero import AZNet, AZNetConfig  # noqa: E402
from bitflip.nn.checkpoint import save_model  # noqa: E402
from bitflip.nn.policy_value import NetPolicyValue  # noqa: E402
from bitflip.search.mcts import PolicyValueFn  # noqa: E402
from bitflip.search.mcts.agent import MCTSAgent  # noqa: E402


@pytest.fixture(scope="module")
def net_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch.manual_seed(0)
    net = AZNet(AZNetConfig(size=6, channels=8, fc1=16, fc2=16))
    return save_model(net, tmp_path_factory.mktemp("nets"))


def test_a_net_file_plays_through_the_search(net_file: Path) -> None:
    agent = make_agent(f"mcts:net={net_file},sims=8,leaves=2", seed=0)
    assert isinstance(agent, MCTSAgent)
    assert isinstance(agent.policy_value, NetPolicyValue)
    assert isinstance(agent.policy_value, PolicyValueFn)
    assert agent.name == f"mcts:sims=8,net={net_file},leaves=2" and agent.size == 6
    board = Board(size=6)
    assert agent.select_move(board) in board.legal_moves
    with pytest.raises(ValueError, match="plays 6x6 boards, not 8x8"):
        agent.select_move(Board())


def test_without_a_net_the_search_rolls_out() -> None:
    agent = make_agent("mcts:sims=8,size=4", seed=1)
    assert isinstance(agent, MCTSAgent) and agent.policy_value is None
    board = Board(size=4)
    assert agent.select_move(board) in board.legal_moves
