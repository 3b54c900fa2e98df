"""Bounded numbers for command-line options: one argparse type for every numeric option.

``type=IntRange(0, 65535)`` refuses ``--port 99999`` while parsing, in one line that names the
bound (``argument --port: a whole number >= 0 and <= 65535, not 99999``), before any output and
before any value reaches numba, numpy or the operating system (where a huge number is an
OverflowError or a 64 TiB allocation). :meth:`IntRange.check` applies the same bound to a value
met later (a config file's), as a ``ValueError`` that the command reports in one line.

The bounds below are shared: every option of the same kind has the same range.
"""

from __future__ import annotations

import argparse
import math
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class IntRange:
    """An argparse type: a whole number in ``[low, high]``."""

    low: int
    high: int

    def describe(self) -> str:
        return f"a whole number >= {self.low} and <= {self.high}"

    def __call__(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{self.describe()}, not {text!r}") from None
        if not self.low <= value <= self.high:
            raise argparse.ArgumentTypeError(f"{self.describe()}, not {value}")
        return value

    def check(self, value: int, name: str) -> int:
        """``value`` itself when in range; else a ValueError naming ``name`` and the bound."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} must be {self.describe()}, not {value!r}")
        if not self.low <= value <= self.high:
            raise ValueError(f"{name} must be {self.describe()}, not {value}")
        return value


@dataclass(frozen=True)
class FloatRange:
    """An argparse type: a finite number above ``low`` (or from it, if ``inclusive``) and at
    most ``high``."""

    low: float
    high: float
    inclusive: bool = False

    def describe(self) -> str:
        op = ">=" if self.inclusive else ">"
        return f"a number {op} {_text(self.low)} and <= {_text(self.high)}"

    def _ok(self, value: float) -> bool:
        above = value >= self.low if self.inclusive else value > self.low
        return math.isfinite(value) and above and value <= self.high

    def __call__(self, text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{self.describe()}, not {text!r}") from None
        if not self._ok(value):
            raise argparse.ArgumentTypeError(f"{self.describe()}, not {text}")
        return value

    def check(self, value: float, name: str) -> float:
        """``value`` itself when in range; else a ValueError naming ``name`` and the bound."""
        if isinstance(value, bool) or not isinstance(value, int | float) or not self._ok(value):
            raise ValueError(f"{name} must be {self.describe()}, not {value!r}")
        return value


def _text(x: float) -> str:
    return str(int(x)) if x.is_integer() else str(x)


def _memory_mib() -> int:
    """This machine's memory in MiB (1 TiB where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (AttributeError, ValueError, OSError):
        return 2**20


MAX_COUNT = 10**9
"""Games, positions, episodes, epochs: far more than any run, small enough for any array."""

COUNT = IntRange(1, MAX_COUNT)
COUNT_OR_ZERO = IntRange(0, MAX_COUNT)
"""A count where 0 means "all" or "none"."""
DEPTH = IntRange(1, 60)
"""Search depth in plies: a game has at most 60 moves left."""
PLY = IntRange(0, 60)
PERFT_DEPTH = IntRange(0, 20)
"""Perft depth: 8x8 counts grow about 11 times a ply (perft(19) is 2.9e16, shared/data/perft.md),
so perft(20) is years of counting and past depth 21 a count overflows 64 bits."""
LEVEL = IntRange(1, 20)
"""Engine levels (bitflip.search.levels MIN_LEVEL..MAX_LEVEL; a test checks they agree)."""
MOVES = IntRange(1, 64)
"""How many moves a hint lists."""
THREADS = IntRange(1, 256)
WORKERS = IntRange(1, 1024)
TT_MB = IntRange(1, _memory_mib())
"""Transposition table MiB: at most this machine's memory."""
PORT = IntRange(0, 65535)
SEED = IntRange(0, 2**32 - 1)
YEAR = IntRange(0, 65535)
"""A WTHOR header's year (two bytes)."""
SECONDS = FloatRange(0.0, 1e6)
"""A time limit in seconds (11 days at most; Python's timers refuse much more)."""
SECONDS_OR_ZERO = FloatRange(0.0, 1e6, inclusive=True)
MINUTES = FloatRange(0.0, 1e6)
DISCS = FloatRange(0.0, 128.0, inclusive=True)
"""A disc margin (losses, randomness): 0 to twice a board's squares."""
ELO = FloatRange(-1e5, 1e5, inclusive=True)


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1 (and <= :data:`MAX_COUNT`)."""
    return COUNT(text)


def positive_float(text: str) -> float:
    """An argparse type: a number > 0 (seconds, minutes) and at most :data:`SECONDS`' bound."""
    return SECONDS(text)
