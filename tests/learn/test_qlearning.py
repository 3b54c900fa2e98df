"""Tabular Q-learning: it learns 4x4, tables round-trip, the agent plays from a table."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bitflip.agents import make_agent
from bitflip.core.board import Board
from bitflip.learn.qlearning import QConfig, QTable, evaluate, load_qconfig, train


def test_learns_4x4_against_random(tmp_path: Path) -> None:
    cfg = QConfig(size=4, episodes=20000, opponent="random", table_bits=16, seed=1)
    table = train(QTable.empty(cfg))
    assert table.episodes_done == 20000 and table.used > 0
    w, d, lost = evaluate(table, None, 4, 400, seed=2)
    rw, _, _ = evaluate(None, None, 4, 400, seed=2)
    assert w > rw + 60  # far better than a random player
    path = table.save(tmp_path / "q4.npz")
    again = QTable.load(path)
    assert again.config == cfg and np.array_equal(again.values, table.values)
    assert evaluate(again, None, 4, 400, seed=2) == (w, d, lost)


def test_selfplay_training_resumes_where_it_stopped() -> None:
    cfg = QConfig(size=4, episodes=4000, table_bits=14)
    a = train(QTable.empty(cfg), chunk=1000)
    b = train(QTable.empty(cfg), episodes=2000, chunk=1000)
    assert b.episodes_done == 2000
    train(b, chunk=1000)
    assert b.episodes_done == 4000
    assert np.array_equal(a.keys, b.keys)  # same seeds, same chunking of episodes


def test_full_table_stops_storing() -> None:
    table = train(QTable.empty(QConfig(size=8, episodes=300, table_bits=8)))
    assert table.used <= int(256 * 0.9) + 1


def test_agent_from_table(tmp_path: Path) -> None:
    table = train(QTable.empty(QConfig(size=4, episodes=500, table_bits=12)))
    path = table.save(tmp_path / "t.npz")
    agent = make_agent(f"qlearning:table={path}", seed=0)
    b = Board(size=4)
    assert agent.select_move(b) in b.legal_moves
    with pytest.raises(ValueError, match="plays 4x"):
        agent.select_move(Board(size=6))


def test_bad_files_and_configs(tmp_path: Path) -> None:
    bad = tmp_path / "x.npz"
    np.savez(bad, something=np.zeros(2))
    with pytest.raises(ValueError, match="not a bitflip Q-table"):
        QTable.load(bad)
    cfg = tmp_path / "q.toml"
    cfg.write_text("size = 4\nepisodez = 3\n")
    with pytest.raises(ValueError, match="episodez"):
        load_qconfig(cfg)
    with pytest.raises(ValueError, match="opponent"):
        replace(QConfig(), opponent="greedy")
    shipped = Path(__file__).resolve().parents[2] / "configs" / "qlearning.toml"
    assert load_qconfig(shipped).size == 4
