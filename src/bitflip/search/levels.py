"""Engine levels 1-20: depth, exact-endgame depth and selectivity presets.

Shared by the CLI, the NBoard protocol and the web app. A level searches the midgame
``depth`` plies deep, solves the game exactly once at most ``endgame_depth`` squares are
empty, proves win, loss or draw up to three empties before that (``wld_depth``; Zebra's levels
prove two before), and prunes with Multi-ProbCut at the given ``selectivity`` (the confidence
of each cut in percent; None searches without ProbCut). Levels are monotone: a higher level
never searches less deep or solves later, and it prunes more boldly only where that buys at
least two plies (levels 14 and 17: measured as the stronger use of the time, see below).

=====  =====  =========  ======  ===========
level  depth  endgame    wld     selectivity
=====  =====  =========  ======  ===========
1      1      2          5       --
2      2      4          7       --
3      3      6          9       --
4      4      8          11      --
5      5      10         13      --
6      6      12         15      91
7      7      14         17      91
8      8      16         19      91
9      9      17         20      91
10     10     18         21      91
11     11     18         21      91
12     12     19         22      91
13     13     20         22+     95
14     18/14  20         22/25   88/95
15     18     20         22/25   88
16     18     22         25*     88
17     20     22         23/25   91
18     22     24         27*     91
19     22     25         27*     98
20     22     26         27*     99
=====  =====  =========  ======  ===========

``18/14`` and ``88/95``: 18 plies at 88%, 14 at 95% while 42 or more squares are empty
(``opening_depth``, ``opening_empties``, ``opening_selectivity``). ``22+``: full proofs to 22
empties and a selective one at 23 (``selective_wld_depth``: the endgame search's ProbCut passes
only; a likely win or draw is the answer, else the midgame search moves). ``22/25``, ``23/25``:
full proofs to 22 or 23 (``full_wld_depth`` caps the rule), selective ones beyond, to 25.
``25*``, ``27*``: selective proofs alone, past the exact solve. Levels 18-20 make their
selective proofs, and the passes before their exact solves, surer than the others (t = 2.4,
``proof_t``). Level 18 bounds each solve at 400 million nodes (``solve_nodes``, about 23 s on
a 2-core Zen 4 VM): past them its last finished selective pass answers. Of its first solves
in 200 games against NTest (23-24 empties) one passed them (481 million nodes; the same move
with the budget); one at 24 in another game took 2.24 billion (82 s, a forfeit at the
referee's 60 s) and with the budget answers in 15 s, keeping the win (+2 where +4 was best).
A full proof proves only a win to the end: a loss or a draw its surer selective pass finds
settles it (the same play against NTest in 0.89-0.91x the default's time, step 46).
Levels 15, 16, 19 and 20 take their neighbours' proofs unmeasured, so that no higher level
proves less.

Why, each measured in games against NTest at about its time a move, paired by opening
(``benchmarks/RESULTS-ntest.md``, by step): the default's two plies below 42 empties, at
NTest's time, scored 5.5 +- 2.7 points over depth 14 everywhere (1,200 games, step 37), where a
15th ply everywhere bought 0.3 +- 3.2; two more there at a bolder ProbCut (18 at 88% for 16 at
95%) 2.0 +- 2.7 over 1,200 games in 0.95x the time (step 38). At the default level the
selective proof at 23 plays as a full one did for 18% less time (-0.8 +- 0.6 points over 400
games, step 8), and the selective proofs to 25 add 1.9 +- 1.2 points over 800 (step 9); level
17's proofs to 25 add 2.5 +- 2.1 over 200 (step 8); level 18's to 27, NTest's shape, 1.8 +- 1.6
over 200 (step 27), and its exact solve from 24 instead of a proof there 2.6 +- 1.3 over 400
(step 34); its surer proofs (t = 2.4 for 2.1) +1.0 +- 1.4 over 200 at 1.03x NTest's time a move
for 0.93-0.97x (step 44; +1.2 +- 1.3 over 200 at 1.13x in step 41, before the static check).
Levels 17 and 18 bought their depth with a bolder ProbCut than 95%: depth 20 at 91%
scored 6.0 +- 4.7 points over depth 18 at 95% (400 games, step 7), depth 22 at 91% 2.1 +- 4.2
over depth 20 at 95% (400, step 33), each in the same time.
"""

from __future__ import annotations

from dataclasses import dataclass

WLD_AHEAD = 3
"""How many empties before its exact solve a level starts proving win/loss/draw."""
WLD_MAX_EMPTIES = 23
"""The most empties a level proves win/loss/draw at. Against Zebra at depth 11 (which proves
from 22), level 14 (exact from 20) scored 61.3% with no proofs, 65.0% proving from 22 and 67.5%
from 23 on the same 200 openings; from 23 a move took 48.8 ms against Zebra's 45.9. Level 18
proving from 25 empties scored no better against Zebra at depth 21 (56.2% of 80 against 56.9%
of 240) for 29% more time (``benchmarks/RESULTS-search.md``)."""


