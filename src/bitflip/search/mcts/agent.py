"""The ``mcts`` agent: PUCT search with a network (``mcts:net=FILE,sims=N``) or random rollouts.

torch is imported only when a net is given, so ``mcts:sims=N`` works without it.
"""

from __future__ import annotations

import numpy as np

from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS
from bitflip.search.mcts.rollout import RolloutEvaluator
from bitflip.search.mcts.search import BatchedMCTS, Evaluator, MCTSConfig, choose_moves


class MCTSAgent:
    """Plays the most visited move after ``sims`` simulations from a fresh tree.

    Args:
        sims: simulations per move.
        net: an AlphaZero network file (az-<hash>.pt), or ``builtin`` for the net shipped
            for ``size`` (8x8 or 6x6); without it, random rollouts evaluate.
        cpuct: PUCT exploration constant.
        leaves: descents per round (virtual loss); more leaves make bigger network batches.
        rollouts: random playouts per leaf when no net is given.
        device: torch device for the net ('auto', 'cpu', 'cuda').
        size: board size for rollouts and ``net=builtin`` (a net file knows its own).
        seed: seeds rollouts and tie-breaks.
    """

    def __init__(
        self,
        sims: int = 200,
        net: str | None = None,
        cpuct: float = 1.5,
        leaves: int = 8,
        rollouts: int = 1,
        device: str = "cpu",
        size: int = 8,
        seed: int | None = None,
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.config = MCTSConfig(sims=sims, cpuct=cpuct, leaves_per_game=leaves)
        self.net = net
        self.rollouts = rollouts
        self.seed = seed
        self.device = device
        self._size = size
        self._searchers: dict[int, BatchedMCTS] = {}
        self._evaluator: Evaluator | None = None
        self.name = f"mcts:sims={sims}" + (f",net={net}" if net else "")
        if net is not None:
            self._evaluator = self._net_evaluator()

    def _net_evaluator(self) -> Evaluator:
        from bitflip.nn.evaluator import NetEvaluator

        path = str(self.net)
        if path == "builtin":
            from bitflip.nn.agents import shipped_az_net

            path = str(shipped_az_net(self._size))
        return NetEvaluator.from_file(path, self.device)

    def _searcher(self, size: int) -> BatchedMCTS:
        if size not in self._searchers:
            if self._evaluator is not None:
                if self._evaluator.size != size:
                    raise ValueError(
                        f"the net {self.net} plays {self._evaluator.size}x"
                        f"{self._evaluator.size}, not {size}x{size}"
                    )
                ev: Evaluator = self._evaluator
            else:
                ev = RolloutEvaluator(size, self.rollouts, seed=int(self.rng.integers(2**31)))
            self._searchers[size] = BatchedMCTS(ev, 1, self.config, seed=self.seed or 0)
        return self._searchers[size]

    @property
    def size(self) -> int:
        return self._evaluator.size if self._evaluator is not None else self._size

    def new_game(self) -> None:
        """Nothing to forget: every move starts a fresh tree."""

    def select_move(self, board: Board) -> Move:
        moves = list(board.legal_moves)
        if len(moves) <= 1:
            return moves[0] if moves else PASS
        p, o = board.side_bitboards()
        out = self._searcher(board.size).search(np.array([p], np.uint64), np.array([o], np.uint64))
        return int(choose_moves(out.visits, np.zeros(1), self.rng)[0])
