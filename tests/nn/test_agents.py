"""Network agents and the shipped networks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from bitflip.agents import Agent, AgentSpecError, make_agent  # noqa: E402
from bitflip.core.board import Board  # noqa: E402
from bitflip.nn.agents import DATA_DIR, PolicyAgent, ValueAgent, shipped_net  # noqa: E402
from bitflip.nn.checkpoint import load_model, save_model  # noqa: E402
from bitflip.nn.models import (  # noqa: E402
    PolicyNet,
    PolicyNetConfig,
    ValueNet,
    ValueNetConfig,
)


@pytest.fixture(scope="module")
def nets(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("nets")
    torch.manual_seed(0)
    pol = save_model(PolicyNet(PolicyNetConfig(channels=(4,), head="maxpool")), d)
    val = save_model(ValueNet(ValueNetConfig(conv_channels=(4,), dense=(8,))), d)
    return pol, val


def play_out(agent: Agent, opponent: Agent, plies: int = 200) -> Board:
    board = Board()
    agents = [agent, opponent]
    while not board.is_game_over() and plies:
        move = agents[board.ply % 2].select_move(board)
        assert board.is_legal(move)
        board.push(move)
        plies -= 1
    return board


def test_policy_agent_plays_the_most_probable_legal_move(nets: tuple[Path, Path]) -> None:
    agent = make_agent(f"policy:net={nets[0]}", seed=0)
    assert isinstance(agent, PolicyAgent)
    board = Board()
    probs = agent.move_probabilities(board)
    legal = list(board.legal_moves)
    assert probs.sum() == pytest.approx(1.0, abs=1e-5)
    assert probs[[m for m in range(64) if m not in legal]].sum() == 0
    assert agent.select_move(board) == max(legal, key=lambda m: probs[m])
    hot = make_agent(f"policy:net={nets[0]},temperature=2", seed=1)
    assert play_out(hot, make_agent("random", seed=2)).is_game_over()


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_value_agent_plays_legal_games(nets: tuple[Path, Path], depth: int) -> None:
    agent = make_agent(f"value:net={nets[1]},depth={depth}", seed=0)
    assert isinstance(agent, ValueAgent)
    board = play_out(agent, make_agent("random", seed=3), plies=12 if depth == 3 else 200)
    assert agent.nodes > 0
    assert board.ply > 0


def test_value_agent_scores_finished_games_exactly(nets: tuple[Path, Path]) -> None:
    # X to move; a1 flips white's only disc and ends the game: a win beats any net value.
    board = Board("-OX" + "-" * 61 + " X")
    agent = ValueAgent(str(nets[1]), depth=1, seed=0)
    p, o = (np.uint64(x) for x in board.side_bitboards())
    (child,) = agent._children(p, o)
    assert agent._leaf_values([child])[0] >= 10
    assert agent.select_move(board) == 0
    assert ValueAgent(str(nets[1]), depth=2).select_move(board) == 0


def test_bad_specs_and_wrong_kinds(nets: tuple[Path, Path], tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a value network"):
        make_agent(f"value:net={nets[0]}")
    with pytest.raises(AgentSpecError):
        make_agent(f"value:net={nets[1]},depth=0")
    with pytest.raises(FileNotFoundError):
        make_agent(f"policy:net={tmp_path / 'nope.pt'}")


def test_shipped_networks_load_and_have_cards() -> None:
    for kind in ("policy", "value"):
        path = shipped_net(kind)
        assert path.stat().st_size < 20_000_000
        loaded = load_model(path)
        assert loaded.config.kind == kind
        assert loaded.metrics["test"]["positions"] > 100_000
        card = DATA_DIR / f"{path.stem}.md"
        assert card.exists(), f"{path.name} has no model card"
        assert path.name in card.read_text()
    policy = make_agent("policy:net=builtin", seed=0)
    assert policy.select_move(Board()) in Board().legal_moves
    assert np.isfinite(
        make_agent("value:net=builtin,depth=1").evaluate(
            [np.uint64(Board().side_bitboards()[0])], [np.uint64(Board().side_bitboards()[1])]
        )
    ).all()
