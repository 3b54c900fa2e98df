"""From a request to a search plan: what a level or a :class:`~bitflip.search.limits.Limit`
means for the driver (how deep, when to prove and solve, how long, how selective).

One unit of selectivity inside the search: the Multi-ProbCut threshold ``t`` in hundredths of
a standard deviation (``SearchPlan.probcut_t``, the control array's ``MPC_T``). Levels and
front ends speak of the confidence of a cut in percent, as Edax and NBoard show it;
:func:`probcut_t` and :func:`confidence_percent` convert between the two.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from statistics import NormalDist

from bitflip.search.control import MPC_PRETEST
from bitflip.search.levels import LevelSpec, extended_level, level_spec
from bitflip.search.limits import Limit
from bitflip.search.timeman import budget

_NORMAL = NormalDist()


def probcut_t(percent: int | None) -> int:
    """The ProbCut threshold (hundredths of a standard deviation) of a one-sided confidence in
    percent; 0 (no ProbCut) for None."""
    if percent is None:
        return 0
    return round(100 * _NORMAL.inv_cdf(percent / 100))


def confidence_percent(t: int) -> int:
    """The one-sided confidence in percent of a ProbCut threshold ``t`` (hundredths)."""
    return round(100 * _NORMAL.cdf(t / 100))


SELECTIVE_WLD_SURE = 3
"""Empties past a plan's full proofs that its selective proofs still make at the surer rank."""


@dataclass(frozen=True)
class SearchPlan:
    """A resolved request: how deep, when to solve exactly, how long (seconds), how selective."""

    max_depth: int = 60
    exact_empties: int = 0
    """Solve exactly (disc difference) when at most this many squares are empty."""
    wld: bool = False
    """Exact solves prove only win, loss or draw (scores -1, 0, +1 times the margin sign)."""
    wld_empties: int = 0
    """With more empties than ``exact_empties`` but at most this many, first prove win, loss
    or draw (as Zebra does two empties before its exact solve); a proven win or draw is the
    answer, a loss falls back to the midgame search, whose move is the hardest to punish. Only
    a win is proven to the end: a loss or a draw the proof's surer selective pass finds settles
    it (the driver's ``settle``)."""
    selective_wld_empties: int = 0
    """With more empties than ``wld_empties`` but at most this many, the same proof cut by
    the endgame's ProbCut (as NTest proves 23-26 empties at its depth 16): surer (rank 2) up
    to :data:`SELECTIVE_WLD_SURE` empties past ``wld_empties``, rank 1 beyond. A win or draw
    it finds is the answer; otherwise the midgame search picks the move."""
    proof_t: int = 0
    """The endgame ProbCut threshold t of the surer selective rank (selective proofs near the
    full ones, and the passes before a deep exact solve), in hundredths (0: the solver's own,
    :data:`bitflip.search.endgame.EG_PC_T`)."""
    solve_nodes: int | None = None
    """The most nodes a solve or proof with selective passes before it may search (all its
    passes); past them the last finished pass answers, unproven (None: no budget). Levels
    bound their solves so (``LevelSpec.solve_nodes``); a limit asking for a solve does not."""
    probcut_t: int = 0
    """Multi-ProbCut threshold t in hundredths of a standard deviation (0: no ProbCut)."""
    probcut_mode: int = MPC_PRETEST
    """How ProbCut checks a node (:data:`bitflip.search.control.MPC_MODE`). The static
    pre-test by default (only the side the node's evaluation leans to is checked, as in Edax and
    Egaroucid): level 14 played as with both sides checked (+0.5 +- 3.6 points over 400 games
    paired by opening against NTest at depth 16) in 0.93-0.96x the time to depths 10-16
    (``benchmarks/RESULTS-ntest.md``, step 31)."""
    nodes: int | None = None
    hard_time: float | None = None
    """Seconds after which the search is stopped, whatever it is doing."""
    soft_time: float | None = None
    """Seconds after which no new iteration starts (predicted from the last ones)."""
    multipv: bool = False
    """Score every root move exactly (for hints) instead of only the best one."""
    contempt: int = 0
    """Eval units a draw is worse than 0 for the side to move (midgame search only: exact
    scores on 8x8 are even disc counts, so contempt below 2 discs could not change a solve)."""
    exclude: int = 0
    """Root moves (a square bit mask) not to search: the book builder scores a position's
    moves that leave its book."""


def level_plan(
    spec: LevelSpec, empties: int, *, multipv: bool = False, contempt: int = 0
) -> SearchPlan:
    """The search plan of a level's settings in a position with ``empties`` empty squares: its
    depth there, its proof and exact solve, its ProbCut (benchmarks build plans of settings no
    level has the same way)."""
    return SearchPlan(
        max_depth=spec.depth_at(empties),
        exact_empties=spec.endgame_depth,
        wld_empties=spec.wld_depth,
        selective_wld_empties=spec.selective_wld_depth,
        proof_t=spec.proof_t,
        solve_nodes=spec.solve_nodes or None,
        probcut_t=probcut_t(spec.selectivity_at(empties)),
        multipv=multipv,
        contempt=contempt,
    )


def resolve_plan(
    limit: Limit | None,
    *,
    level: int,
    empties: int,
    multipv: bool = False,
    contempt: int = 0,
) -> SearchPlan:
    """The plan for ``limit`` in a position with ``empties`` empty squares, for an engine at
    ``level`` (None, or a limit naming nothing but a level: that level's own plan).

    - ``exact`` or ``wld``: solve from here, within the limit's nodes and time.
    - ``depth``: exactly that many plies, no ProbCut; a depth reaching the end is an exact
      solve; with a time or node limit as well, the level's exact solve still applies.
    - ``time``/``clocks``/``nodes`` alone: deepen until the limit, with the level's exact
      solve and ProbCut (a ``level`` in the limit chooses that level's depth as the cap).
    """
    spec = level_spec(level)
    if limit is not None and limit.level is not None:
        spec = extended_level(limit.level)
        if limit == Limit(level=limit.level):
            limit = None
    if limit is None:
        return level_plan(spec, empties, multipv=multipv, contempt=contempt)
    soft = hard = limit.time
    if limit.clocks is not None:
        tb = budget(limit.clocks, empties)
        soft = tb.soft if soft is None else min(soft, tb.soft)
        hard = tb.hard if hard is None else min(hard, tb.hard)
    base = SearchPlan(
        nodes=limit.nodes, hard_time=hard, soft_time=soft, multipv=multipv, contempt=contempt
    )
    if limit.exact or limit.wld:
        return replace(base, exact_empties=64, wld=limit.wld)
    if limit.depth is not None and limit.depth >= empties:
        # A depth reaching the end is a solve, not 60 midgame plies.
        return replace(base, max_depth=limit.depth, exact_empties=empties)
    if limit.depth is not None:
        timed = soft is not None or limit.nodes is not None
        exact = spec.endgame_depth if timed else 0
        return replace(base, max_depth=limit.depth, exact_empties=exact)
    return replace(
        base,
        max_depth=spec.depth_at(empties) if limit.level is not None else 60,
        exact_empties=spec.endgame_depth,
        probcut_t=probcut_t(spec.selectivity_at(empties)),
    )


def ponder_plan(level: int, *, contempt: int = 0) -> SearchPlan:
    """Pondering: deepen without a limit until stopped, solving where the level would."""
    return SearchPlan(
        max_depth=60, exact_empties=level_spec(level).endgame_depth, contempt=contempt
    )
