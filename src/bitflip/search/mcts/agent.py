"""An agent that plays the most visited move of a fresh PUCT search.

The search takes any :class:`~bitflip.search.mcts.PolicyValueFn`; without one it evaluates
leaves with random rollouts. The ``mcts`` agent spec (``mcts:sims=N,net=FILE``) is built in
:mod:`bitflip.nn.mcts_agent`, which turns a network file into a policy-value function, so
search never imports the networks.
"""

from __future__ import annotations

import numpy as np

from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS
from bitflip.search.mcts.gumbel import make_mcts
from bitflip.search.mcts.rollout import RolloutPolicyValue
from bitflip.search.mcts.search import BatchedSearch, MCTSConfig, PolicyValueFn, choose_moves


class MCTSAgent:
    """Plays the most visited move after ``sims`` simulations from a fresh tree.

    Every argument is a keyword (``MCTSAgent(sims=400, policy_value=net)``).

    Args:
        sims: simulations per move.
        policy_value: priors and values of leaf batches (a network); None: random rollouts.
        cpuct: PUCT exploration constant.
        leaves: descents per round (virtual loss); more leaves make bigger network batches.
        rollouts: random playouts per leaf when no ``policy_value`` is given.
        size: board size for rollouts (a ``policy_value`` knows its own).
        seed: seeds rollouts and tie-breaks.
        name: the agent's name (its spec).
        root: 'puct', or 'gumbel' for the Gumbel root (:mod:`.gumbel`; plays its chosen move).
        gumbel_m: root moves sampled under the Gumbel root.
        exact: positions with at most this many empty squares are not searched: the agent
            plays a move of the best exact value (:mod:`bitflip.search.exact`; the lowest
            square among equals). 0: never. Meant for small boards (6x6: 20 empties take
            about 0.1 s).
        fpu: the value of an unvisited move; with ``fpu_parent``, how far below the net's value
            of the position it leaves (:class:`~bitflip.search.mcts.search.MCTSConfig`).
        fpu_parent: unvisited moves are worth their position's value minus ``fpu``.
        solver: score bounds proved from the finished games the tree reaches
            (:class:`~bitflip.search.mcts.search.MCTSConfig`); no solver is called.
    """

    def __init__(
        self,
        *,
        sims: int = 200,
        policy_value: PolicyValueFn | None = None,
        cpuct: float = 1.5,
        leaves: int = 8,
        rollouts: int = 1,
        size: int = 8,
        seed: int | None = None,
        name: str | None = None,
        root: str = "puct",
        gumbel_m: int = 16,
        exact: int = 0,
        fpu: float = 0.0,
        fpu_parent: bool = False,
        solver: bool = False,
    ) -> None:
        if exact < 0:
            raise ValueError(f"exact must be >= 0, not {exact}")
        self.exact = exact
        self.rng = np.random.default_rng(seed)
        # Finished games on the net's own value scale (its training target's margin blend).
        margin = float(getattr(policy_value, "value_margin", 0.0))
        self.config = MCTSConfig(
            sims=sims, cpuct=cpuct, leaves_per_game=leaves, root=root, gumbel_m=gumbel_m,
            value_margin=margin, fpu=fpu, fpu_parent=fpu_parent, solver=solver,
        )  # fmt: skip
        self.policy_value = policy_value
        self.rollouts = rollouts
        self.seed = seed
        self._size = size
        self._searchers: dict[int, BatchedSearch] = {}
        self.name = name or f"mcts:sims={sims}"

    def _searcher(self, size: int) -> BatchedSearch:
        if size not in self._searchers:
            pv = self.policy_value
            if pv is None:
                pv = RolloutPolicyValue(size, self.rollouts, seed=int(self.rng.integers(2**31)))
            elif pv.size != size:
                raise ValueError(f"{self.name} plays {pv.size}x{pv.size} boards, not {size}x{size}")
            self._searchers[size] = make_mcts(pv, 1, self.config, seed=self.seed or 0)
        return self._searchers[size]

    @property
    def size(self) -> int:
        return self.policy_value.size if self.policy_value is not None else self._size

    def new_game(self) -> None:
        """Nothing to forget: every move starts a fresh tree."""

    def select_move(self, board: Board) -> Move:
        moves = list(board.legal_moves)
        if len(moves) <= 1:
            return moves[0] if moves else PASS
        p, o = board.side_bitboards()
        if board.empties <= self.exact:
            # Imported here: the solver's kernels cost 60 ms of start-up that agents without
            # ``exact`` should not pay.
            from bitflip.search.exact import solve_moves

            return int(np.argmax(solve_moves(p, o, board.geometry.mask)))
        out = self._searcher(board.size).search(np.array([p], np.uint64), np.array([o], np.uint64))
        return int(choose_moves(out.visits, np.zeros(1), self.rng)[0])
