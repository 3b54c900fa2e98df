"""A PettingZoo AEC environment: two agents, ``black`` and ``white``, take turns."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from bitflip.core.board import BLACK, Board
from bitflip.envs._common import action_to_move, legal_action_mask, planes


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's standard wrappers (illegal moves end the game)."""
    e: Any = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # type: ignore[misc]  # pettingzoo has no py.typed; PettingZoo's name
    """Othello for two agents. Observation: {"observation": (3, S, S) int8 from the mover's
    view, "action_mask": int8 (S*S+1)}; action ``r * S + c``, or ``S * S`` to pass (legal
    only when no square is). Rewards +1 / 0 / -1 at the end."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "bitflip_othello_v0",
        "is_parallelizable": False,
    }

    def __init__(self, size: int = 8, render_mode: str | None = None) -> None:
        super().__init__()
        self.size = size
        self.render_mode = render_mode
        self.possible_agents = ["black", "white"]
        n = size * size + 1
        obs = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (3, size, size), np.int8),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.board = Board(size=size)

    def observation_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:  # type: ignore[type-arg]
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # The board from this agent's view: swap planes when it is not to move.
        obs = planes(self.board)
        mask = legal_action_mask(self.board, with_pass=True)
        if agent != self.agent_selection:
            obs = np.stack([obs[1], obs[0], np.zeros_like(obs[2])])
            mask = np.zeros_like(mask)
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.board = Board(size=self.size)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = "black"

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        self.board.push(action_to_move(int(action), self.size))
        if self.board.is_game_over():
            out = self.board.outcome()
            assert out is not None
            for a in self.agents:
                me = BLACK if a == "black" else BLACK.other
                self.rewards[a] = 0.0 if out.winner is None else (1.0 if out.winner == me else -1.0)
                self.terminations[a] = True
        self.agent_selection = "black" if self.board.turn == BLACK else "white"
        self._accumulate_rewards()

    def render(self) -> str | None:
        return str(self.board) if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass
