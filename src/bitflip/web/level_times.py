"""How long a move takes at each engine level here: the labels of the page's level picker.

Measured, not guessed: ``PYTHONPATH=src python benchmarks/level_times.py --levels 1 2 ... 20
--ffo ../shared/data/ffo`` (a move from a fresh 64 MB table on the 8 bench positions plus
FFO #1 and #40, wall seconds) on the 2-core development VM. ``benchmarks/RESULTS-web.md`` keeps
each measurement with its date, code, weights and load; remeasure a level when its settings
change. Moves in a game come faster than these: the table is warm from the previous move and
from pondering.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LevelTime:
    """Wall seconds a move takes at one level: the mean and the slowest of the positions."""

    mean: float
    max: float


LEVEL_TIMES: dict[int, LevelTime] = {
    1: LevelTime(0.00, 0.01),
    2: LevelTime(0.00, 0.00),
    3: LevelTime(0.00, 0.00),
    4: LevelTime(0.00, 0.00),
    5: LevelTime(0.00, 0.00),
    6: LevelTime(0.00, 0.00),
    7: LevelTime(0.00, 0.00),
    8: LevelTime(0.00, 0.00),
    9: LevelTime(0.00, 0.01),
    10: LevelTime(0.01, 0.02),
    11: LevelTime(0.01, 0.03),
    12: LevelTime(0.01, 0.04),
    13: LevelTime(0.07, 0.32),
    14: LevelTime(0.13, 0.32),
    15: LevelTime(0.14, 0.32),
    16: LevelTime(0.19, 0.71),
    17: LevelTime(0.28, 0.54),
    18: LevelTime(0.68, 3.04),
    19: LevelTime(2.25, 12.33),
    20: LevelTime(13.65, 105.83),
}
"""Level (1-20) to its measured move time."""


def seconds_text(s: float) -> str:
    """A duration as people read it: 'instant', '0.3 s', '12 s', '1.5 min'."""
    if s < 0.05:
        return "instant"
    if s < 10:
        return f"{s:.1f} s"
    if s < 90:
        return f"{s:.0f} s"
    return f"{s / 60:.1f} min"


def level_label(level: int) -> str:
    """'Level 13: 0.1 s a move (at most 0.3 s)' from the measured times."""
    t = LEVEL_TIMES[level]
    if t.max < 0.05:
        return f"Level {level}: instant"
    return f"Level {level}: {seconds_text(t.mean)} a move (at most {seconds_text(t.max)})"
