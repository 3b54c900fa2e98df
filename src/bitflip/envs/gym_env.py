"""A Gymnasium environment: the learner plays one colour against any registry agent."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from bitflip.agents import Agent, make_agent
from bitflip.core.board import BLACK, WHITE, Board, Color
from bitflip.core.geometry import PASS
from bitflip.envs._common import action_to_move, legal_action_mask, planes


class OthelloEnv(gym.Env[np.ndarray, np.int64]):
    """Othello against ``opponent`` (a spec such as ``"greedy"`` or ``"minimax:depth=2"``).

    Observation: int8 (3, S, S) planes from the learner's view (own, opponent, legal).
    Action: ``r * S + c``. The learner only sees positions where it has a move: its passes and
    the opponent's moves are played inside ``step``. ``info["action_mask"]`` marks the legal
    actions. Reward: +1 win, 0 draw, -1 loss at the end; an illegal action ends the episode
    with ``illegal_reward`` and ``info["illegal"] = True``.

    Args:
        size: board size (4, 6 or 8).
        opponent: registry agent spec.
        color: 'black', 'white' or 'random' (drawn at each reset).
        illegal_reward: reward of an illegal action.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012  # as gymnasium.Env

    def __init__(
        self,
        size: int = 8,
        opponent: str = "random",
        color: str = "random",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if color not in ("black", "white", "random"):
            raise ValueError(f"color must be black, white or random, not {color!r}")
        self.size = size
        self.opponent_spec = opponent
        self.color_choice = color
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, 1, (3, size, size), np.int8)
        self.action_space = spaces.Discrete(size * size)
        self.board = Board(size=size)
        self.learner: Color = BLACK
        self.opponent: Agent = make_agent(opponent, seed=0)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": legal_action_mask(self.board, with_pass=False), **extra}

    def _advance(self) -> None:
        # Play the opponent's moves and forced passes until the learner can move or it is over.
        while not self.board.is_game_over():
            if self.board.turn == self.learner:
                if self.board.legal_mask():
                    return
                self.board.push(PASS)
            else:
                self.board.push(self.opponent.select_move(self.board))

    def _reward(self) -> float:
        out = self.board.outcome()
        if out is None or out.winner is None:
            return 0.0
        return 1.0 if out.winner == self.learner else -1.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.opponent = make_agent(self.opponent_spec, seed=seed)
        self.opponent.new_game()
        self.board = Board(size=self.size)
        if self.color_choice == "random":
            self.learner = BLACK if self.np_random.integers(2) == 0 else WHITE
        else:
            self.learner = BLACK if self.color_choice == "black" else WHITE
        self._advance()
        return planes(self.board), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        move = action_to_move(int(action), self.size)
        if self.board.is_game_over() or move not in self.board.legal_moves:
            return planes(self.board), self.illegal_reward, True, False, self._info(illegal=True)
        self.board.push(move)
        self._advance()
        done = self.board.is_game_over()
        return planes(self.board), self._reward() if done else 0.0, done, False, self._info()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self.board)
        return None
