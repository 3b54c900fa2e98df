"""A bitflip player with search settings no level has, for ``../shared/tools/nboard_match.py``.

The referee loads it in its own process (so run the referee with the project's venv Python and
``PYTHONPATH=src``) and calls the factory once: ``--a 'benchmarks/plan_player.py:from_env()'``.
The settings come from ``BITFLIP_PLAN=DEPTH,EXACT,WLD,SELECTIVITY`` (ProbCut confidence in
percent, 0 for none), e.g. ``BITFLIP_PLAN=8,13,17,0`` for depth 8 without ProbCut, exact from 13
empties and win/loss/draw from 17; a fifth value proves win/loss/draw selectively up to that
many empties (``SearchPlan.selective_wld_empties``). One table for the whole match, kept from
move to move and from game to game as ``bitflip nboard`` keeps it (the referee's ``set game``
does not clear it, nor NTest's); ``BITFLIP_CLEAR_TABLE=1`` clears it at each game's start, as
this player did before 2026-11-28. The difference is not small: the referee plays each opening
twice in a row, colours swapped, and the second game meets the first's positions in the table
(plan 14,20,23,95 scored 40.2% against NTest at depth 16 with a fresh table a game, where
``bitflip nboard`` at level 14 scored 44.8% on the same 200 openings, all of it in the games
bitflip played second; ``benchmarks/RESULTS-ntest.md``, step 8). ``BITFLIP_MPC_MODE`` sets how
ProbCut checks a node (``SearchPlan.probcut_mode``; default the engine's, the pre-test; 0 checks
both sides) and ``BITFLIP_MPC_FITS`` names a JSON list of ProbCut fits (``ProbCutFit`` fields)
to use instead of the shipped ones, or a ``.npy`` ProbCut table (rows by depth, as
:func:`bitflip.search.probcut.table_from_fits` makes them). ``BITFLIP_EVAL`` names the
evaluation (a weights file, or a name ``load_evaluation`` knows; default: the shipped one).
``BITFLIP_EARLY=DEPTH,EMPTIES`` searches ``DEPTH`` plies instead in positions with at least
``EMPTIES`` empties (where a level's search is cheapest: spending more there, as NTest's even
times a move do). ``from_env_b()`` reads the same variables ending in ``_B``, so two plans can
play each other. ``BITFLIP_BANDS=EMPTIES:DEPTH[:SELECTIVITY],...`` generalises it
(``BITFLIP_EARLY=D,E`` is the band ``E:D``): a position with at least ``EMPTIES`` empties
searches ``DEPTH`` plies (with that ProbCut confidence, when given), the band with the most
empties that applies winning (``38:13,26:16:88``: depth 13 from 38 empties, 16 at 88% at 26-37,
the plan below 26). ``BITFLIP_SOFT_MS=MS`` stops the midgame's iterative deepening before an
iteration predicted to end after ``MS`` milliseconds (``SearchPlan.soft_time``; the plan's depth
is then a cap), so the time a move decides the depth instead of the depth the time.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from bitflip.core.bitboard import FULL
from bitflip.engine import load_engine_evaluation
from bitflip.search.driver import Searcher
from bitflip.search.plan import SearchPlan, probcut_t
from bitflip.search.probcut import ProbCutFit, load_table, table_from_fits


class PlanPlayer:
    """Plays the best move of one fixed search plan."""

    def __init__(
        self,
        depth: int,
        exact: int,
        wld: int,
        selectivity: int,
        mode: int = 0,
        fits: Path | None = None,
        evaluation_name: str = "default",
        selective_wld: int = 0,
        clear_table: bool = False,
        bands: list[tuple[int, ...]] | None = None,
    ) -> None:
        evaluation = load_engine_evaluation(evaluation_name)
        if fits is None:
            table = load_table(evaluation.name)
        elif fits.suffix == ".npy":
            table = np.load(fits)
        else:
            table = table_from_fits([ProbCutFit(**f) for f in json.loads(fits.read_text())])
        self.searcher = Searcher(evaluation, tt_mb=64, mpc=table)
        self.plan = SearchPlan(
            max_depth=depth,
            exact_empties=exact,
            wld_empties=max(wld, exact),
            probcut_t=probcut_t(selectivity or None),
            probcut_mode=mode,
            selective_wld_empties=selective_wld,
        )
        self.clear_table = clear_table
        self.bands = sorted(bands or [], reverse=True)
        """(min empties, depth[, ProbCut confidence]), most empties first."""

    def new_game(self, state: Any, color: int) -> None:
        if self.clear_table:
            self.searcher.clear()

    def __call__(self, state: Any) -> int:
        p, o = state.bitboards()
        plan = self.plan
        empties = 64 - (p | o).bit_count()
        for min_empties, depth, *selectivity in self.bands:
            if empties >= min_empties:
                plan = replace(plan, max_depth=depth)
                if selectivity:
                    plan = replace(plan, probcut_t=probcut_t(selectivity[0] or None))
                break
        result, _ = self.searcher.search(p, o, int(FULL), plan)
        return int(result.move)


def from_env() -> PlanPlayer:
    return _from_env("")


def from_env_b() -> PlanPlayer:
    """A second plan player for matches of two plans: the same variables ending in ``_B``
    (``BITFLIP_PLAN_B``, ``BITFLIP_MPC_MODE_B``, ``BITFLIP_MPC_FITS_B``, ``BITFLIP_EVAL_B``,
    ``BITFLIP_CLEAR_TABLE_B``)."""
    return _from_env("_B")


def _from_env(suffix: str) -> PlanPlayer:
    name = "BITFLIP_PLAN" + suffix
    text = os.environ.get(name, "")
    try:
        depth, exact, wld, sel, *more = (int(x) for x in text.split(","))
        (selective_wld,) = more or [0]
    except ValueError:
        raise SystemExit(
            f"{name} must be DEPTH,EXACT,WLD,SELECTIVITY[,SELECTIVE_WLD], not {text!r}"
        ) from None
    fits = os.environ.get("BITFLIP_MPC_FITS" + suffix)
    mode = int(os.environ.get("BITFLIP_MPC_MODE" + suffix, str(SearchPlan().probcut_mode)))
    evaluation = os.environ.get("BITFLIP_EVAL" + suffix, "default")
    fits_path = Path(fits) if fits else None
    early_text = os.environ.get("BITFLIP_EARLY" + suffix, "")
    early: list[tuple[int, ...]] = []
    if early_text:
        try:
            early_depth, early_empties = (int(x) for x in early_text.split(","))
        except ValueError:
            raise SystemExit(
                f"BITFLIP_EARLY{suffix} must be DEPTH,EMPTIES, not {early_text!r}"
            ) from None
        early = [(early_empties, early_depth)]  # a band of its own
    clear = os.environ.get("BITFLIP_CLEAR_TABLE" + suffix, "") == "1"
    bands_text = os.environ.get("BITFLIP_BANDS" + suffix, "")
    try:
        bands = [tuple(int(x) for x in band.split(":")) for band in bands_text.split(",") if band]
        if any(len(band) not in (2, 3) for band in bands):
            raise ValueError
    except ValueError:
        raise SystemExit(
            f"BITFLIP_BANDS{suffix} must be EMPTIES:DEPTH[:SELECTIVITY],..., not {bands_text!r}"
        ) from None
    player = PlanPlayer(
        depth, exact, wld, sel, mode, fits_path, evaluation, selective_wld, clear, early + bands
    )
    soft_ms = os.environ.get("BITFLIP_SOFT_MS" + suffix, "")
    if soft_ms:
        try:
            soft = float(soft_ms) / 1000
            if not soft > 0:  # also refuses nan
                raise ValueError
        except ValueError:
            raise SystemExit(
                f"BITFLIP_SOFT_MS{suffix} must be milliseconds above 0, not {soft_ms!r}"
            ) from None
        player.plan = replace(player.plan, soft_time=soft)
    # Compile the kernels before the first game's clock runs; then start from an empty table.
    player.searcher.search(0x0000000810000000, 0x0000001008000000, int(FULL), player.plan)
    player.searcher.clear()
    return player
