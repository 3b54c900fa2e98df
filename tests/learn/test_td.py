"""TD(lambda) on FIREBRAND features: stable staged training, files, the td agent."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bitflip.agents import make_agent
from bitflip.core.board import Board
from bitflip.eval.firebrand import FirebrandWeights, firebrand_score, hand_firebrand_weights
from bitflip.learn.td import (
    TDConfig,
    _grad,
    from_linear,
    load_tdconfig,
    plot_trajectory,
    to_linear,
    train_td,
)


def test_linear_form_is_the_firebrand_value() -> None:
    w = hand_firebrand_weights().vector()
    b = Board()
    for m in ("f5", "d6", "c3", "d3"):
        b.push(m)
    p, o = (np.uint64(x) for x in b.side_bitboards())
    mask = np.uint64(b.geometry.mask)
    assert np.isclose(_grad(p, o, mask, to_linear(w))[0], firebrand_score(p, o, mask, w))
    assert np.allclose(from_linear(to_linear(w)), w)


@pytest.mark.slow
def test_staged_training_runs_and_records_a_trajectory(tmp_path: Path) -> None:
    cfg = TDConfig(size=6, stages=(10, 20, 32), games_per_stage=40, snapshot_every=10)
    result = train_td(cfg)
    assert result.trajectory.shape == (13, 16)
    assert list(result.games[:3]) == [0, 10, 20] and result.stage_starts == [0, 40, 80]
    assert np.isfinite(result.trajectory).all()
    assert not np.allclose(result.trajectory[0], result.trajectory[-1])  # it learned something
    path = tmp_path / "w.json"
    result.weights.save(path)
    assert np.allclose(FirebrandWeights.load(path).w, result.weights.w)
    assert plot_trajectory(result, tmp_path / "t.png").stat().st_size > 1000


def test_td_agent_plays_with_learned_and_hand_weights(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    hand_firebrand_weights().save(path)
    b = Board(size=6)
    for spec in (f"td:weights={path},depth=2", "td:depth=1"):
        assert make_agent(spec, seed=0).select_move(b) in b.legal_moves
    with pytest.raises(ValueError, match="depth"):
        make_agent("td:depth=0")


def test_td_agent_at_depth_1_picks_the_move_its_weights_like_best() -> None:
    # One ply: the chosen move leaves the opponent the lowest FIREBRAND score (to the
    # centidisc the engine's evaluation rounds to).
    w = hand_firebrand_weights().vector()
    agent = make_agent("td:depth=1", seed=3)
    rng = np.random.default_rng(5)
    for _ in range(5):
        b = Board()
        for _ in range(int(rng.integers(4, 30))):
            moves = list(b.legal_moves)
            b.push(moves[int(rng.integers(len(moves)))])
        if 64 in b.legal_moves:
            continue
        mask = np.uint64(b.geometry.mask)
        after = {}
        for m in b.legal_moves:
            b.push(m)
            p, o = (np.uint64(x) for x in b.side_bitboards())
            after[m] = firebrand_score(p, o, mask, w)
            b.pop()
        assert after[agent.select_move(b)] <= min(after.values()) + 0.01


def test_config_checks(tmp_path: Path) -> None:
    shipped = Path(__file__).resolve().parents[2] / "configs" / "td.toml"
    assert load_tdconfig(shipped).stages == (10, 20, 40, 60)
    bad = tmp_path / "td.toml"
    bad.write_text("size = 8\nlamda = 0.5\n")
    with pytest.raises(ValueError, match="lamda"):
        load_tdconfig(bad)
    with pytest.raises(ValueError, match="size"):
        TDConfig(size=4)
