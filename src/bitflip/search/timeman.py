"""Time management from the game clock, after the FIREBRAND report.

The budget of a move is its share of the time left, where the moves still to play are
weighted by game phase: the opening is cheap (books and shallow tactics), the middle game
and the moves just before the exact solve get the most, and the last moves are fast exact
solves. The search then stops starting iterations once the next one (predicted from the
growth of the last ones) would overrun the soft budget, and a timer stops it outright at
the hard budget, which always leaves a reserve on the clock: never lose on time.
"""

from __future__ import annotations

from dataclasses import dataclass

from bitflip.search.limits import Clocks

SAFETY = 0.1
"""Seconds always kept on the clock for the move's transmission and Python's overhead."""
RESERVE_FRACTION = 0.05
"""Part of the clock never planned for (kept for surprises, like a long exact solve)."""


def phase_weight(empties: int) -> float:
    """Relative thinking time of a move played with ``empties`` empty squares."""
    if empties > 46:
        return 0.6  # opening
    if empties > 26:
        return 1.3  # middle game
    if empties > 18:
        return 1.6  # late middle game, where the exact solve is reached
    return 0.5  # exact solves of small endgames


@dataclass(frozen=True)
class TimeBudget:
    """Seconds for one move: no new iteration after ``soft``, stopped at ``hard``."""

    soft: float
    hard: float


def budget(clocks: Clocks, empties: int) -> TimeBudget:
    """The time budget of the side to move with ``empties`` empty squares on the board."""
    usable = max(clocks.mine * (1 - RESERVE_FRACTION) - SAFETY, 0.0)
    if clocks.moves_to_go is not None and clocks.moves_to_go > 0:
        my_empties = [empties - 2 * i for i in range(clocks.moves_to_go)]
    else:
        my_empties = list(range(empties, 0, -2))
    total = sum(phase_weight(max(e, 1)) for e in my_empties) or 1.0
    share = phase_weight(empties) / total
    soft = usable * share + 0.8 * clocks.increment
    hard = min(max(soft * 3, soft + 0.05), max(usable + 0.5 * clocks.increment, clocks.mine / 4))
    # Never plan past the safety margin; when the clock is nearly empty, use part of it.
    hard = min(hard, max(clocks.mine - SAFETY, clocks.mine / 2))
    soft = min(max(soft, hard / 10), hard)
    return TimeBudget(soft=soft, hard=hard)
