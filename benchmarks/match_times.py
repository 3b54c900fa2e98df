"""Where each side of a match spends its time: mean ms a move by count of empties.

Reads `nboard_match.py --out` records (plain or gzipped) and replays each game (passes
included) to know how many squares were empty at each timed move. Two engines with the same
mean time a move can spend it very differently (NTest at depth 20 spends four times bitflip's
level 17 at 24-29 empties, its selective proofs, and a quarter at 18-23), and that is where a
plan change should put or take time.

Run: python benchmarks/match_times.py MATCH.jsonl.gz [MORE.jsonl ...]

Prints a table a file: empties band, A's and B's mean ms a move (moves timed) and A / B.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from match_errors import match_games, plies

BANDS = ((48, 60), (42, 47), (36, 41), (30, 35), (24, 29), (18, 23), (0, 17))
"""Empties bands: the opening, the midgame in steps of six, the proofs, the exact solves."""


def times_by_empties(path: Path) -> dict[str, dict[int, list[float]]]:
    """For "A" and "B": seconds of each timed move, by the empties before it."""
    out: dict[str, dict[int, list[float]]] = {"A": defaultdict(list), "B": defaultdict(list)}
    for g in match_games(path):
        taken = {"A": 0, "B": 0}
        for board, move, side, past_opening in plies(g):
            if move == "pa" or not past_opening:  # a forced pass: the referee times no search
                continue
            per_move = g["time"][side]["per_move_s"]
            if taken[side] < len(per_move):
                out[side][board.empties].append(per_move[taken[side]])
            taken[side] += 1
    return out


def table(path: Path) -> str:
    t = times_by_empties(path)
    lines = [path.name, "| empties | A ms (moves) | B ms (moves) | A / B |", "|---|---|---|---|"]
    totals = {"A": [0.0, 0], "B": [0.0, 0]}
    for lo, hi in BANDS:
        cell = {}
        for side in "AB":
            xs = [x for e in range(lo, hi + 1) for x in t[side].get(e, [])]
            totals[side][0] += sum(xs)
            totals[side][1] += len(xs)
            cell[side] = (1000 * sum(xs) / len(xs), len(xs)) if xs else (0.0, 0)
        ratio = f"{cell['A'][0] / cell['B'][0]:.2f}" if cell["B"][0] > 0 else "-"
        lines.append(
            f"| {lo}-{hi} | {cell['A'][0]:.1f} ({cell['A'][1]}) | {cell['B'][0]:.1f} "
            f"({cell['B'][1]}) | {ratio} |"
        )
    ma, mb = (1000 * s / max(n, 1) for s, n in (totals["A"], totals["B"]))
    lines.append(f"| all | {ma:.1f} ({totals['A'][1]}) | {mb:.1f} ({totals['B'][1]}) | "
                 f"{ma / mb if mb else 0:.2f} |")  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", type=Path, nargs="+", help="nboard_match.py --out files")
    for path in ap.parse_args().records:
        print(table(path))
        print()


if __name__ == "__main__":
    main()
