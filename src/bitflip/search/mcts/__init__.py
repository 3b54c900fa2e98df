"""Monte Carlo tree search: array-based PUCT trees, batched leaf evaluation across games.

The search defines the :class:`PolicyValueFn` protocol it consumes; :mod:`bitflip.nn.policy_value`
implements it with a network and :mod:`.rollout` with random playouts.
"""

from __future__ import annotations

from bitflip.search.mcts.search import (
    NUM_MOVES,
    BatchedMCTS,
    MCTSConfig,
    PolicyValueFn,
    SearchOutput,
    choose_moves,
)

__all__ = [
    "NUM_MOVES",
    "BatchedMCTS",
    "MCTSConfig",
    "PolicyValueFn",
    "SearchOutput",
    "choose_moves",
]
