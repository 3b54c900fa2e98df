"""The environments pass Gymnasium's and PettingZoo's own checkers; the vector env follows Board."""

from __future__ import annotations

import numpy as np
import pytest

from bitflip.core import bitboard as bb
from bitflip.core.board import Board
from bitflip.envs.vector import VectorOthello, random_actions

gym = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")


@pytest.mark.parametrize("size", [4, 6, 8])
def test_gymnasium_checker(size: int) -> None:
    from gymnasium.utils.env_checker import check_env

    from bitflip.envs.gym_env import OthelloEnv

    check_env(OthelloEnv(size=size, opponent="greedy"), skip_render_check=True)


def test_gymnasium_episode_against_an_agent() -> None:
    from bitflip.envs.gym_env import OthelloEnv

    env = OthelloEnv(size=6, opponent="minimax:depth=1", color="white")
    obs, info = env.reset(seed=3)
    assert obs.shape == (3, 6, 6) and info["action_mask"].sum() > 0
    rng = np.random.default_rng(0)
    done, reward = False, 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
    assert reward in (-1.0, 0.0, 1.0) and not info.get("illegal")
    env.reset(seed=4)
    _, reward, done, _, info = env.step(0)  # a1 is never legal at the start
    assert done and reward == -1.0 and info["illegal"]


# api_test's advice, not failures: the observation is a dict with an action mask, as in
# PettingZoo's own classic games, and the agents are named by colour, not "player_0".
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:We recommend agents to be named")
@pytest.mark.parametrize("size", [4, 6])
def test_pettingzoo_api_test(size: int) -> None:
    from pettingzoo.test import api_test

    from bitflip.envs.pz_env import env

    api_test(env(size=size), num_cycles=200)


def test_pettingzoo_game_to_the_end() -> None:
    from bitflip.envs.pz_env import env

    e = env(size=4)
    e.reset(seed=0)
    rng = np.random.default_rng(1)
    rewards = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        rewards[agent] = reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert rewards["black"] == -rewards["white"]


def test_vector_env_matches_board() -> None:
    n = 16
    env = VectorOthello(n, size=6)
    p, o, legal = env.reset()
    boards = [Board(size=6) for _ in range(n)]
    finished = 0
    for step in range(200):
        acts = random_actions(legal, step)
        rewards, dones = env.step(acts)
        for i, b in enumerate(boards):
            mover = b.turn
            b.push(int(acts[i]))
            if not b.is_game_over() and b.legal_mask() == 0:
                b.push(64)
            if b.is_game_over():
                out = b.outcome()
                assert out is not None and dones[i]
                expect = 0.0 if out.winner is None else (1.0 if out.winner == mover else -1.0)
                assert rewards[i] == expect
                boards[i] = Board(size=6)
                finished += 1
            else:
                assert not dones[i]
            bp, bo = boards[i].side_bitboards()
            assert (int(p[i]), int(o[i])) == (bp, bo)
            assert int(legal[i]) == boards[i].legal_mask()
    assert finished > 0 and not env.illegal.any()


def test_vector_env_illegal_action_restarts_the_board() -> None:
    env = VectorOthello(2, size=8)
    env.reset()
    rewards, dones = env.step(np.array([0, 19]))  # a1 illegal, d3 legal
    assert env.illegal[0] and dones[0] and rewards[0] == -1
    assert not env.illegal[1] and not dones[1]
    start = Board()
    assert int(env.p[0]) == start.black and int(env.legal[0]) == int(
        bb.legal_moves(
            np.uint64(start.black), np.uint64(start.white), np.uint64(start.geometry.mask)
        )
    )


def test_vector_env_parallel_twin_steps_like_the_serial_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def run() -> tuple[np.ndarray, np.ndarray, float]:
        env = VectorOthello(64, size=6)
        env.reset()
        total = 0.0
        for i in range(80):
            r, _ = env.step(random_actions(env.legal, i))
            total += float(r.sum())
        return env.p.copy(), env.o.copy(), total

    serial = run()
    monkeypatch.setattr("bitflip.core.parallel.threads_for", lambda work: 2)
    parallel = run()
    np.testing.assert_array_equal(serial[0], parallel[0])
    np.testing.assert_array_equal(serial[1], parallel[1])
    assert serial[2] == parallel[2]
