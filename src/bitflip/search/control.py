"""What every search kernel shares: the control array's slots and the score bounds.

A search hands its kernels one int64 array, ``ctl``: they count nodes in it, poll its stop
flag (set by another thread, a timer or the node budget) and read the search's settings from
it. Its slots are named here and nowhere else.
"""

from __future__ import annotations

import numpy as np

from bitflip.core.jit import kernel

NODES = 0
"""Nodes searched so far."""
MAX_NODES = 1
"""The node budget: reaching it sets ``STOP``."""
STOP = 2
"""Nonzero: every kernel returns at once with a meaningless score."""
GENERATION = 3
"""The transposition tables' current search generation (older entries are replaced first)."""
MPC_T = 4
"""The midgame Multi-ProbCut confidence t, in hundredths (0: off)."""
CONTEMPT = 5
"""A drawn end is worth minus this (eval units) to the side to move at the root, and plus
this to its opponent."""
EG_RANK = 6
"""How sure the endgame search must be: ``EXACT_RANK`` (no ProbCut) or a selective rank (an
index into :data:`bitflip.search.endgame.EG_PC_T`)."""
EG_TT_EMPTIES = 7
"""From this many empties the endgame solver uses its transposition table (set per solve by
:func:`bitflip.search.endgame.table_empties`)."""
MPC_MODE = 8
"""How Multi-ProbCut checks a node: a sum of :data:`MPC_FLAT` and :data:`MPC_PRETEST` (0: the
check search is selective too, and both sides are checked). Plans use the pre-test unless told
otherwise (``SearchPlan.probcut_mode``)."""
EG_SURE_T = 9
"""The ProbCut confidence t of the endgame's surer selective rank (2), in hundredths of a standard
deviation, for this search (0: :data:`bitflip.search.endgame.EG_PC_T`'s; a level may prove more
surely, ``SearchPlan.proof_t``)."""
CTL_SIZE = 10

MPC_FLAT = 1
"""The check search runs without ProbCut inside it (as NTest and Egaroucid do): a cut rests on a
full-width shallow value, not on a guess of a guess."""
MPC_PRETEST = 2
"""Check only the side the node's static evaluation leans to (as Edax and Egaroucid do): the
high cut when it is at least beta, the low cut when it is at most alpha."""

EXACT_RANK = 3
"""The endgame rank of a proof: no ProbCut cut."""
SHALLOW_TT_EMPTIES = 8
"""The solver's table threshold (``EG_TT_EMPTIES``) unless a deep solve raises it."""

INF = 1_000_000
"""Beyond every score in eval units (midgame and evaluation scores)."""
DISC_INF = 1000
"""Beyond every score in discs (endgame scores)."""
DISC_BOUND = 65
"""One more than the largest final margin (64 discs): the endgame's whole window is
(-DISC_BOUND, DISC_BOUND), and a score clipped to it is still a true bound."""


@kernel(inline=True)
def count_node(ctl: np.ndarray) -> bool:
    """Count a node in ``ctl``; True when the search must stop (the node budget is spent, or
    ``STOP`` was set by another thread or a timer)."""
    ctl[NODES] += 1
    if ctl[NODES] >= ctl[MAX_NODES]:
        ctl[STOP] = 1
    return bool(ctl[STOP] != 0)


def new_control(max_nodes: int | None = None, generation: int = 1) -> np.ndarray:
    """The int64 control array a search shares with the threads that may stop it."""
    ctl = np.zeros(CTL_SIZE, dtype=np.int64)
    start_search(ctl, max_nodes=max_nodes, generation=generation)
    return ctl


def start_search(
    ctl: np.ndarray,
    *,
    max_nodes: int | None = None,
    generation: int = 1,
    mpc_t: int = 0,
    mpc_mode: int = 0,
    contempt: int = 0,
    eg_sure_t: int = 0,
) -> None:
    """Ready ``ctl`` for a new search: counters and the stop flag cleared, settings written,
    the endgame exact."""
    ctl[NODES] = 0
    ctl[MAX_NODES] = max_nodes if max_nodes is not None else np.iinfo(np.int64).max
    ctl[STOP] = 0
    ctl[GENERATION] = generation
    ctl[MPC_T] = mpc_t
    ctl[MPC_MODE] = mpc_mode
    ctl[CONTEMPT] = contempt
    ctl[EG_SURE_T] = eg_sure_t
    ctl[EG_RANK] = EXACT_RANK
    ctl[EG_TT_EMPTIES] = SHALLOW_TT_EMPTIES
