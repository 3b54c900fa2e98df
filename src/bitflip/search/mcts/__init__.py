"""Monte Carlo tree search: array-based PUCT trees, batched leaf evaluation across games.

:func:`make_mcts` builds the search a config names: PUCT at the root, or the Gumbel root of
:mod:`.gumbel`. Both are a :class:`BatchedSearch`, the interface that the games of
:mod:`.games` drive.

The search defines the :class:`PolicyValueFn` protocol it consumes; :mod:`bitflip.nn.policy_value`
implements it with a network and :mod:`.rollout` with random playouts.
"""

from __future__ import annotations

from bitflip.search.mcts.gumbel import GumbelMCTS, make_mcts
from bitflip.search.mcts.search import (
    NUM_MOVES,
    BatchedMCTS,
    BatchedSearch,
    MCTSConfig,
    PolicyValueFn,
    SearchOutput,
    choose_moves,
)

__all__ = [
    "NUM_MOVES",
    "BatchedMCTS",
    "BatchedSearch",
    "GumbelMCTS",
    "MCTSConfig",
    "PolicyValueFn",
    "SearchOutput",
    "choose_moves",
    "make_mcts",
]
