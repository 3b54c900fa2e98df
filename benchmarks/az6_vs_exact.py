"""A 6x6 AlphaZero net against exact play.

6x6 Othello is solved: with perfect play White wins 20-16 (Feinstein, 1993), so the start is
worth -4 to Black. The net plays itself from the start (no noise, most visited move; with
``--exact N`` the agent's own exact option plays the positions of at most N empties), then
the moves are checked with the solver (:mod:`bitflip.search.exact`) from the last one back,
until ``--budget`` seconds are spent:

* at most ``--solve-from`` empties: a full solve of every move (``solve_moves``): is the move
  played one of the best?
* the first move: the four are one under the board's symmetries, so it keeps the value.
* more empties: the value the move reached is known (the position after it was checked
  first), say x for the mover, so one search of the position with the window (x - 2, x + 2)
  says whether a better move exists (margins are even on 6x6; fail-soft, a result inside the
  window is exact). Much cheaper than a full solve, yet minutes near the start.

The check is complete from the most empties it reached; if it reaches the start, the start's
value must come out -4.

    PYTHONPATH=src python benchmarks/az6_vs_exact.py --net builtin --sims 400 --exact 20 \
        --solve-from 22 --budget 1200
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bitflip.agents import make_agent
from bitflip.cli._numbers import positive_float, positive_int
from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.search import exact
from bitflip.search.exact import solve, solve_moves

START_VALUE = -4
"""Perfect-play margin of the 6x6 start for Black, the side to move (16-20)."""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--net", default="builtin", help="net file (default: the shipped 6x6 one)")
    ap.add_argument("--sims", type=int, default=400)
    ap.add_argument("--exact", type=int, default=0, help="the agent's exact option (empties)")
    ap.add_argument("--cpuct", type=positive_float, help="the agent's cpuct (default: its own)")
    ap.add_argument("--leaves", type=positive_int, help="leaves a round (default: the agent's)")
    ap.add_argument("--solve-from", type=int, default=14, help="full solves at <= N empties")
    ap.add_argument("--budget", type=float, default=600.0, help="seconds for the checks")
    ap.add_argument("--tt-mb", type=int, default=64, help="the solver's table (MB)")
    ap.add_argument("--line", help="check this game (as printed after 'game:') instead")
    resume = ("positions up to EMPTIES were checked and kept the value; the one with EMPTIES is "
              "worth VALUE to its mover: check the earlier ones")  # fmt: skip
    ap.add_argument("--resume", nargs=2, type=int, metavar=("EMPTIES", "VALUE"), help=resume)
    args = ap.parse_args()
    exact.TT_MB = args.tt_mb  # before the first solve makes the table
    spec = f"mcts:net={args.net},size=6,sims={args.sims}"
    spec += f",exact={args.exact}" if args.exact else ""
    spec += f",cpuct={args.cpuct}" if args.cpuct is not None else ""
    spec += f",leaves={args.leaves}" if args.leaves is not None else ""
    b = Board(size=6)
    mask = np.uint64(b.geometry.mask)
    opening = b.side_bitboards()
    positions: list[tuple[int, int, int, int]] = []  # (player, opponent, empties, move)
    t0 = time.time()
    agent = None if args.line else make_agent(spec, seed=0)
    line = [args.line[i : i + 2] for i in range(0, len(args.line or ""), 2)]
    while not b.is_game_over():
        move = (
            b.geometry.parse_square(line[len(positions)]) if agent is None else agent.select_move(b)
        )
        p, o = b.side_bitboards()
        positions.append((p, o, b.empties, move))
        b.push(move)
    out = b.outcome()
    assert out is not None
    names = "".join(b.geometry.square_name(m) for *_, m in positions)
    who = "the line given" if agent is None else f"{spec} vs itself from the start"
    print(f"{who}: {out.black}-{out.white} (perfect play: 16-20), {time.time() - t0:.0f} s")
    print("game:", names, flush=True)
    start = time.time()
    after: int | None = None  # value of the position after the move checked, for its mover
    checked = kept = reached = 0
    if args.resume:
        done, value_there = args.resume
        positions = [x for x in positions if x[2] > done]
        after = value_there
        reached = done
    for p, o, empties, move in reversed(positions):
        if time.time() - start > args.budget:
            break
        t1 = time.time()
        if move == PASS:
            after = None if after is None else -after
            continue
        value: int | None
        if (p, o) == opening and after is not None:  # the four first moves are one by symmetry
            value = reached_value = -after
        elif empties <= args.solve_from or after is None:
            values = solve_moves(p, o, mask)
            value, reached_value = int(max(values)), int(values[move])
            assert after is None or reached_value == -after, "the solver disagrees with itself"
        else:
            reached_value = -after
            got = solve(p, o, mask, reached_value - 2, reached_value + 2)
            value = got if reached_value - 2 < got < reached_value + 2 else None
        ok = value == reached_value
        checked += 1
        kept += int(ok)
        reached = empties
        after = value
        square, verdict = b.geometry.square_name(move), "kept" if ok else "LOST"
        took = time.time() - t1
        print(f"{empties:2d} empties {square}: {verdict} the value "
              f"({reached_value:+d} for the mover; {took:.1f} s)", flush=True)  # fmt: skip
    print(f"checked up to {reached} empties ({checked} moves in this run): "
          f"{kept}/{checked} kept the exact value")  # fmt: skip
    if reached == 36 - 4 and after is not None:
        print(f"value of the start by the checks: {after:+d} for Black (known: {START_VALUE:+d})")


if __name__ == "__main__":
    main()
