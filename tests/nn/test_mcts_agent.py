"""The ``mcts`` agent spec: a network file becomes the search's policy-value function."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from bitflip.agents import AgentSpecError, make_agent  # noqa: E402
from bitflip.core.arrays import transform_many  # noqa: E402
from bitflip.core.board import Board  # noqa: E402
from bitflip.core.geometry import PASS  # noqa: E402
from bitflip.nn.alphazero import (  # noqa: E402
    AZNet,
    AZNetConfig,
    action_squares,
    symmetry_action_table,
)
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


def _positions(size: int, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Sides (to move, other) of positions a few random moves into games on ``size``."""
    rng = np.random.default_rng(seed)
    p, o = [], []
    while len(p) < count:
        board = Board(size=size)
        for _ in range(int(rng.integers(2, 9))):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(moves[int(rng.integers(len(moves)))])
        if not board.is_game_over() and list(board.legal_moves) != [PASS]:
            a, b = board.side_bitboards()
            p.append(a)
            o.append(b)
    return np.array(p, np.uint64), np.array(o, np.uint64)


@pytest.mark.parametrize("size", [6, 8])
def test_symmetries_average_the_net_over_the_orientations(size: int) -> None:
    torch.manual_seed(1)
    net = AZNet(AZNetConfig(size=size, channels=8, fc1=16, fc2=16))
    with torch.no_grad():  # larger weights than at initialisation: values and priors that vary
        for weight in net.parameters():
            weight.mul_(1.5)
    plain = NetPolicyValue(net)
    p, o = _positions(size, 12, seed=size)
    table = symmetry_action_table(size)
    columns = action_squares(size)
    for k in (2, 4, 8):
        averaged = NetPolicyValue(net, symmetries=k, max_batch=20)  # several chunks
        policy, values = averaged.evaluate(p, o)
        # The mean of the plain net over the orientations, each prior mapped back to its move.
        want_v = np.zeros(len(p))
        want_p = np.zeros((len(p), len(columns)))
        for s in range(k):
            syms = np.full(len(p), s, np.int64)
            pol, val = plain.evaluate(transform_many(p, syms, size), transform_many(o, syms, size))
            want_v += val / k
            want_p += pol[:, columns][:, table[s]] / k
        np.testing.assert_allclose(values, want_v, atol=1e-5)
        np.testing.assert_allclose(policy[:, columns], want_p, atol=1e-5)
        np.testing.assert_allclose(policy.sum(axis=1), 1.0, atol=1e-5)
        # So the average is invariant under its symmetries: the last one here, for instance.
        syms = np.full(len(p), k - 1, np.int64)
        pol_t, val_t = averaged.evaluate(
            transform_many(p, syms, size), transform_many(o, syms, size)
        )
        np.testing.assert_allclose(val_t, values, atol=1e-5)
        np.testing.assert_allclose(
            pol_t[:, columns][:, table[k - 1]], policy[:, columns], atol=1e-5
        )
    # One orientation is the plain net, and averaging is not: the test can tell them apart.
    pol1, v1 = plain.evaluate(p, o)
    pol8, v8 = NetPolicyValue(net, symmetries=8).evaluate(p, o)
    assert np.abs(v1 - v8).max() > 0.01 and np.abs(pol1 - pol8).max() > 0.05


def test_the_agent_spec_takes_symmetries(net_file: Path) -> None:
    agent = make_agent(f"mcts:net={net_file},sims=8,symmetries=4", seed=0)
    assert isinstance(agent, MCTSAgent) and isinstance(agent.policy_value, NetPolicyValue)
    assert agent.policy_value.symmetries == 4
    assert agent.name == f"mcts:sims=8,net={net_file},symmetries=4"
    board = Board(size=6)
    assert agent.select_move(board) in board.legal_moves
    with pytest.raises(AgentSpecError, match=r"symmetries must be one of \(1, 2, 4, 8\), not 3"):
        make_agent(f"mcts:net={net_file},symmetries=3")
    with pytest.raises(AgentSpecError, match="symmetries averages a net"):
        make_agent("mcts:sims=8,symmetries=2")
    with pytest.raises(ValueError, match="symmetries must be one of"):
        NetPolicyValue(AZNet(AZNetConfig(size=6, channels=8, fc1=16, fc2=16)), symmetries=0)
