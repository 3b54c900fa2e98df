"""A corner-loving agent, registered as "corner": the agent of tutorial 2.

Import this file (``--plugin examples/corner_agent.py``) and ``corner`` plays wherever an
agent spec is asked for: ``corner`` or ``corner:x_penalty=5``.
"""

from __future__ import annotations

import random

from bitflip import Board, Move
from bitflip.agents import register_agent

CORNERS = {0, 7, 56, 63}  # a1, h1, a8, h8
X_SQUARES = {9: 0, 14: 7, 49: 56, 54: 63}  # b2, g2, b7, g7, each with its corner


class CornerAgent:
    """Take a corner when it can; avoid the X-square beside an empty corner; else leave the
    opponent as few moves as possible."""

    def __init__(self, x_penalty: float = 10.0, seed: int | None = None) -> None:
        self.x_penalty = x_penalty
        self.rng = random.Random(seed)
        self.name = "corner"

    def new_game(self) -> None:
        pass

    def score(self, board: Board, move: Move) -> float:
        if move in CORNERS:
            return 100.0
        penalty = 0.0
        corner = X_SQUARES.get(move)
        if corner is not None and board.color_at(corner) is None:
            penalty = self.x_penalty
        child = board.copy()
        child.push(move)
        return -len(child.legal_moves) - penalty

    def select_move(self, board: Board) -> Move:
        moves = list(board.legal_moves)
        scores = [self.score(board, m) + self.rng.random() * 1e-3 for m in moves]  # ties: random
        return moves[scores.index(max(scores))]


register_agent("corner", CornerAgent)