@dataclass(frozen=True)
class LevelSpec:
    """One level's search settings."""

    depth: int
    """Midgame search depth in plies."""
    endgame_depth: int
    """Solve exactly when at most this many squares are empty."""
    selectivity: int | None = None
    """Multi-ProbCut confidence in percent (None: no ProbCut)."""
    selective_wld_depth: int = 0
    """Prove win, loss or draw with the endgame search's ProbCut (a likely result, not a proof)
    when at most this many squares are empty and the full proofs do not reach (they then stop
    one empty earlier); 0: no selective proofs."""
    full_wld_depth: int = 0
    """The most empties the full proofs reach, where the rule of :attr:`wld_depth` would take
    them further (0: the rule). Levels 14-16 prove selectively from 23 empties on, where a
    full proof costs a fifth of their time."""
    proof_t: int = 0
    """How sure the surer selective rank is (its endgame ProbCut t in hundredths; 0: the solver's
    own, :data:`bitflip.search.endgame.EG_PC_T`). Levels 18-20 prove at t = 2.4
    (``SearchPlan.proof_t``)."""
    solve_nodes: int = 0
    """The most nodes a solve or proof with selective passes before it may search; past them
    its last finished pass answers (0: no budget; ``SearchPlan.solve_nodes``)."""
    opening_depth: int = 0
    """Midgame depth in plies while at least ``opening_empties`` squares are empty (0: ``depth``
    everywhere). Level 14 spends four plies less in the opening, where they buy least against
    NTest, and searches 18 plies from the midgame on."""
    opening_empties: int = 0
    """The fewest empties at which ``opening_depth`` applies."""
    opening_selectivity: int | None = None
    """ProbCut confidence in percent with ``opening_depth`` (None: ``selectivity``)."""

    def depth_at(self, empties: int) -> int:
        """Midgame search depth in a position with ``empties`` empty squares."""
        return self.opening_depth if self._in_opening(empties) else self.depth

    def selectivity_at(self, empties: int) -> int | None:
        """ProbCut confidence in a position with ``empties`` empty squares."""
        if self._in_opening(empties) and self.opening_selectivity is not None:
            return self.opening_selectivity
        return self.selectivity

    def _in_opening(self, empties: int) -> bool:
        return bool(self.opening_depth) and empties >= self.opening_empties

    @property
    def wld_depth(self) -> int:
        """Prove win, loss or draw first when at most this many squares are empty:
        :data:`WLD_AHEAD` more than the exact solve, up to :data:`WLD_MAX_EMPTIES`, below
        ``selective_wld_depth`` and at most ``full_wld_depth`` when set (equal to
        ``endgame_depth``: no proofs)."""
        full = min(self.endgame_depth + WLD_AHEAD, WLD_MAX_EMPTIES)
        if self.selective_wld_depth:
            full = min(full, self.selective_wld_depth - 1)
        if self.full_wld_depth:
            full = min(full, self.full_wld_depth)
        return max(self.endgame_depth, full)


_TABLE = (
    # LevelSpec(depth, exact from, ProbCut %, selective proofs to, full proofs at most to), the
    # last two 0 where a level has none or takes the rule; the opening's settings by name.
    LevelSpec(1, 2),
    LevelSpec(2, 4),
    LevelSpec(3, 6),
    LevelSpec(4, 8),
    LevelSpec(5, 10),
    LevelSpec(6, 12, 91),
    LevelSpec(7, 14, 91),
    LevelSpec(8, 16, 91),
    LevelSpec(9, 17, 91),
    LevelSpec(10, 18, 91),
    LevelSpec(11, 18, 91),
    LevelSpec(12, 19, 91),
    LevelSpec(13, 20, 95, 23),
    LevelSpec(18, 20, 88, 25, 22, opening_depth=14, opening_empties=42, opening_selectivity=95),
    LevelSpec(18, 20, 88, 25, 22),
    LevelSpec(18, 22, 88, 25, 22),
    LevelSpec(20, 22, 91, 25),
    LevelSpec(22, 24, 91, 27, proof_t=240, solve_nodes=400_000_000),
    LevelSpec(22, 25, 98, 27, proof_t=240),
    LevelSpec(22, 26, 99, 27, proof_t=240),
)

LEVELS: dict[int, LevelSpec] = {i + 1: spec for i, spec in enumerate(_TABLE)}
"""Level number (1-20) to its settings."""

MIN_LEVEL = 1
MAX_LEVEL = 20
DEFAULT_LEVEL = 14
"""The level a user gets without asking: a move in 0.13 s on average, at most a third of a
second, on the benchmark positions, and about the time NTest takes at depth 16 in games. Its
standing against NTest and Zebra at equal time, and level 18's at about a third of a second,
is kept step by step in ``benchmarks/RESULTS-ntest.md`` and summed up in the engine guide
(``docs/guides/engine.md``, Levels)."""


MAX_EXTENDED_LEVEL = 60
"""Levels past the table, for NBoard's ``set depth`` up to a whole game's 60 plies."""


def extended_level(level: int) -> LevelSpec:
    """Level 1-20 from the table; above, one ply deeper a level and exact 6 empties later.

    Raises:
        ValueError: not a whole number from 1 to 60.
    """
    if not isinstance(level, int) or isinstance(level, bool):
        raise ValueError(f"level must be a whole number, not {level!r}")
    if level <= MAX_LEVEL:
        return level_spec(level)
    if level > MAX_EXTENDED_LEVEL:
        raise ValueError(f"level must be at most {MAX_EXTENDED_LEVEL}, not {level}")
    return LevelSpec(depth=level + 1, endgame_depth=min(60, level + 6), selectivity=99)


def level_spec(level: int) -> LevelSpec:
    """The settings of a level, with a clear error for a level that does not exist."""
    if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
        raise ValueError(
            f"level must be a whole number from {MIN_LEVEL} to {MAX_LEVEL}, not {level!r}"
        )
    return LEVELS[level]
